package sockbench.client.http;

/**
 * The bytes of one SockJS frame that straddles body ranges (a chunk or read boundary falls inside
 * it), gathered until its delimiter arrives. One reusable array per framer that doubles as needed
 * up to the frame cap, so a connection allocates only while its frames grow past every earlier one.
 */
final class FrameAssembly {

    private final int max;
    private byte[] buf = new byte[256];
    private int len;

    /**
     * @param max the longest frame taken, in bytes (≥ 1)
     */
    FrameAssembly(int max) {
        this.max = max;
    }

    /** Bytes gathered so far. */
    int length() {
        return len;
    }

    /** The array holding the gathered bytes at {@code [0, length())}; valid until the next change. */
    byte[] array() {
        return buf;
    }

    /**
     * Adds {@code b[start, end)}.
     *
     * @throws HttpProtocolException when the frame would exceed the cap
     */
    void append(byte[] b, int start, int end) {
        int n = end - start;
        if ((long) len + n > max) {
            throw new HttpProtocolException("SockJS frame over " + max + " bytes", buf, 0, Math.min(len, 32));
        }
        if (len + n > buf.length) {
            buf = java.util.Arrays.copyOf(buf, (int) Math.min(max, Math.max((long) buf.length * 2, len + n)));
        }
        System.arraycopy(b, start, buf, len, n);
        len += n;
    }

    /** Empties the assembly for the next frame (the array is kept). */
    void clear() {
        len = 0;
    }
}
