package sockbench.client.engine;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import sockbench.client.sockjs.SockJsProtocolException;
import sockbench.client.websocket.JavaWebSocketFence;
import sockbench.client.websocket.UpgradeResponseEnd;
import sockbench.client.websocket.WsFrameDecoder;
import sockbench.client.websocket.WsProtocolException;

/**
 * One client connection and its state machine: CONNECTING (TCP) → HANDSHAKING (HTTP upgrade)
 * → [SockJS: UPGRADED until {@code o} arrives] → OPEN → CLOSED. Every state change happens
 * here; the owning {@link IoLoop} hears about it through {@link ConnectionEvents}.
 *
 * <p><b>Who does what on the wire.</b> Java-WebSocket, behind {@link JavaWebSocketFence}, writes
 * the upgrade request, checks the server's answer, and frames and masks everything the client
 * sends. The receive direction after the upgrade is ours: {@link WsFrameDecoder} decodes frames
 * straight from the read buffer into this connection's {@link ReceiveSink}, so no frame object,
 * String or UTF-8 check is made per frame (client-java/README.md, "The receive path"). The read
 * that carries the end of the upgrade response is split at the blank line
 * ({@link UpgradeResponseEnd}): the response goes to Java-WebSocket, whatever follows (often the
 * {@code o} frame) to our decoder. Queued frames go out through {@link GatheredWriter}.
 *
 * <p>Every method runs on the owning loop's thread.
 */
final class Connection implements JavaWebSocketFence.Events {

    /** UPGRADED: the HTTP upgrade is done but a SockJS session waits for its {@code o} frame. */
    enum State { CONNECTING, HANDSHAKING, UPGRADED, OPEN, CLOSED }

    private final ConnectionEvents events;
    private final Transport transport;
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
    private final WsFrameDecoder decoder;
    private final UpgradeResponseEnd responseEnd = new UpgradeResponseEnd();
    private SocketChannel channel;
    private SelectionKey key;
    private JavaWebSocketFence ws;
    private State state = State.CONNECTING;
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
    /** Opened by the churn's cycle (a reconnect), not by the level's opening: its open or failure is the churn's. */
    boolean churnReconnect;
    /** Index of this session's member in its loop's {@link ChurnCycle}; -1 when not a member. */
    int churnMember = -1;
    /**
     * Our close frame is out and the socket stays open until the server closes the TCP connection
     * (or the churn's deadline drops it): the side that closes first keeps the TIME_WAIT, and a
     * reconnect storm must not leave thousands of them on the client's ephemeral ports.
     */
    private boolean awaitingServerClose;
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

    /** @param validate check every received message fully (UTF-8, SockJS grammar); a debug mode, slow */
    Connection(ConnectionEvents events, Transport transport, int clientId, boolean validate) {
        this.events = events;
        this.transport = transport;
        this.clientId = clientId;
        this.clientDigits = Integer.toString(clientId).length();
        this.clientPrefixLength = Payload.prefixLength(clientId);
        this.clientWord = clientPrefixLength == 0 ? 0 : Payload.prefixWord(clientId);
        this.clientMask = clientPrefixLength == 0 ? 0 : Payload.prefixMask(clientPrefixLength);
        this.decoder = new WsFrameDecoder(new ReceiveSink(this, events, transport, validate));
    }

    State state() {
        return state;
    }

    boolean isOpen() {
        return state == State.OPEN;
    }

    boolean isOpening() {
        return state == State.CONNECTING || state == State.HANDSHAKING || state == State.UPGRADED;
    }

    // --- opening ---------------------------------------------------------------------------

