package sockbench.client.engine;

import java.nio.ByteBuffer;

/**
 * What a selection key's attachment does when its socket is ready: a websocket session is one
 * socket ({@link WsConnection}), an HTTP session two ({@link HttpConnection}'s receiving and
 * sending sockets), so the loop talks to sockets, and each knows its session.
 */
interface ReadySocket {

    /** The session this socket belongs to. */
    Connection session();

    /** The non-blocking TCP connect finished (or failed). */
    void connectReady();

    /** The socket can take more bytes: write what is queued. */
    void writeReady(ByteBuffer[] gather);

    /**
     * Reads once into {@code buf} (the loop's heap buffer), at most {@code max} bytes (a slow
     * reader's budget, {@link ReadBucket}; the buffer's size otherwise), and decodes what arrived.
     *
     * @return bytes read, 0 if none, -1 if the socket is gone
     */
    int readReady(ByteBuffer buf, int max);

    /**
     * Asks the selector for OP_READ ({@code on}) or stops asking (a slow reader's paused socket,
     * {@link ReadThrottle}); every later change of the key's interest keeps that choice.
     */
    void readInterest(boolean on);
}
