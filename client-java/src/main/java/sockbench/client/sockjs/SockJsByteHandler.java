package sockbench.client.sockjs;

/**
 * Receives the parts of SockJS frames as {@link SockJsByteScanner} finds them, as byte ranges
 * of the frame. Called on the I/O thread that read the frame; must not block, and must copy
 * what it keeps (the bytes belong to a reused read buffer).
 */
public interface SockJsByteHandler {

    /** The session-open frame {@code o}. */
    void onOpen();

    /** A heartbeat frame {@code h}. */
    void onHeartbeat();

    /**
     * One message of an {@code a[...]} frame: the bytes between the quotes of its JSON string,
     * <em>still JSON-escaped</em> (a message with escapes is passed as written; this client's own
     * payloads never contain any).
     */
    void onMessage(byte[] buf, int start, int end);

    /** The close frame {@code c[code,"reason"]}, reason unescaped. */
    void onClose(int code, String reason);
}
