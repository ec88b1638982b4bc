package sockbench.client.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

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

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGHS = 0x8080808080808080L;
    private static final long LOWS7 = 0x7F7F7F7F7F7F7F7FL;

    /**
     * Longest field a {@link #prefixWord packed prefix} holds: 7 digits and the colon fill the
     * eight bytes of one {@code long}.
     */
    public static final int MAX_PACKED_DIGITS = 7;

    /**
     * Bytes needed after a payload's start for the {@link #word} loads of the fast header match:
     * the epoch prefix's word and the client field's word (each at most eight bytes away).
     */
    public static final int FAST_MATCH_SLACK = 16;

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

    // --- the fast header match: fields compared as bytes, eight at a time -------------------
    //
    // Every receiver looks at the epoch and client fields of every copy, and nearly every copy is
    // another client's copy of the measured epoch. Instead of parsing both fields as numbers, the
    // receiver compares the payload's first bytes with "<epoch>:" packed into a long (one load,
    // one xor, one mask), then the next bytes with its own "<client>:". See ReceiveAccounting.

    /**
     * {@code "<value>:"} as ASCII bytes packed little-endian into a long (first character in the
     * lowest byte), the form {@link #word} loads; only for values of at most
     * {@link #MAX_PACKED_DIGITS} digits.
     *
     * @param value a field value, 0..9,999,999
     */
    public static long prefixWord(long value) {
        byte[] text = (value + ":").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        if (value < 0 || text.length > MAX_PACKED_DIGITS + 1) {
            throw new IllegalArgumentException("field value out of the packed range: " + value);
        }
        long w = 0;
        for (int i = text.length - 1; i >= 0; i--) {
            w = (w << 8) | text[i];
        }
        return w;
    }

    /** Bytes of {@code "<value>:"}, i.e. its digits + 1; 0 when the value is too long to pack. */
    public static int prefixLength(long value) {
        int digits = Long.toString(value).length();
        return value < 0 || digits > MAX_PACKED_DIGITS ? 0 : digits + 1;
    }

    /** A mask keeping the lowest {@code bytes} bytes of a {@link #word}, 1..8. */
    public static long prefixMask(int bytes) {
        return bytes >= 8 ? -1L : (1L << (8 * bytes)) - 1;
    }

    /**
     * The eight bytes {@code b[at, at+8)} as a little-endian long. The caller guarantees
     * {@code at + 8 <= b.length}; bytes past the payload's end are masked off by the caller.
     */
    public static long word(byte[] b, int at) {
        return (long) LONGS.get(b, at);
    }

    /**
     * How many decimal digits {@code w} (eight payload bytes, {@link #word}) starts with, if they
     * are followed by a colon within the word: the length of a well-formed field. 0 when the
     * word does not start with 1..7 digits and a colon (malformed, or a longer field: the
     * caller then parses the slow way).
     */
    public static int packedFieldDigits(long w) {
        // Per byte x, the high bit of: (x & 0x7F) + 0x50 is set iff x & 0x7F >= '0';
        // (x & 0x7F) + 0x46 is set iff x & 0x7F > '9' (no carry crosses bytes: 0x7F + 0x50 < 0x100);
        // ~x is set iff x is ASCII. A digit has the first and third set and the second clear.
        long a = w & LOWS7;
        long digits = (a + 0x5050505050505050L) & ~(a + 0x4646464646464646L) & ~w & HIGHS;
        long nonDigits = ~digits & HIGHS;
        int k = Long.numberOfTrailingZeros(nonDigits) >>> 3; // index of the first non-digit, 8 if none
        if (k == 0 || k == 8 || (byte) (w >>> (8 * k)) != ':') {
            return 0;
        }
        return k;
    }

    /**
     * The seq field starting at {@code b[from]} (digits up to a colon), the one field an all-copies
     * receiver parses in another client's copy. Up to seven digits are found with one word
     * ({@link #packedFieldDigits}) when eight bytes are left in the buffer; longer ones, or a field
     * near the buffer's end, the plain way.
     *
     * @return the seq, or -1 when the field is not digits followed by a colon before {@code end}
     */
    public static long parseSeq(byte[] b, int from, int end) {
        int digits = from + 8 <= b.length ? packedFieldDigits(word(b, from)) : 0;
        if (digits != 0) {
            if (from + digits >= end) {
                return -1;
            }
            long v = 0;
            for (int i = from; i < from + digits; i++) {
                v = v * 10 + (b[i] - '0');
            }
            return v;
        }
        long v = 0;
        int i = from;
        int limit = Math.min(end, from + 19);
        byte c;
        while (i < limit && (c = b[i]) != ':') {
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
            i++;
        }
        return i == from || i >= end || b[i] != ':' ? -1 : v;
    }
}
