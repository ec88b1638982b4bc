package sockbench.client.engine;

import java.net.InetAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;

/**
 * One client session, whatever carries it: its identity within the level, its state machine
 * (CONNECTING → HANDSHAKING → [UPGRADED] → OPEN → CLOSED) and what the loop, the send cursor,
 * the churn and the receive accounting keep per session. How the bytes travel is the subclass's:
 * {@link WsConnection} (one websocket) or {@link HttpConnection} (a receiving HTTP request
 * stream plus {@code xhr_send} POSTs, on two sockets).
 *
 * <p>Every state change happens through the methods here, so the owning {@link IoLoop} hears
 * about it through {@link ConnectionEvents} the same way for every transport. Every method runs
 * on the owning loop's thread.
 */
abstract class Connection {

    /** UPGRADED: a websocket upgrade is done but the SockJS session waits for its {@code o} frame. */
    enum State { CONNECTING, HANDSHAKING, UPGRADED, OPEN, CLOSED }

    final ConnectionEvents events;
    /** Which SockJS transport carries this session. */
    final SessionTransport transport;
    /** Index of this client within its level, 0..N-1 (the payload's client field). */
    final int clientId;
    /**
     * {@code "<clientId>:"} packed for the receive path's byte compare ({@link Payload#prefixWord}),
     * its mask and length (0: an id too long to pack, always parsed; see {@link ReceiveAccounting}).
     */
    final long clientWord;
    final long clientMask;
    final int clientPrefixLength;
    /** Decimal digits of {@link #clientId}. */
    final int clientDigits;
    /** Where this session's copies are counted: its transport's accounting in the owning loop. */
    final ReceiveAccounting accounting;
    State state = State.CONNECTING;
    /** Connect/handshake deadline, nanoTime. */
    long deadlineNs;
    /** Set when the client closes the connection itself, so the close is not counted as an error. */
    boolean closingByUs;
    /** True while queued in the loop's flush list. */
    boolean flushQueued;
    /**
     * In the level's churn pool ({@link ChurnPool}): never sends, its copies are not counted, and
     * its close while churn runs is a cycle, not a lost connection.
     */
    boolean churnPool;
    /**
     * A slow reader ({@link SlowReaders}): it never sends and its copies are counted apart (its
     * accounting is the loop's slow one).
     */
    boolean slowReader;
    /** A slow reader's read budget while it is held to its rate; null otherwise (and once its level closes). */
    ReadBucket readBucket;
    /**
     * A slow reader opened again at a point's start after the server had cut it off
     * ({@link IoLoop}): its open or failure is not the level's opening.
     */
    boolean slowReopen;
    /** Opened by the churn's cycle (a reconnect), not by the level's opening: its open or failure is the churn's. */
    boolean churnReconnect;
    /** Index of this session's member in its loop's {@link ChurnCycle}; -1 when not a member. */
    int churnMember = -1;
    /** Highest (epoch, seq) of own copies seen, for the ordering check. */
    long lastOwnEpoch = -1;
    long lastOwnSeq = -1;
    /**
     * Data frames and the messages in them received inside the current point's window, kept by
     * {@link FrameCounts}; valid while {@link #frameRound} equals its round (stale otherwise, and
     * zeroed by the first frame of the next round instead of by a pass over every connection).
     */
    long windowFrames;
    long windowFrameMessages;
    int frameRound;

    Connection(ConnectionEvents events, SessionTransport transport, int clientId, ReceiveAccounting accounting) {
        this.events = events;
        this.transport = transport;
        this.clientId = clientId;
        this.accounting = accounting;
        this.clientDigits = Integer.toString(clientId).length();
        this.clientPrefixLength = Payload.prefixLength(clientId);
        this.clientWord = clientPrefixLength == 0 ? 0 : Payload.prefixWord(clientId);
        this.clientMask = clientPrefixLength == 0 ? 0 : Payload.prefixMask(clientPrefixLength);
    }

