package sockbench.client.http;

/**
 * Bytes from the server that are not the HTTP response or the SockJS transport body the client
 * expects. The message names what was wrong and quotes a short excerpt of the offending bytes,
 * printable in one line (a log line or a session's loss reason), so a broken server can be
 * diagnosed from the result file alone.
 */
public final class HttpProtocolException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The most bytes an excerpt quotes; longer ranges end in {@code ...}. */
    public static final int EXCERPT_MAX = 48;

    /**
     * @param message what was wrong, without an excerpt
     */
    public HttpProtocolException(String message) {
        super(message);
    }

    /**
     * @param what  what was wrong ("bad chunk size")
     * @param b     the bytes that show it
     * @param start first byte to quote (inclusive), {@code 0 <= start <= end <= b.length}
     * @param end   end of the bytes to quote (exclusive); at most {@link #EXCERPT_MAX} of them are quoted
     */
    public HttpProtocolException(String what, byte[] b, int start, int end) {
        super(what + ": \"" + excerpt(b, start, end) + "\"");
    }

    /**
     * Up to {@link #EXCERPT_MAX} bytes as printable ASCII: {@code \r}, {@code \n}, {@code \t},
     * {@code \\}, {@code \"} escaped, other bytes outside 0x20–0x7e as {@code \xNN}, and
     * {@code ...} when the range was longer. Never throws on a range outside the array: it is
     * clamped, since an error message must not hide the error.
     *
     * @param b     the bytes
     * @param start first byte (inclusive)
     * @param end   last byte (exclusive)
     * @return the excerpt, without quotes
     */
    public static String excerpt(byte[] b, int start, int end) {
        if (b == null) {
            return "";
        }
        int from = Math.max(0, Math.min(start, b.length));
        int to = Math.max(from, Math.min(end, b.length));
        int stop = Math.min(to, from + EXCERPT_MAX);
        StringBuilder s = new StringBuilder((stop - from) + 8);
        for (int i = from; i < stop; i++) {
            int c = b[i] & 0xff;
            switch (c) {
                case '\r' -> s.append("\\r");
                case '\n' -> s.append("\\n");
                case '\t' -> s.append("\\t");
                case '\\' -> s.append("\\\\");
                case '"' -> s.append("\\\"");
                default -> {
                    if (c >= 0x20 && c < 0x7f) {
                        s.append((char) c);
                    } else {
                        s.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
                    }
                }
            }
        }
        if (stop < to) {
            s.append("...");
        }
        return s.toString();
    }
}
