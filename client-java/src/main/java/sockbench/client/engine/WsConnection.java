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
import sockbench.client.websocket.Compression;
import sockbench.client.websocket.DeflateNegotiation;
import sockbench.client.websocket.JavaWebSocketFence;
import sockbench.client.websocket.MessageInflater;
import sockbench.client.websocket.UpgradeResponseEnd;
import sockbench.client.websocket.WsFrameDecoder;
import sockbench.client.websocket.WsProtocolException;

/**
 * A SockJS session over one websocket (or a raw websocket): TCP connect → HTTP upgrade →
 * [SockJS: UPGRADED until {@code o} arrives] → OPEN → CLOSED, on one socket.
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
 * <p><b>Compression.</b> With {@code --compression permessage-deflate} the upgrade offers it
 * ({@link DeflateNegotiation}); an answer that does not accept it fails the open with that reason
 * (the run's first error), and an accepted one gives the decoder this session's
 * {@link MessageInflater}, ended when the socket closes. What we send stays uncompressed.
 *
 * <p>Every method runs on the owning loop's thread.
 */
final class WsConnection extends Connection implements ReadySocket, JavaWebSocketFence.Events {

    private final Transport framing;
    private final WsFrameDecoder decoder;
    private final UpgradeResponseEnd responseEnd = new UpgradeResponseEnd();
    private SocketChannel channel;
    private SelectionKey key;
    private JavaWebSocketFence ws;
    /** The upgrade request's path and Host header, and what it offers, fixed at connect. */
    private String path;
    private String host;
    private Compression compression = Compression.NONE;
    /** This session's inflater, once the server accepted permessage-deflate; null otherwise. */
    private MessageInflater inflater;
    /**
     * Our close frame is out and the socket stays open until the server closes the TCP connection
     * (or the churn's deadline drops it): the side that closes first keeps the TIME_WAIT, and a
     * reconnect storm must not leave thousands of them on the client's ephemeral ports.
     */
    private boolean awaitingServerClose;
    /** OP_READ is wanted (false while a slow reader's socket is paused, {@link ReadThrottle}). */
    private boolean reading = true;

    /**
     * @param framing    SockJS-framed websocket or raw websocket endpoint
     * @param accounting where this session's copies are counted (null in tests that feed bytes only)
     * @param validate   check every received message fully (UTF-8, SockJS grammar); a debug mode, slow
     */
    WsConnection(ConnectionEvents events, Transport framing, int clientId, ReceiveAccounting accounting,
                 boolean validate) {
        super(events, SessionTransport.WEBSOCKET, clientId, accounting);
        this.framing = framing;
        this.decoder = new WsFrameDecoder(new ReceiveSink(this, events, framing, validate));
    }

    @Override
    public Connection session() {
        return this;
    }

    // --- opening ---------------------------------------------------------------------------

    @Override
    void connect(Selector selector, SocketAddress address, InetAddress source, long deadline, Target target) {
        connect(selector, address, source, deadline, target.websocketPath(clientId), target.hostHeader(),
                target.compression());
    }

