package sockbench.client.websocket;

/**
 * Receives what {@link WsFrameDecoder} finds. Byte ranges are only valid during the call:
 * they point into the read buffer or the decoder's own buffers, which are reused.
 */
public interface WsFrameSink {

    /** A complete text message (one unfragmented frame, or the reassembled fragments). */
    void onText(byte[] buf, int start, int end);

    /** A ping: answer with a pong carrying the same application data. */
    void onPing(byte[] buf, int start, int end);

    /**
     * A close frame.
     *
     * @param code   the status code, or 1005 (RFC 6455 §7.1.5: "no status code present") when the frame had none
     * @param reason the reason text (decoded as UTF-8, replacing bad bytes; only for the log line)
     */
    void onCloseFrame(int code, String reason);
}
