package sockbench.client.engine;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import org.java_websocket.WebSocket;
import org.java_websocket.WebSocketAdapter;
import org.java_websocket.WebSocketImpl;
import org.java_websocket.framing.Framedata;
import org.java_websocket.handshake.Handshakedata;
import sockbench.client.sockjs.FrameHandler;
import sockbench.client.sockjs.SockJsProtocolException;

/**
 * One client connection: a non-blocking socket owned by one {@link IoLoop}, with Java-WebSocket's
 * protocol engine ({@link WebSocketImpl}) doing the WebSocket handshake and framing on bytes the
 * loop reads and writes. Every callback runs on the owning loop's thread.
 */
final class Connection extends WebSocketAdapter implements FrameHandler {

    enum State { CONNECTING, HANDSHAKING, OPEN, CLOSED }

    final IoLoop loop;
    /** Index of this client within its level, 0..N-1 (the payload's client field). */
    final int clientId;
    SocketChannel channel;
    SelectionKey key;
    WebSocketImpl ws;
    State state = State.CONNECTING;
    /** Connect/handshake deadline, nanoTime. */
    long deadlineNs;
    /** Set when the client closes the connection itself, so the close is not counted as an error. */
    boolean closingByUs;
    /** True while queued in the loop's flush list. */
    boolean flushQueued;
    /** Highest (epoch, seq) of own copies seen, for the ordering check. */
    long lastOwnEpoch = -1;
    long lastOwnSeq = -1;

    Connection(IoLoop loop, int clientId) {
        this.loop = loop;
        this.clientId = clientId;
    }

    boolean isOpen() {
        return state == State.OPEN;
    }

    // --- Java-WebSocket callbacks -------------------------------------------------------

    @Override
    public void onWebsocketOpen(WebSocket conn, Handshakedata d) {
        if (loop.transport() == Transport.RAW) {
            loop.onReady(this);
        }
        // SockJS: the session is open only when the "o" frame arrives.
    }

    @Override
    public void onWebsocketMessage(WebSocket conn, String message) {
        if (loop.transport() == Transport.RAW) {
            loop.onMessage(this, message, 0, message.length());
            return;
        }
        try {
            loop.parser().parse(message, this);
        } catch (SockJsProtocolException e) {
            loop.onProtocolError(this, e.getMessage());
        }
    }

    @Override
    public void onWebsocketMessage(WebSocket conn, ByteBuffer blob) {
        loop.onProtocolError(this, "unexpected binary message");
    }

    @Override
    public void onWebsocketClose(WebSocket conn, int code, String reason, boolean remote) {
        loop.onClosed(this, "websocket closed: " + code + " " + reason);
    }

    @Override
    public void onWebsocketClosing(WebSocket conn, int code, String reason, boolean remote) {
        // The loop closes the socket once the close frame is flushed (see IoLoop.flush).
    }

    @Override
    public void onWebsocketCloseInitiated(WebSocket conn, int code, String reason) {
    }

    @Override
    public void onWebsocketError(WebSocket conn, Exception ex) {
        loop.noteError(this, ex.toString());
    }

    @Override
    public void onWebsocketPing(WebSocket conn, Framedata f) {
        super.onWebsocketPing(conn, f); // answers with a pong
    }

    @Override
    public void onWriteDemand(WebSocket conn) {
        loop.queueFlush(this);
    }

    @Override
    public InetSocketAddress getLocalSocketAddress(WebSocket conn) {
        try {
            return channel == null ? null : (InetSocketAddress) channel.getLocalAddress();
        } catch (java.io.IOException e) {
            return null;
        }
    }

    @Override
    public InetSocketAddress getRemoteSocketAddress(WebSocket conn) {
        try {
            return channel == null ? null : (InetSocketAddress) channel.getRemoteAddress();
        } catch (java.io.IOException e) {
            return null;
        }
    }

    // --- SockJS frames -------------------------------------------------------------------

    @Override
    public void onOpen() {
        loop.onReady(this);
    }

    @Override
    public void onHeartbeat() {
    }

    @Override
    public void onMessage(CharSequence text, int start, int end) {
        loop.onMessage(this, text, start, end);
    }

    @Override
    public void onClose(int code, String reason) {
        loop.onClosed(this, "SockJS close frame c[" + code + ",\"" + reason + "\"]");
    }
}
