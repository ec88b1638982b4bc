package sockbench.client.websocket;

import java.util.Locale;

/**
 * Our permessage-deflate offer (RFC 7692 §5) and the check of the server's answer, i.e. the
 * {@code Sec-WebSocket-Extensions} header of its {@code 101}.
 *
 * <p><b>The offer</b> is the plainest one: {@code permessage-deflate; client_max_window_bits}.
 * {@code client_max_window_bits} without a value only says we could honour a smaller window for
 * what we send (§7.1.2.2); we send uncompressed (RFC 7692 §6: a message without RSV1 is simply
 * not compressed), so any answer to it is fine. We ask for nothing about the server's side: it
 * keeps its window (up to 32 KiB) and its context across messages unless it says otherwise.
 *
 * <p><b>The answer</b> must name permessage-deflate exactly once and nothing else (we offered
 * nothing else), with only the four parameters of §7.1 and each at most once. What matters to
 * the receive path is {@code server_no_context_takeover}: then every message is a fresh deflate
 * stream and the inflater is reset after each. {@code server_max_window_bits} (8–15) needs
 * nothing: an inflater with the largest window reads any smaller one.
 */
public final class DeflateNegotiation {

    /** The request's {@code Sec-WebSocket-Extensions} value. */
    public static final String OFFER = "permessage-deflate; client_max_window_bits";

    private DeflateNegotiation() {
    }

    /**
     * Checks the answer to a request that offered {@code compression}.
     *
     * @param header the 101's {@code Sec-WebSocket-Extensions} value ("" when absent)
     * @return null when no extension is in use (and none was asked for), else the accepted
     *         deflate parameters
     * @throws WsProtocolException with one line saying what is wrong: an offer refused, an
     *         extension we did not offer, a parameter RFC 7692 does not allow
     */
    public static Accepted check(Compression compression, String header) {
        String answer = header == null ? "" : header.trim();
        if (compression == Compression.NONE) {
            if (!answer.isEmpty()) {
                throw new WsProtocolException("the server answered Sec-WebSocket-Extensions: " + answer
                        + " to a request that offered no extension (RFC 6455 §9.1)");
            }
            return null;
        }
        if (answer.isEmpty()) {
            throw new WsProtocolException("the server did not accept permessage-deflate (its 101 has no "
                    + "Sec-WebSocket-Extensions): this server cannot run with --compression permessage-deflate");
        }
        if (answer.contains(",")) {
            throw new WsProtocolException("the server accepted more than one extension: " + answer);
        }
        String[] parts = answer.split(";", -1);
        if (!parts[0].trim().equalsIgnoreCase("permessage-deflate")) {
            throw new WsProtocolException("the server answered an extension we did not offer: " + answer);
        }
        boolean serverNoContextTakeover = false;
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim();
            int eq = p.indexOf('=');
            String name = (eq < 0 ? p : p.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
            String value = eq < 0 ? null : unquote(p.substring(eq + 1).trim());
            if (!seen.add(name)) {
                throw new WsProtocolException("permessage-deflate parameter " + name + " twice in: " + answer);
            }
            switch (name) {
                case "server_no_context_takeover", "client_no_context_takeover" -> {
                    if (value != null) {
                        throw new WsProtocolException(name + " takes no value (RFC 7692 §7.1.1): " + answer);
                    }
                    serverNoContextTakeover |= name.startsWith("server");
                }
                case "server_max_window_bits", "client_max_window_bits" -> {
                    if (value == null || !value.matches("[1-9][0-9]?") || Integer.parseInt(value) < 8
                            || Integer.parseInt(value) > 15) {
                        throw new WsProtocolException(name + " must be 8..15 in an answer (RFC 7692 §7.1.2): " + answer);
                    }
                }
                default -> throw new WsProtocolException("unknown permessage-deflate parameter " + name + " in: " + answer);
            }
        }
        return new Accepted(serverNoContextTakeover);
    }

    private static String unquote(String v) {
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }

    /**
     * What the server accepted.
     *
     * @param serverNoContextTakeover every message is compressed on its own: reset the inflater after each
     */
    public record Accepted(boolean serverNoContextTakeover) {
    }
}