    /** Starts the non-blocking TCP connect; failures go to {@link ConnectionEvents#openFailed}. */
    void connect(Selector selector, SocketAddress address, InetAddress source, long deadline, String path,
                 String host, Compression compression) {
        deadlineNs = deadline;
        this.path = path;
        this.host = host;
        this.compression = compression;
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (source != null) {
                // Port 0: the kernel picks a free ephemeral port on this address.
                channel.bind(new InetSocketAddress(source, 0));
            }
            boolean connected = channel.connect(address);
            key = channel.register(selector, connected ? readOp() : SelectionKey.OP_CONNECT, this);
            if (connected) {
                startHandshake();
            }
        } catch (IOException | RuntimeException e) {
            failOpen("connect: " + e);
        }
    }

    /** The selector says the TCP connect finished (or failed). */
    @Override
    public void connectReady() {
        try {
            if (channel.finishConnect()) {
                key.interestOps(readOp());
                startHandshake();
            }
        } catch (IOException | RuntimeException e) {
            failOpen("connect: " + e);
        }
    }

    private void startHandshake() throws IOException {
        state = State.HANDSHAKING;
        ws = new JavaWebSocketFence(channel, key, this);
        ws.startHandshake(path, host, compression == Compression.PERMESSAGE_DEFLATE ? DeflateNegotiation.OFFER : null);
    }

    // --- reading ---------------------------------------------------------------------------

    @Override
    public void readInterest(boolean on) {
        reading = on;
        if (key != null && key.isValid() && state != State.CONNECTING) {
            try {
                key.interestOps(on ? key.interestOps() | SelectionKey.OP_READ : key.interestOps() & ~SelectionKey.OP_READ);
            } catch (CancelledKeyException e) {
                // closed meanwhile
            }
        }
    }

    /** OP_READ, or nothing while paused. */
    private int readOp() {
        return reading ? SelectionKey.OP_READ : 0;
    }

    /**
     * Reads once into {@code buf} (a heap buffer the loop owns), tells this session's accounting
     * when the bytes arrived, and decodes them.
     *
     * @return bytes read, 0 if none, -1 if the connection is gone
     */
    @Override
    public int readReady(ByteBuffer buf, int max) {
        buf.clear();
        buf.limit(Math.min(max, buf.capacity()));
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
            long inflatedBefore = inflater == null ? 0 : inflater.inflatedBytes();
            receive(buf.array(), buf.arrayOffset(), buf.arrayOffset() + n);
            if (inflater != null) {
                accounting.inflated(inflater.inflatedBytes() - inflatedBefore);
            }
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
            if (!acceptExtensions()) {
                return;
            }
            if (framing == Transport.RAW) {
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

    /**
     * Checks the accepted upgrade's Sec-WebSocket-Extensions against our offer and, for
     * permessage-deflate, gives the decoder this session's inflater; false (the open failed, with
     * the reason) when the answer is not what we asked for.
     */
    private boolean acceptExtensions() {
        DeflateNegotiation.Accepted accepted;
        try {
            accepted = DeflateNegotiation.check(compression, ws.answeredExtensions());
        } catch (WsProtocolException e) {
            failOpen("websocket upgrade: " + e.getMessage());
            return false;
        }
        if (accepted != null) {
            inflater = new MessageInflater(accepted.serverNoContextTakeover());
            decoder.inflateWith(inflater);
        }
        return true;
    }

    // --- what the ReceiveSink reports --------------------------------------------------------

    /** A websocket ping: answer with a pong carrying the same data. */
    @Override
    void answerPing(byte[] buf, int start, int end) {
        try {
            ws.sendPong(buf, start, end);
        } catch (RuntimeException e) {
            lost("send: " + e);
        }
    }

    /**
     * An unsolicited empty pong (RFC 6455 §5.5.3 allows it as a one-way heartbeat; servers ignore
     * it): data to a socket the server has closed makes its kernel answer with a reset, so the
     * next read or write here fails and the cut-off is counted now rather than after the backlog.
     */
    @Override
    void probe() {
        if (state == State.OPEN && ws != null && !awaitingServerClose) {
            answerPing(NO_BYTES, 0, 0);
        }
    }

    private static final byte[] NO_BYTES = new byte[0];

    /** The server's websocket close frame. */
    @Override
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

    /** A SockJS {@code c[code,"reason"]} frame: the server ended the session. */
    @Override
    void sessionClosed(int code, String reason) {
        if (awaitingServerClose) {
            return; // the session is ending at our request; the server's FIN ends the socket
        }
        super.sessionClosed(code, reason);
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
    @Override
    void send(String text) {
        try {
            ws.sendText(text);
        } catch (RuntimeException e) {
            lost("send: " + e);
        }
    }

    @Override
    public void writeReady(ByteBuffer[] gather) {
        flush(gather);
    }

    /** Writes the queued frames ({@link GatheredWriter}); asks for OP_WRITE while the socket is full. */
    @Override
    void flush(ByteBuffer[] gather) {
        if (ws == null || channel == null || !channel.isOpen()) {
            return;
        }
        try {
            if (!GatheredWriter.drain(ws.outgoing(), channel, gather)) {
                if (key.isValid()) {
                    key.interestOps(readOp() | SelectionKey.OP_WRITE);
                }
                return;
            }
            if (key.isValid() && (key.interestOps() & SelectionKey.OP_WRITE) != 0) {
                key.interestOps(readOp());
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
    @Override
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
     * goes out, the socket stays open until the server's FIN ({@link #readReady} then reports
     * the close) or until the caller drops it with {@link #hardClose}. A connection that is not
     * open is dropped at once.
     */
    @Override
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

    @Override
    void closeSockets() {
        if (inflater != null) {
            inflater.end(); // its native zlib state, now rather than at the next GC
        }
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
