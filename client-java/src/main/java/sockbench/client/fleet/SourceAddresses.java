package sockbench.client.fleet;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import sockbench.client.engine.Target;

/**
 * The {@code --source-addresses} option: local addresses connections bind to, client i to
 * address i mod count. One source address has only the ephemeral port range (28,232 ports here:
 * 32768–60999) towards one server address and port, so more connections need more addresses;
 * on loopback every 127.x.y.z is local.
 */
public final class SourceAddresses {

    /** "auto": for a loopback server, {@link #LOOPBACK_DEFAULT}; otherwise the kernel's choice. */
    public static final String AUTO = "auto";
    /** "none": never bind (the kernel picks the source address and port). */
    public static final String NONE = "none";
    /** 8 loopback addresses: room for 8 × 28,232 connections to one server port. */
    public static final List<String> LOOPBACK_DEFAULT = List.of("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5",
            "127.0.0.6", "127.0.0.7", "127.0.0.8", "127.0.0.9");

    private SourceAddresses() {
    }

    /**
     * @param spec   "auto", "none" or a comma list of IP literals
     * @param target the server (decides "auto")
     * @throws IllegalArgumentException for anything that is not an IP literal
     */
    public static List<InetAddress> parse(String spec, Target target) {
        if (spec == null || spec.isBlank() || NONE.equals(spec)) {
            return List.of();
        }
        List<String> names = AUTO.equals(spec)
                ? (target.address().getAddress() != null && target.address().getAddress().isLoopbackAddress()
                        ? LOOPBACK_DEFAULT : List.of())
                : List.of(spec.split(","));
        List<InetAddress> out = new ArrayList<>();
        for (String n : names) {
            String s = n.trim();
            if (!s.matches("[0-9.]+|[0-9a-fA-F:]+")) {
                throw new IllegalArgumentException("not an IP address: '" + s + "' (expected e.g. 127.0.0.2,127.0.0.3)");
            }
            try {
                out.add(InetAddress.getByName(s));
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("not an IP address: '" + s + "'");
            }
        }
        return out;
    }

    /** Checks the syntax without a target ("auto" is accepted as is). */
    public static void check(String spec) {
        if (spec == null || AUTO.equals(spec) || NONE.equals(spec)) {
            return;
        }
        for (String n : spec.split(",")) {
            if (!n.trim().matches("[0-9.]+|[0-9a-fA-F:]+")) {
                throw new IllegalArgumentException("not an IP address: '" + n.trim() + "' (expected e.g. 127.0.0.2,127.0.0.3)");
            }
        }
    }
}
