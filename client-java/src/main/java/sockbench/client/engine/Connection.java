package sockbench.client.engine;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import org.java_websocket.WebSocket;
import org.java_websocket.WebSocketAdapter;
import org.java_websocket.WebSocketImpl;
import org.java_websocket.drafts.Draft_6455;
import org.java_websocket.framing.CloseFrame;
import org.java_websocket.framing.Framedata;
import org.java_websocket.framing.PongFrame;
import org.java_websocket.handshake.Handshakedata;
import org.java_websocket.handshake.HandshakeImpl1Client;
import sockbench.client.sockjs.FrameValidator;
import sockbench.client.sockjs.SockJsByteHandler;
import sockbench.client.sockjs.SockJsByteScanner;
import sockbench.client.sockjs.SockJsProtocolException;
import sockbench.client.websocket.WsFrameDecoder;
import sockbench.client.websocket.WsFrameSink;
import sockbench.client.websocket.WsProtocolException;

/**
 * One client connection and its state machine: CONNECTING (TCP) → HANDSHAKING (HTTP upgrade)
 * → [SockJS: UPGRADED until {@code o} arrives] → OPEN → CLOSED. Every state change happens
 * here; the owning {@link IoLoop} hears about it through {@link ConnectionEvents}.
 *
 * <p><b>Who does what on the wire.</b> Java-WebSocket ({@link WebSocketImpl}) writes the upgrade
 * request, checks the server's answer, and frames and masks everything the client sends. The
 * receive direction after the upgrade is ours: {@link WsFrameDecoder} decodes frames straight
 * from the read buffer and {@link SockJsByteScanner} finds the messages in them, so no frame
 * object, String or UTF-8 check is made per frame (client-java/README.md, "The receive path").
 * The read that carries the end of the upgrade response is split at the blank line: the
 * response goes to Java-WebSocket, whatever follows (often the {@code o} frame) to our decoder.
 *
 * <p>Every method runs on the owning loop's thread.
 */
final class Connection extends WebSocketAdapter implements WsFrameSink, SockJsByteHandler {

    /** UPGRADED: the HTTP upgrade is done but a SockJS session waits for its {@code o} frame. */
    enum State { CONNECTING, HANDSHAKING, UPGRADED, OPEN, CLOSED }

    private static final byte[] HEADER_END = {'\r', '\n', '\r', '\n'};

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
    /** Full UTF-8 and SockJS grammar check of every message ({@code --validate}); null normally. */
    private final FrameValidator validator;
    private final WsFrameDecoder decoder = new WsFrameDecoder(this);
    private SocketChannel channel;
    private SelectionKey key;
    private WebSocketImpl ws;
    private State state = State.CONNECTING;
    /** Connect/handshake deadline, nanoTime. */
    long deadlineNs;
    /** Set when the client closes the connection itself, so the close is not counted as an error. */
    boolean closingByUs;
    /** True while queued in the loop's flush list. */
    boolean flushQueued;
    /** How many bytes of {@link #HEADER_END} the handshake response has matched so far. */
    private int headerEndMatched;
    /** Highest (epoch, seq) of own copies seen, for the ordering check. */
    long lastOwnEpoch = -1;
    long lastOwnSeq = -1;