    /** Starts the non-blocking TCP connect; failures go to {@link ConnectionEvents#openFailed}. */
    void connect(Selector selector, SocketAddress address, InetAddress source, long deadline, String path,
                 String host) {
        deadlineNs = deadline;
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (source != null) {
                // Port 0: the kernel picks a free ephemeral port on this address.
                channel.bind(new InetSocketAddress(source, 0));
            }
            boolean connected = channel.connect(address);
            key = channel.register(selector, connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, this);
            if (connected) {
                startHandshake(path, host);
            }
        } catch (IOException | RuntimeException e) {
            failOpen("connect: " + e);
        }
    }

    /** The selector says the TCP connect finished (or failed). */
    void finishConnect(String path, String host) {
        try {
            if (channel.finishConnect()) {
                key.interestOps(SelectionKey.OP_READ);
                startHandshake(path, host);
            }
        } catch (IOException | RuntimeException e) {
            failOpen("connect: " + e);
        }
    }

    private void startHandshake(String path, String host) throws IOException {
        state = State.HANDSHAKING;
        ws = new JavaWebSocketFence(channel, key, this);
        ws.startHandshake(path, host);
    }

    private void markOpen() {
        if (state == State.HANDSHAKING || state == State.UPGRADED) {
            state = State.OPEN;
            events.opened(this);
        }
    }

    /** Fails a connection that has not opened (a no-op once it is open or closed). */
    void failOpen(String reason) {
        if (!isOpening()) {
            return;
        }
        state = State.CLOSED;
        closeChannel();
        events.openFailed(this, reason);
    }

    // --- reading ---------------------------------------------------------------------------

    /**
     * Reads once into {@code buf} (a heap buffer the loop owns), tells {@code accounting} when
     * the bytes arrived, and decodes them.
     *
     * @return bytes read, 0 if none, -1 if the connection is gone
     */
    int readAndAccount(ByteBuffer buf, ReceiveAccounting accounting) {
        buf.clear();
        int n;
        try {
            n = channel.read(buf);
        } catch (IOException e) {
            lost("read: " + e.getMessage());
            return -1;
        }
        if (n < 0) {
            lost(LossReason.SERVER_EOF);
            return -1;
        }
        if (n > 0) {
            accounting.beforeRead(n, System.nanoTime());
            receive(buf.array(), buf.arrayOffset(), buf.arrayOffset() + n);
            accounting.afterRead();
        }
        return n;
    }

    /** Decodes bytes that arrived; package-private so tests can feed bytes split any way they like. */
    void receive(byte[] b, int start, int end) {
        int i = start;
        if (state == State.HANDSHAKING) {
            int headerEnd = responseEnd.find(b, start, end);
            int upTo = headerEnd < 0 ? end : headerEnd;
            ws.decodeUpgradeResponse(b, start, upTo); // may report a refusal through closedByLibrary
            if (headerEnd < 0 || state != State.HANDSHAKING || !ws.upgraded()) {
                return;
            }
            if (transport == Transport.RAW) {
                markOpen();
            } else {
                state = State.UPGRADED;
            }
            i = headerEnd;
        }
        if (state == State.CLOSED || i >= end) {
            return;
        }
        try {
            decoder.feed(b, i, end);
        } catch (WsProtocolException | SockJsProtocolException e) {
            protocolError(e.getMessage());
        }
    }

    // --- what the ReceiveSink reports --------------------------------------------------------

    /** A websocket ping: answer with a pong carrying the same data. */
    void answerPing(byte[] buf, int start, int end) {
        try {
            ws.sendPong(buf, start, end);
        } catch (RuntimeException e) {
            lost("send: " + e);
        }
    }

    /** The server's websocket close frame. */
    void closeFrameReceived(int code, String reason) {
        if (state == State.CLOSED || awaitingServerClose) {
            return; // awaiting: the server answered our close; its FIN follows
        }
        // Answer the close (RFC 6455 §5.5.1) before dropping the socket; the server may be gone already.
        try {
            ws.closeNormally("");
            flush(new ByteBuffer[4]);
        } catch (RuntimeException ignored) {
            // the reply is a courtesy
        }
        lost("websocket closed: " + code + " " + reason);
    }

    /** The SockJS {@code o} frame: the session is open. */
    void sessionOpened() {
        markOpen();
    }

    /** A SockJS {@code c[code,"reason"]} frame: the server ended the session. */
    void sessionClosed(int code, String reason) {
        if (awaitingServerClose) {
            return; // the session is ending at our request; the server's FIN ends the socket
        }
        lost("SockJS close frame c[" + code + ",\"" + reason + "\"]");
    }

    // --- what Java-WebSocket reports (through the fence) -----------------------------------

    @Override
    public void wantsFlush() {
        events.wantsFlush(this);
    }

    @Override
    public void closedByLibrary(int code, String reason) {
        lost("websocket closed: " + code + " " + reason);
    }

    @Override
    public void unexpectedMessage(String what) {
        protocolError(what);
    }

    // --- sending and writing ----------------------------------------------------------------

    /** Queues one text message (Java-WebSocket frames and masks it); a failure closes the connection. */
    void send(String text) {
        try {
            ws.sendText(text);
        } catch (RuntimeException e) {
            lost("send: " + e);
        }
    }

    /** Writes the queued frames ({@link GatheredWriter}); asks for OP_WRITE while the socket is full. */
    void flush(ByteBuffer[] gather) {
        if (ws == null || channel == null || !channel.isOpen()) {
            return;
        }
        try {
            if (!GatheredWriter.drain(ws.outgoing(), channel, gather)) {
                if (key.isValid()) {
                    key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                }
                return;
            }
            if (key.isValid() && (key.interestOps() & SelectionKey.OP_WRITE) != 0) {
                key.interestOps(SelectionKey.OP_READ);
            }
            if (ws.closeAfterFlush() && !awaitingServerClose) {
                ws.closeConnection(); // our close frame is out: now close the socket
            }
        } catch (IOException e) {
            lost("write: " + e.getMessage());
        } catch (CancelledKeyException e) {
            // closed meanwhile
        }
    }

    // --- closing -----------------------------------------------------------------------------

    /** Closes politely when open (a WebSocket close frame), otherwise at once. */
    void close(boolean force) {
        closingByUs = true;
        if (state == State.CLOSED) {
            return;
        }
        if (!force && state == State.OPEN && ws != null) {
            ws.closeNormally("done");
        } else {
            hardClose();
        }
    }

    /**
     * Closes cleanly and lets the server close first (a churn cycle): our close frame (code 1000)
     * goes out, the socket stays open until the server's FIN ({@link #readAndAccount} then reports
     * the close) or until the caller drops it with {@link #hardClose}. A connection that is not
     * open is dropped at once.
     */
    void closeAwaitingServer() {
        closingByUs = true;
        if (state != State.OPEN || ws == null) {
            hardClose();
            return;
        }
        awaitingServerClose = true;
        try {
            ws.closeNormally("churn");
        } catch (RuntimeException e) {
            lost("close: " + e);
        }
    }

    /** Drops the socket now. */
    void hardClose() {
        if (isOpening()) {
            failOpen("closed before it opened");
        } else {
            lost("closed by the client");
        }
    }

    private void protocolError(String reason) {
        events.protocolError(this, reason);
        lost("protocol error: " + reason);
    }

    /** The connection is gone (server closed it, close frame, I/O error, our own close). */
    private void lost(String reason) {
        if (state == State.CLOSED) {
            return;
        }
        if (isOpening()) {
            failOpen(reason);
            return;
        }
        state = State.CLOSED;
        closeChannel();
        events.closed(this, reason);
    }

    private void closeChannel() {
        if (key != null) {
            key.cancel();
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already broken
            }
        }
    }
}
