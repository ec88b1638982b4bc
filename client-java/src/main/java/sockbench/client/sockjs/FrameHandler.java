package sockbench.client.sockjs;

/**
 * Receives the parts of SockJS frames as {@link SockJsFrameParser} finds them.
 * Called on the I/O thread that read the frame; implementations must not block.
 */
public interface FrameHandler {

    /** The session-open frame {@code o}. */
    void onOpen();

    /** A heartbeat frame {@code h}. */
    void onHeartbeat();

    /**
     * One message of an {@code a[...]} frame, already JSON-unescaped.
     * The characters are only valid during the call: {@code text} may be a
     * reused buffer, so copy what you keep.
     *
     * @param text  holds the message between {@code start} (inclusive) and {@code end} (exclusive)
     * @param start index of the first character of the message in {@code text}
     * @param end   index one past the last character of the message in {@code text}
     */
    void onMessage(CharSequence text, int start, int end);

    /**
     * The close frame {@code c[code,"reason"]}.
     *
     * @param code   the SockJS close code (e.g. 3000)
     * @param reason the close reason, unescaped
     */
    void onClose(int code, String reason);
}
