package sockbench.client.sockjs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The hot-path SockJS parser: finds the messages of {@code o}, {@code h}, {@code a[...]} and
 * {@code c[...]} frames in the frame's bytes, without decoding them to characters.
 *
 * <p>Every copy of every broadcast message passes through {@link #scan}, so it does the least
 * that still tokenises the frame correctly: it checks the array's structure ({@code [}, strings,
 * commas, {@code ]}, whitespace between tokens, nothing after the array) and finds each string's
 * closing quote eight bytes at a time (SWAR: one 64-bit load tests eight bytes for {@code "} or
 * {@code \}). A backslash skips the byte after it, so {@code \"} and {@code \\} never end a
 * string early; the escapes are otherwise not interpreted or validated, and neither is UTF-8
 * (both are checked, together with everything else, by {@link FrameValidator} in
 * {@code --validate} mode). A frame a real server could not have produced (an unknown type, a
 * missing comma, an unterminated string, trailing bytes) is rejected with a
 * {@link SockJsProtocolException}.
 *
 * <p>Stateless; {@code c[...]} frames (once per connection at most) go through the full
 * {@link SockJsFrameParser}.
 */
public final class SockJsByteScanner {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;

    private SockJsByteScanner() {
    }

    /**
     * Parses the SockJS frame in {@code b[start, end)} (one websocket text message).
     *
     * @return the number of messages the frame carried: the elements of an {@code a[...]} frame,
     *         0 for {@code o}, {@code h} and {@code c[...]} (the count comes free with the scan, so
     *         the caller can measure how many messages a server puts in one frame)
     * @throws SockJsProtocolException if it is not a valid SockJS frame
     */
    public static int scan(byte[] b, int start, int end, SockJsByteHandler handler) {
        if (start >= end) {
            throw error("empty frame", b, start, end);
        }
        switch (b[start]) {
            case 'o' -> {
                requireLength(b, start, end, 1);
                handler.onOpen();
                return 0;
            }
            case 'h' -> {
                requireLength(b, start, end, 1);
                handler.onHeartbeat();
                return 0;
            }
            case 'a' -> {
                return messages(b, start, end, handler);
            }
            case 'c' -> {
                close(b, start, end, handler);
                return 0;
            }
            default -> throw error("unknown frame type '" + (char) (b[start] & 0xFF) + "'", b, start, end);
        }
    }

    private static void requireLength(byte[] b, int start, int end, int length) {
        if (end - start != length) {
            throw error("unexpected data after frame type", b, start, end);
        }
    }

    /** The messages of an {@code a[...]} frame, handed on one by one; returns how many there were. */
    private static int messages(byte[] b, int start, int end, SockJsByteHandler handler) {
        int i = skipSpace(b, start + 1, end);
        if (i >= end || b[i] != '[') {
            throw error("expected '['", b, start, end);
        }
        i = skipSpace(b, i + 1, end);
        if (i < end && b[i] == ']') {
            expectEnd(b, i + 1, start, end);
            return 0;
        }
        int count = 0;
        while (true) {
            if (i >= end || b[i] != '"') {
                throw error("expected '\"'", b, start, end);
            }
            int from = i + 1;
            int close = closingQuote(b, from, end);
            if (close < 0) {
                throw error("unterminated string", b, start, end);
            }
            handler.onMessage(b, from, close);
            count++;
            i = close + 1;
            if (i < end && b[i] == ',') { // the common case: no whitespace
                i++;
                if (i < end && b[i] == '"') {
                    continue;
                }
                i = skipSpace(b, i, end);
                continue;
            }
            i = skipSpace(b, i, end);
            if (i >= end) {
                throw error("unterminated array", b, start, end);
            }
            byte c = b[i++];
            if (c == ']') {
                expectEnd(b, i, start, end);
                return count;
            }
            if (c != ',') {
                throw error("expected ',' or ']' but found '" + (char) (c & 0xFF) + "'", b, start, end);
            }
            i = skipSpace(b, i, end);
        }
    }

    /**
     * Index of the quote that ends the JSON string whose content starts at {@code i}, or -1.
     * Eight bytes per step while at least eight remain.
     */
    static int closingQuote(byte[] b, int i, int end) {
        while (true) {
            while (i + 8 <= end) {
                long v = (long) LONGS.get(b, i);
                long q = v ^ QUOTES;
                long s = v ^ BACKSLASHES;
                // A byte of q (or s) is zero where v holds '"' (or '\'). The lowest flagged
                // byte of this classic test is exact; only bytes above a true hit can be false.
                long hits = ((q - ONES) & ~q | (s - ONES) & ~s) & HIGHS;
                if (hits != 0) {
                    i += Long.numberOfTrailingZeros(hits) >>> 3;
                    break;
                }
                i += 8;
            }
            while (i < end && b[i] != '"' && b[i] != '\\') {
                i++;
            }
            if (i >= end) {
                return -1;
            }
            if (b[i] == '"') {
                return i;
            }
            i += 2; // backslash: the next byte is escaped (the hex digits of a u-escape are plain bytes)
            if (i > end) {
                return -1;
            }
        }
    }

    private static void close(byte[] b, int start, int end, SockJsByteHandler handler) {
        String frame = new String(b, start, end - start, StandardCharsets.UTF_8);
        new SockJsFrameParser().parse(frame, new FrameHandler() {
            @Override
            public void onOpen() {
                throw new IllegalStateException("not reached for a close frame");
            }

            @Override
            public void onHeartbeat() {
                throw new IllegalStateException("not reached for a close frame");
            }

            @Override
            public void onMessage(CharSequence text, int s, int e) {
                throw new IllegalStateException("not reached for a close frame");
            }

            @Override
            public void onClose(int code, String reason) {
                handler.onClose(code, reason);
            }
        });
    }

    private static int skipSpace(byte[] b, int i, int end) {
        while (i < end) {
            byte c = b[i];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                break;
            }
            i++;
        }
        return i;
    }

    private static void expectEnd(byte[] b, int i, int start, int end) {
        if (skipSpace(b, i, end) != end) {
            throw error("trailing data after frame", b, start, end);
        }
    }

    private static SockJsProtocolException error(String what, byte[] b, int start, int end) {
        return new SockJsProtocolException(what, new String(b, start, Math.min(end - start, 200), StandardCharsets.UTF_8));
    }
}
