package sockbench.client.websocket;

/** The server sent bytes that are not a valid RFC 6455 server-to-client frame stream. */
public final class WsProtocolException extends RuntimeException {

    public WsProtocolException(String message) {
        super(message);
    }
}
