package sockbench.client.engine;

/**
 * The message payload: {@code <point>:<client>:<seq>:<scheduled>:<sent>:} followed by
 * {@code x} padding up to the configured size. All five fields are non-negative decimal
 * integers:
 * <ul>
 *   <li>{@code point} — the point epoch: {@code 2p} for the warm-up of point {@code p},
 *       {@code 2p+1} for its measured window (copies of other epochs are not attributed to the point);</li>
 *   <li>{@code client} — the sending connection's index within the level (0..N-1);</li>
 *   <li>{@code seq} — the message's index in the point's global schedule (unique per point);</li>
 *   <li>{@code scheduled} — when the schedule said to send it, {@code System.nanoTime()} minus the
 *       engine's clock origin, nanoseconds;</li>
 *   <li>{@code sent} — when the client actually wrote it, same clock, nanoseconds.</li>
 * </ul>
 * Only ASCII digits, colons and {@code x}: nothing a JSON encoder escapes, so the string
 * a server echoes is byte-for-byte the one sent. Servers never look inside (docs/protocol.md §4.3).
 */
public final class Payload {

    private Payload() {
    }

    /** Characters the five fields may take at most (five 19-digit longs and separators). */
    public static final int MAX_HEADER_CHARS = 5 * 20;

    /**
     * Appends a payload to {@code out}.
     *
     * @param minLength pad with {@code x} until the payload has at least this many characters (0 = no padding)
     */
    public static void append(StringBuilder out, long epoch, int client, long seq,
                              long scheduledNs, long sentNs, int minLength) {
        int start = out.length();
        out.append(epoch).append(':').append(client).append(':').append(seq).append(':')
                .append(scheduledNs).append(':').append(sentNs).append(':');
        for (int len = out.length() - start; len < minLength; len++) {
            out.append('x');
        }
    }

    /** Fields of one parsed payload; reused by the parser to avoid allocation. */
    public static final class Fields {
        public long epoch;
        public int client;
        public long seq;
        public long scheduledNs;
        public long sentNs;
    }

    /**
     * Parses the point epoch and client id only (what every receiver needs), from the payload's
     * bytes {@code b[start, end)} (ASCII; no characters are decoded).
     *
     * @return the index after the client field's colon, or -1 if the payload is not ours
     */
    public static int parseHeader(byte[] b, int start, int end, Fields into) {
        long epoch = 0;
        int i = start;
        int limit = Math.min(end, start + 19);
        byte c;
        while (i < limit && (c = b[i]) != ':') {
            if (c < '0' || c > '9') {
                return -1;
            }
            epoch = epoch * 10 + (c - '0');
            i++;
        }
        if (i == start || i >= end || b[i] != ':') {
            return -1;
        }
        int from = ++i;
        long client = 0;
        limit = Math.min(end, from + 10);
        while (i < limit && (c = b[i]) != ':') {
            if (c < '0' || c > '9') {
                return -1;
            }
            client = client * 10 + (c - '0');
            i++;
        }
        if (i == from || i >= end || b[i] != ':' || client > Integer.MAX_VALUE) {
            return -1;
        }
        into.epoch = epoch;
        into.client = (int) client;
        return i + 1;
    }

    /**
     * Parses the rest of a payload whose header {@link #parseHeader} accepted: seq, scheduled and
     * sent times. Allocates nothing.
     *
     * @param from the index {@link #parseHeader} returned
     * @return false if the payload is malformed
     */
    public static boolean parseTimes(byte[] b, int from, int end, Fields into) {
        int i = from;
        long seq = 0;
        long scheduled = 0;
        long sent = 0;
        for (int f = 0; f < 3; f++) {
            long v = 0;
            int start = i;
            int limit = Math.min(end, start + 19);
            byte c;
            while (i < limit && (c = b[i]) != ':') {
                if (c < '0' || c > '9') {
                    return false;
                }
                v = v * 10 + (c - '0');
                i++;
            }
            if (i == start || i >= end || b[i] != ':') {
                return false;
            }
            i++;
            if (f == 0) {
                seq = v;
            } else if (f == 1) {
                scheduled = v;
            } else {
                sent = v;
            }
        }
        into.seq = seq;
        into.scheduledNs = scheduled;
        into.sentNs = sent;
        return true;
    }
}