    /**
     * A new session of {@code transport} for client {@code clientId}.
     *
     * @param framing  the websocket endpoint's framing (SockJS or raw); HTTP transports are SockJS-framed always
     * @param validate check every received message fully (UTF-8, SockJS grammar); a debug mode, slow
     */
    static Connection create(ConnectionEvents events, Transport framing, SessionTransport transport, int clientId,
                             ReceiveAccounting accounting, boolean validate) {
        if (transport == SessionTransport.WEBSOCKET) {
            return new WsConnection(events, framing, clientId, accounting, validate);
        }
        return new HttpConnection(events, transport, clientId, accounting, validate);
    }

    final State state() {
        return state;
    }

    final boolean isOpen() {
        return state == State.OPEN;
    }

    /**
     * Whether this session's figures are the point's: not in the churn pool and not a slow reader
     * (those never send, and their copies are never the point's verdict).
     */
    final boolean inPoints() {
        return !churnPool && !slowReader;
    }

    final boolean isOpening() {
        return state == State.CONNECTING || state == State.HANDSHAKING || state == State.UPGRADED;
    }

    // --- what the engine asks of every transport ----------------------------------------------

    /**
     * Starts opening the session (non-blocking TCP connect, then the transport's handshake);
     * failures go to {@link ConnectionEvents#openFailed}.
     *
     * @param source local address to bind, or null for the kernel's choice
     * @param deadline nanoTime by which the session must be open
     */
    abstract void connect(Selector selector, SocketAddress address, InetAddress source, long deadline, Target target);

    /** Queues one SockJS message array (e.g. {@code ["payload"]}) to send; a failure closes the session. */
    abstract void send(String text);

    /** Writes what is queued; asks for OP_WRITE while a socket is full. */
    abstract void flush(ByteBuffer[] gather);

    /** Closes politely when open (a websocket close frame) or at once; the client's own close is no error. */
    abstract void close(boolean force);

    /**
     * Closes cleanly and lets the server close first (a churn cycle), or drops the session at once
     * where the transport has no such close.
     */
    abstract void closeAwaitingServer();

    /**
     * A slow reader's probe ({@link SlowReaders}): something small to the server that a live
     * server ignores and a cut-off one answers with a TCP reset. Without it a reader held to its
     * rate would learn of its cut-off only after reading what the kernels had queued before the
     * close (on loopback ~4 MB of the server's send buffer: a minute at 64 KiB/s). Nothing where
     * the transport has no such message.
     */
    void probe() {
    }

    /** Drops the session's sockets now. */
    final void hardClose() {
        if (isOpening()) {
            failOpen("closed before it opened");
        } else {
            lost("closed by the client");
        }
    }

    /** Closes the transport's sockets (and cancels their keys); the state is already CLOSED. */
    abstract void closeSockets();

    // --- what the ReceiveSink reports --------------------------------------------------------

    /** A websocket ping (websocket transport only): answer with a pong carrying the same data. */
    void answerPing(byte[] buf, int start, int end) {
    }

    /** The server's websocket close frame (websocket transport only). */
    void closeFrameReceived(int code, String reason) {
        lost("websocket closed: " + code + " " + reason);
    }

    /** The SockJS {@code o} frame: the session is open. */
    void sessionOpened() {
        markOpen();
    }

    /** A SockJS {@code c[code,"reason"]} frame: the server ended the session. */
    void sessionClosed(int code, String reason) {
        lost("SockJS close frame c[" + code + ",\"" + reason + "\"]");
    }

    // --- the state machine's shared transitions ----------------------------------------------

    final void markOpen() {
        if (state == State.HANDSHAKING || state == State.UPGRADED) {
            state = State.OPEN;
            events.opened(this);
        }
    }

    /** Fails a session that has not opened (a no-op once it is open or closed). */
    final void failOpen(String reason) {
        if (!isOpening()) {
            return;
        }
        state = State.CLOSED;
        closeSockets();
        events.openFailed(this, reason);
    }

    final void protocolError(String reason) {
        events.protocolError(this, reason);
        lost("protocol error: " + reason);
    }

    /** The session is gone (server closed it, close frame, I/O error, our own close). */
    final void lost(String reason) {
        if (state == State.CLOSED) {
            return;
        }
        if (isOpening()) {
            failOpen(reason);
            return;
        }
        state = State.CLOSED;
        closeSockets();
        events.closed(this, reason);
    }
}