    Connection(ConnectionEvents events, Transport transport, int clientId, boolean validate) {
        this.events = events;
        this.transport = transport;
        this.clientId = clientId;
        this.clientDigits = Integer.toString(clientId).length();
        this.clientPrefixLength = Payload.prefixLength(clientId);
        this.clientWord = clientPrefixLength == 0 ? 0 : Payload.prefixWord(clientId);
        this.clientMask = clientPrefixLength == 0 ? 0 : Payload.prefixMask(clientPrefixLength);
        this.validator = validate ? new FrameValidator(transport == Transport.SOCKJS) : null;
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
    void connect(Selector selector, SocketAddress address, java.net.InetAddress source, long deadline, String path,
                 String host) {
        deadlineNs = deadline;
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (source != null) {
                // Port 0: the kernel picks a free ephemeral port on this address.
                channel.bind(new java.net.InetSocketAddress(source, 0));
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
        ws = new WebSocketImpl(this, new Draft_6455());
        ws.setChannel(channel);
        ws.setSelectionKey(key);
        HandshakeImpl1Client request = new HandshakeImpl1Client();
        request.setResourceDescriptor(path);
        request.put("Host", host);
        try {
            ws.startHandshake(request);
        } catch (org.java_websocket.exceptions.InvalidHandshakeException e) {
            throw new IOException("handshake: " + e.getMessage(), e);
        }
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
            lost("server closed the TCP connection");
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
            int headerEnd = findHeaderEnd(b, start, end);
            int upTo = headerEnd < 0 ? end : headerEnd;
            ws.decode(ByteBuffer.wrap(b, start, upTo - start)); // may call onWebsocketOpen or a close callback
            if (headerEnd < 0 || state != State.HANDSHAKING || !ws.isOpen()) {
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

    /** Index just past the response's blank line in {@code b[start, end)}, or -1 (the match carries across reads). */
    private int findHeaderEnd(byte[] b, int start, int end) {
        for (int i = start; i < end; i++) {
            if (b[i] == HEADER_END[headerEndMatched]) {
                if (++headerEndMatched == HEADER_END.length) {
                    return i + 1;
                }
            } else {
                headerEndMatched = b[i] == '\r' ? 1 : 0;
            }
        }
        return -1;
    }

    // --- WsFrameSink: frames decoded by WsFrameDecoder --------------------------------------

    @Override
    public void onText(byte[] buf, int start, int end) {
        if (state == State.CLOSED) {
            return;
        }
        if (validator != null) {
            validator.check(buf, start, end);
        }
        if (transport == Transport.RAW) {
            events.message(this, buf, start, end);
        } else {
            SockJsByteScanner.scan(buf, start, end, this);
        }
    }

    @Override
    public void onPing(byte[] buf, int start, int end) {
        PongFrame pong = new PongFrame();
        byte[] data = java.util.Arrays.copyOfRange(buf, start, end);
        pong.setPayload(ByteBuffer.wrap(data));
        send(pong);
    }

    @Override
    public void onCloseFrame(int code, String reason) {
        if (state == State.CLOSED) {
            return;
        }
        // Answer the close (RFC 6455 §5.5.1) before dropping the socket; the server may be gone already.
        try {
            ws.close(CloseFrame.NORMAL, "");
            flush(new ByteBuffer[4]);
        } catch (RuntimeException ignored) {
            // the reply is a courtesy
        }
        lost("websocket closed: " + code + " " + reason);
    }

    // --- SockJsByteHandler: SockJS frames ----------------------------------------------------

    @Override
    public void onOpen() {
        markOpen();
    }

    @Override
    public void onHeartbeat() {
    }

    @Override
    public void onMessage(byte[] buf, int start, int end) {
        events.message(this, buf, start, end);
    }

    @Override
    public void onClose(int code, String reason) {
        lost("SockJS close frame c[" + code + ",\"" + reason + "\"]");
    }

    // --- sending and writing ----------------------------------------------------------------

    /** Queues one text message (Java-WebSocket frames and masks it); a failure closes the connection. */
    void send(String text) {
        try {
            ws.send(text);
        } catch (RuntimeException e) {
            lost("send: " + e);
        }
    }

    private void send(Framedata frame) {
        try {
            ws.sendFrame(frame);
        } catch (RuntimeException e) {
            lost("send: " + e);
        }
    }

    /** Writes the queued frames with gathering writes; asks for OP_WRITE when the socket is full. */
    void flush(ByteBuffer[] gather) {
        if (ws == null || channel == null || !channel.isOpen()) {
            return;
        }
        try {
            while (!ws.outQueue.isEmpty()) {
                int k = 0;
                for (ByteBuffer b : ws.outQueue) {
                    gather[k++] = b;
                    if (k == gather.length) {
                        break;
                    }
                }
                channel.write(gather, 0, k);
                boolean blocked = false;
                for (int i = 0; i < k; i++) {
                    if (gather[i].hasRemaining()) {
                        blocked = true;
                        break;
                    }
                    ws.outQueue.poll();
                }
                java.util.Arrays.fill(gather, 0, k, null);
                if (blocked) {
                    if (key.isValid()) {
                        key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    }
                    return;
                }
            }
            if (key.isValid() && (key.interestOps() & SelectionKey.OP_WRITE) != 0) {
                key.interestOps(SelectionKey.OP_READ);
            }
            if (ws.isFlushAndClose()) {
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
            ws.close(CloseFrame.NORMAL, "done");
        } else {
            hardClose();
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

    // --- Java-WebSocket callbacks (handshake and the client-to-server side only) -------------

    @Override
    public void onWebsocketOpen(WebSocket conn, Handshakedata d) {
        // The upgrade succeeded; receive() marks the connection open (raw) or waits for "o" (SockJS).
    }

    @Override
    public void onWebsocketMessage(WebSocket conn, String message) {
        // Not reached: frames after the upgrade never go through Java-WebSocket's decoder.
        protocolError("unexpected message through Java-WebSocket's receive path");
    }

    @Override
    public void onWebsocketMessage(WebSocket conn, ByteBuffer blob) {
        protocolError("unexpected binary message");
    }

    @Override
    public void onWebsocketClose(WebSocket conn, int code, String reason, boolean remote) {
        lost("websocket closed: " + code + " " + reason);
    }

    @Override
    public void onWebsocketClosing(WebSocket conn, int code, String reason, boolean remote) {
    }

    @Override
    public void onWebsocketCloseInitiated(WebSocket conn, int code, String reason) {
    }

    @Override
    public void onWebsocketError(WebSocket conn, Exception ex) {
        // The close callback that follows carries the reason; nothing to add here.
    }

    @Override
    public void onWriteDemand(WebSocket conn) {
        events.wantsFlush(this);
    }

    @Override
    public InetSocketAddress getLocalSocketAddress(WebSocket conn) {
        try {
            return channel == null ? null : (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public InetSocketAddress getRemoteSocketAddress(WebSocket conn) {
        try {
            return channel == null ? null : (InetSocketAddress) channel.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }
}
