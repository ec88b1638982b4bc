package sockbench.client.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which SockJS transport each client of a level uses: {@code websocket} (the default), one
 * transport ({@code xhr-streaming}), or a weighted mix
 * ({@code websocket:80,xhr-streaming:10,eventsource:5,xhr-polling:5}).
 *
 * <p><b>Deterministic and even.</b> Client i gets {@code cycle[i mod cycle.length]}, where the
 * cycle lists the transports by smooth weighted round robin over the weights divided by their
 * greatest common divisor (80:10:5:5 → a cycle of 20). So the same spec gives every run the same
 * assignment, any first N clients hold each transport within one session of its exact share, and
 * a level's transports are interleaved across client ids, hence across I/O threads and fleet
 * agents (which take ids round robin), rather than in one block.
 */
public final class TransportMix {

    /** The longest cycle accepted: finer weights than 1 in 10,000 are a typo, not a mix. */
    static final int MAX_CYCLE = 10_000;

    /** Every session on the websocket: the behaviour before mixes existed. */
    public static final TransportMix WEBSOCKET_ONLY = parse("websocket");

    /** Weight per transport with weight &gt; 0, in the spec's order. */
    private final Map<SessionTransport, Integer> weights;
    private final SessionTransport[] cycle;

    private TransportMix(Map<SessionTransport, Integer> weights) {
        this.weights = Collections.unmodifiableMap(weights);
        this.cycle = smoothRoundRobin(weights);
    }

    /**
     * Parses a spec: comma-separated {@code name} or {@code name:weight} entries; a bare name
     * weighs 1; weights are integers 0..1,000,000 (0 drops the entry) and must not all be 0.
     *
     * @throws IllegalArgumentException naming what is wrong (unknown transport, bad weight, a name twice, …)
     */
    public static TransportMix parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("empty transport list (known: " + SessionTransport.userNames() + ")");
        }
        Map<SessionTransport, Integer> w = new LinkedHashMap<>();
        java.util.Set<SessionTransport> named = java.util.EnumSet.noneOf(SessionTransport.class);
        for (String entry : spec.split(",", -1)) {
            String e = entry.trim();
            int colon = e.indexOf(':');
            String name = colon < 0 ? e : e.substring(0, colon);
            SessionTransport t = SessionTransport.byUserName(name).orElseThrow(() -> new IllegalArgumentException(
                    "unknown transport '" + name.trim() + "' in '" + spec + "' (known: " + SessionTransport.userNames() + ")"));
            if (!named.add(t)) {
                throw new IllegalArgumentException("transport '" + t.userName() + "' named twice in '" + spec + "'");
            }
            int weight = 1;
            if (colon >= 0) {
                String digits = e.substring(colon + 1).trim();
                if (!digits.matches("[0-9]{1,7}") || Integer.parseInt(digits) > 1_000_000) {
                    throw new IllegalArgumentException("weight of '" + t.userName() + "' must be an integer 0..1000000, got '"
                            + digits + "' in '" + spec + "'");
                }
                weight = Integer.parseInt(digits);
            }
            if (weight > 0) {
                w.put(t, weight);
            }
        }
        if (w.isEmpty()) {
            throw new IllegalArgumentException("the weights in '" + spec + "' sum to 0: at least one must be positive");
        }
        int g = 0;
        for (int v : w.values()) {
            g = gcd(g, v);
        }
        long total = 0;
        for (Map.Entry<SessionTransport, Integer> en : w.entrySet()) {
            en.setValue(en.getValue() / g);
            total += en.getValue();
        }
        if (total > MAX_CYCLE) {
            throw new IllegalArgumentException("the weights in '" + spec + "' are finer than 1 in " + MAX_CYCLE
                    + " (after dividing by their common divisor); round them");
        }
        return new TransportMix(w);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** The cycle of smooth weighted round robin: each step every transport gains its weight, the richest is picked and pays the total. */
    private static SessionTransport[] smoothRoundRobin(Map<SessionTransport, Integer> weights) {
        List<SessionTransport> ts = new ArrayList<>(weights.keySet());
        int total = 0;
        for (int v : weights.values()) {
            total += v;
        }
        long[] current = new long[ts.size()];
        SessionTransport[] out = new SessionTransport[total];
        for (int step = 0; step < total; step++) {
            int best = 0;
            for (int k = 0; k < ts.size(); k++) {
                current[k] += weights.get(ts.get(k));
                if (current[k] > current[best]) {
                    best = k; // ties go to the earlier transport in the spec
                }
            }
            current[best] -= total;
            out[step] = ts.get(best);
        }
        return out;
    }

    /** The transport of client {@code clientId} (≥ 0). */
    public SessionTransport transportOf(int clientId) {
        return cycle[clientId % cycle.length];
    }

    /** The transports in the mix (weight &gt; 0), in the spec's order. */
    public List<SessionTransport> transports() {
        return List.copyOf(weights.keySet());
    }

    /** Whether every session uses the websocket. */
    public boolean websocketOnly() {
        return weights.size() == 1 && weights.containsKey(SessionTransport.WEBSOCKET);
    }

    /** Whether any session uses an HTTP transport. */
    public boolean anyHttp() {
        for (SessionTransport t : weights.keySet()) {
            if (t.http() != null) {
                return true;
            }
        }
        return false;
    }

    /** How many of clients 0..n-1 use {@code t}. */
    public int sessionsOf(SessionTransport t, int n) {
        int perCycle = 0;
        for (SessionTransport c : cycle) {
            if (c == t) {
                perCycle++;
            }
        }
        int count = (n / cycle.length) * perCycle;
        for (int i = 0; i < n % cycle.length; i++) {
            if (cycle[i] == t) {
                count++;
            }
        }
        return count;
    }

    /** The reduced weights by transport user name, in the spec's order (as the result records them). */
    public Map<String, Integer> weightsByName() {
        Map<String, Integer> m = new LinkedHashMap<>();
        weights.forEach((t, v) -> m.put(t.userName(), v));
        return m;
    }

    /** The canonical spec: {@code name:weight} entries with the reduced weights (a single transport: its name). */
    public String spec() {
        if (weights.size() == 1) {
            return weights.keySet().iterator().next().userName();
        }
        StringBuilder b = new StringBuilder();
        weights.forEach((t, v) -> {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(t.userName()).append(':').append(v);
        });
        return b.toString();
    }

    /** Weights by transport (reduced), for counting. */
    EnumMap<SessionTransport, Integer> weightMap() {
        return new EnumMap<>(weights);
    }

    @Override
    public String toString() {
        return spec();
    }
}
