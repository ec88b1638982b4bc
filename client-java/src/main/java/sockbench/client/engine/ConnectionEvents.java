package sockbench.client.engine;

/**
 * What a {@link Connection} tells its I/O loop: state changes (the connection makes them; the
 * loop only keeps its lists and counters in step) and the application messages it receives.
 * Called on the loop's thread.
 */
interface ConnectionEvents {

    /** The connection can carry messages now (raw: handshake done; SockJS: {@code o} received). */
    void opened(Connection c);

    /** The connection failed before it opened (connect error, handshake refused, timeout). */
    void openFailed(Connection c, String reason);

    /** An open connection closed: by the server, by an I/O error, or by us ({@code c.closingByUs}). */
    void closed(Connection c, String reason);

    /** A frame or message could not be parsed; the connection is closed right after. */
    void protocolError(Connection c, String reason);

    /** The connection has frames queued to write. */
    void wantsFlush(Connection c);

    /**
     * One application message: for SockJS an element of an {@code a[...]} frame (its JSON string
     * content, still escaped), for raw websockets a whole text message. Only valid during the call.
     */
    void message(Connection c, byte[] buf, int start, int end);

    /**
     * One data frame carried {@code messages} messages (at least 1), after their {@link #message}
     * calls: for SockJS an {@code a[...]} frame, for raw websockets every text message (1 each).
     * A no-op by default: only the loop's accounting measures batching.
     */
    default void frame(Connection c, int messages) {
    }

    /** A SockJS heartbeat frame ({@code h}) arrived on {@code c}. A no-op by default. */
    default void heartbeat(Connection c) {
    }
}
