package sockbench.client.websocket;

/**
 * Finds where the server's HTTP upgrade response ends (just past its blank line, CR LF CR LF)
 * in the bytes a connection reads, however the reads split it.
 *
 * <p>Why: the read that carries the end of the response often carries the first websocket
 * frame too (a SockJS server sends {@code o} at once). The response goes to Java-WebSocket to be
 * checked, the rest to {@link WsFrameDecoder}; neither may see the other's bytes.
 *
 * <p>One instance per connection; the partial match carries over from one read to the next.
 */
public final class UpgradeResponseEnd {

    private static final byte[] HEADER_END = {'\r', '\n', '\r', '\n'};

    /** How many bytes of {@link #HEADER_END} the bytes seen so far end with. */
    private int matched;

    /** Index just past the response's blank line in {@code b[start, end)}, or -1 when it is not there yet. */
    public int find(byte[] b, int start, int end) {
        for (int i = start; i < end; i++) {
            if (b[i] == HEADER_END[matched]) {
                if (++matched == HEADER_END.length) {
                    return i + 1;
                }
            } else {
                matched = b[i] == '\r' ? 1 : 0;
            }
        }
        return -1;
    }
}
