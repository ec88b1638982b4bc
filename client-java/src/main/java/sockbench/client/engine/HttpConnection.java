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
import sockbench.client.http.HttpProtocolException;
import sockbench.client.http.HttpReceiveTransport;
import sockbench.client.http.HttpRequests;
import sockbench.client.http.HttpResponseDecoder;
import sockbench.client.http.SockJsBodyFramer;
import sockbench.client.sockjs.SockJsProtocolException;

/**
 * A SockJS session over the HTTP transports, as sockjs-client runs one in a browser: a
 * <b>receiving</b> socket that carries {@code xhr_streaming}, {@code eventsource} or {@code xhr}
 * (polling) requests one after another, and a <b>sending</b> socket for {@code xhr_send} POSTs,
 * both HTTP/1.1 keep-alive (a browser keeps a pool; one socket per direction is what a session
 * holds at once).
 *
 * <ul>
 *   <li><b>Receiving.</b> The first request's response starts with the transport's prelude, then
 *       {@code o}; the session is open there. A streaming response ends after the server's
 *       {@code response_limit} bytes and a polling response after each frame: the next request
 *       goes out at once on the same socket (or a new one when the server closed it), as the
 *       protocol asks. Bytes go from the read buffer through {@link HttpResponseDecoder} and
 *       {@link SockJsBodyFramer} into the same {@link ReceiveSink} a websocket session uses, as
 *       slices of the read buffer: one clock read per read syscall, nothing allocated per frame.</li>
 *   <li><b>Sending.</b> One POST in flight at a time, as sockjs-client does: messages due while it
 *       is in flight wait and go together in the next POST's JSON array. That wait is part of the
 *       transport's cost, so it stays in the RTT (the payload carries the scheduled time).</li>
 *   <li><b>Closing.</b> HTTP transports have no client close frame: closing drops both sockets
 *       and the server ends the session after its disconnect delay. A churn cycle's polite close
 *       ({@link #closeAwaitingServer}) is therefore a drop too.</li>
 * </ul>
 *
 * <p>Every method runs on the owning loop's thread.
 */
final class HttpConnection extends Connection {

    private final HttpReceiveTransport http;
    private final ReceiveSink sink;
    // Made in the constructor, after http: the receiver's framer needs it (field initializers would
    // run before the constructor's body).
    private final Receiver receiver;
    private final Sender sender;
    private Selector selector;
    private SocketAddress address;
    private InetAddress source;
    /** {@code <prefix>/<server>/<session>}, fixed at connect. */
    private String sessionPath;
    private String host;
    /** The receiving request: the same bytes for every poll or re-open of this session, built once. */
    private byte[] receiveRequest;

    /**
     * @param transport  the HTTP transport (not {@link SessionTransport#WEBSOCKET})
     * @param accounting where this session's copies are counted
     * @param validate   check every received message fully (UTF-8, SockJS grammar); a debug mode, slow
     */
    HttpConnection(ConnectionEvents events, SessionTransport transport, int clientId, ReceiveAccounting accounting,
                   boolean validate) {
        super(events, transport, clientId, accounting);
        if (transport.http() == null) {
            throw new IllegalArgumentException("not an HTTP transport: " + transport.userName());
        }
        this.http = transport.http();
        this.sink = new ReceiveSink(this, events, Transport.SOCKJS, validate);
        this.receiver = new Receiver();
        this.sender = new Sender();
    }

    // --- opening ---------------------------------------------------------------------------

    @Override
    void connect(Selector selector, SocketAddress address, InetAddress source, long deadline, Target target) {
        this.selector = selector;
        this.address = address;
        this.source = source;
        this.deadlineNs = deadline;
        this.sessionPath = target.sessionPath(clientId);
        this.host = target.hostHeader();
        this.receiveRequest = HttpRequests.receive(http, sessionPath, host);
        state = State.HANDSHAKING; // the receiving request is the handshake: open at its "o" frame
        receiver.open();
    }

    // --- the Connection interface ------------------------------------------------------------

    /** Queues one message array ({@code ["payload"]}); its elements join the next xhr_send POST's array. */
    @Override
    void send(String text) {
        if (state != State.OPEN) {
            return;
        }
        sender.queue(text);
        events.wantsFlush(this);
    }

    @Override
    void flush(ByteBuffer[] gather) {
        if (state == State.CLOSED) {
            return;
        }
        sender.startPostIfDue();
        sender.write();
        receiver.write();
    }

    @Override
    void close(boolean force) {
        closingByUs = true;
        hardClose();
    }

    @Override
    void closeAwaitingServer() {
        closingByUs = true;
        hardClose();
    }

    @Override
    void closeSockets() {
        receiver.closeSocket();
        sender.closeSocket();
    }

    // --- one socket ----------------------------------------------------------------------------

    /**
     * One keep-alive HTTP socket of the session: connect, write a request's bytes, read responses
     * through its decoder. The two subclasses say what a response means.
     */
    private abstract class Leg implements ReadySocket, HttpResponseDecoder.Listener {
        /** Fresh-socket retries of one request whose keep-alive socket closed before any answer. */
        static final int MAX_RETRIES = 1;
        SocketChannel channel;
        SelectionKey key;
        HttpResponseDecoder decoder;
        /** The request bytes not written yet; null when none. */
        ByteBuffer out;
        /** The TCP connect has finished. */
        boolean connected;
        /** The last request sent, kept for one retry on a fresh socket. */
        byte[] lastRequest;
        /** A request is out and no response head has come back for it yet. */
        boolean awaitingHead;
        /** Retries of the current request on a fresh socket (at most {@link #MAX_RETRIES}). */
        int retries;
        /** OP_READ is wanted (false while a slow reader's socket is paused, {@link ReadThrottle}). */
        boolean reading = true;

        @Override
        public Connection session() {
            return HttpConnection.this;
        }

        @Override
        public final void readInterest(boolean on) {
            reading = on;
            if (key != null && key.isValid() && connected) {
                try {
                    key.interestOps(on ? key.interestOps() | SelectionKey.OP_READ : key.interestOps() & ~SelectionKey.OP_READ);
                } catch (CancelledKeyException e) {
                    // closed meanwhile
                }
            }
        }

        /** OP_READ, or nothing while paused. */
        final int readOp() {
            return reading ? SelectionKey.OP_READ : 0;
        }

        /** Opens a fresh socket (the old one, if any, is closed) and writes {@code request} once connected. */
        final void openWith(byte[] request) {
            closeSocket();
            lastRequest = request;
            awaitingHead = true;
            retries = 0;
            out = ByteBuffer.wrap(request);
            decoder = new HttpResponseDecoder(this);
            try {
                channel = SocketChannel.open();
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (source != null) {
                    channel.bind(new InetSocketAddress(source, 0)); // port 0: a free ephemeral port
                }
                connected = channel.connect(address);
                key = channel.register(selector, connected ? readOp() : SelectionKey.OP_CONNECT, this);
                if (connected) {
                    write();
                }
            } catch (IOException | RuntimeException e) {
                failed(name() + " connect: " + e);
            }
        }

        /** Sends {@code request} on this socket when it is open, else on a new one. */
        final void request(byte[] request) {
            if (channel != null && channel.isOpen() && connected) {
                lastRequest = request;
                awaitingHead = true;
                retries = 0;
                out = ByteBuffer.wrap(request);
                write();
            } else {
                openWith(request);
            }
        }

        @Override
        public final void connectReady() {
            try {
                if (channel.finishConnect()) {
                    connected = true;
                    key.interestOps(readOp());
                    write();
                }
            } catch (IOException | RuntimeException e) {
                failed(name() + " connect: " + e);
            }
        }

        @Override
        public final void writeReady(ByteBuffer[] gather) {
            write();
        }

        /** Writes what is queued; OP_WRITE while the socket is full. */
        final void write() {
            if (out == null || !connected || channel == null || !channel.isOpen()) {
                return;
            }
            try {
                channel.write(out);
                boolean done = !out.hasRemaining();
                if (done) {
                    out = null;
                }
                if (key.isValid()) {
                    key.interestOps(done ? readOp() : readOp() | SelectionKey.OP_WRITE);
                }
            } catch (IOException e) {
                failed(name() + " write: " + e.getMessage());
            } catch (CancelledKeyException e) {
                // closed meanwhile
            }
        }

        @Override
        public final int readReady(ByteBuffer buf, int max) {
            if (channel == null || !connected) {
                return -1; // replaced by a fresh socket while this one's bytes were decoded
            }
            buf.clear();
            buf.limit(Math.min(max, buf.capacity()));
            int n;
            try {
                n = channel.read(buf);
            } catch (IOException e) {
                failed(name() + " read: " + e.getMessage());
                return -1;
            }
            if (n < 0) {
                peerClosed();
                return -1;
            }
            if (n > 0) {
                decode(buf.array(), buf.arrayOffset(), buf.arrayOffset() + n);
            }
            return n;
        }

        /** Hands {@code n} read bytes to the decoder; a malformed response ends the session. */
        void decode(byte[] b, int start, int end) {
            try {
                decoder.feed(b, start, end);
            } catch (HttpProtocolException | SockJsProtocolException e) {
                protocolError(name() + ": " + e.getMessage());
            }
        }

        /** The server closed the socket: the end of a close-delimited response, or a loss. */
        final void peerClosed() {
            HttpResponseDecoder d = decoder;
            boolean clean;
            try {
                clean = d.eof(); // may end a close-delimited body: onEnd(false) re-opens on a new socket
            } catch (HttpProtocolException | SockJsProtocolException e) {
                protocolError(name() + ": " + e.getMessage());
                return;
            }
            if (d != decoder) {
                return; // onEnd re-opened: this socket is already replaced
            }
            closeSocket();
            if (!clean) {
                failed(name() + ": " + LossReason.SERVER_EOF + " mid-response");
            } else if (awaitingHead && retries < MAX_RETRIES) {
                // A keep-alive socket the server closed as our request went out (Node's http
                // server closes idle sockets after 5 s): the request was never answered, so it
                // goes again on a fresh socket, as browsers do.
                retries++;
                byte[] again = lastRequest;
                int r = retries;
                openWith(again);
                retries = r;
            } else if (awaitingHead) {
                failed(name() + ": " + LossReason.SERVER_EOF + " before the response, " + (MAX_RETRIES + 1) + " times");
            }
            // else: an idle keep-alive socket closed between requests; the next one opens a new socket
        }

        /** A response head arrived: the request it answers is done with retries. */
        final void headArrived() {
            awaitingHead = false;
            retries = 0;
        }

        /** The leg's name in loss reasons ("xhr_streaming", "xhr_send"). */
        abstract String name();

        final void failed(String reason) {
            closeSocket();
            lost(reason);
        }

        final void closeSocket() {
            if (key != null) {
                key.cancel();
                key = null;
            }
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // already broken
                }
                channel = null;
            }
            connected = false;
            out = null;
        }
    }

    // --- receiving -------------------------------------------------------------------------------

    /** The socket that carries the receiving requests one after another. */
    private final class Receiver extends Leg implements SockJsBodyFramer.FrameSink {
        private final SockJsBodyFramer framer = new SockJsBodyFramer(http, this);
        /** The current response answered 200 and its body is being framed. */
        private boolean framing;

        void open() {
            openWith(receiveRequest);
        }

        @Override
        String name() {
            return http.pathSuffix();
        }

        @Override
        void decode(byte[] b, int start, int end) {
            // One clock read per read syscall, as on the websocket path.
            accounting.beforeRead(end - start, System.nanoTime());
            super.decode(b, start, end);
            accounting.afterRead();
        }

        @Override
        public void onHead(int status) {
            headArrived();
            if (status != 200) {
                lost(http.pathSuffix() + " answered HTTP " + status);
                return;
            }
            framing = true;
            framer.startResponse();
        }

        @Override
        public void onBody(byte[] b, int start, int end) {
            if (framing) {
                framer.body(b, start, end);
            }
        }

        @Override
        public void onEnd(boolean keepAlive) {
            if (!framing) {
                return;
            }
            framing = false;
            framer.endResponse();
            if (state == State.CLOSED) {
                return;
            }
            // The response ended (response_limit, or one poll answered): the protocol's next
            // request for the same session, at once.
            if (keepAlive) {
                request(receiveRequest);
            } else {
                openWith(receiveRequest);
            }
        }

        @Override
        public void onFrame(byte[] b, int start, int end) {
            sink.onText(b, start, end);
        }
    }

    // --- sending ---------------------------------------------------------------------------------

    /** The socket that carries the xhr_send POSTs, one in flight at a time. */
    private final class Sender extends Leg {
        /** The queued messages' JSON strings, comma-separated, for the next POST's array. */
        private final StringBuilder pending = new StringBuilder(256);
        /** A POST is out and its response has not ended. */
        private boolean inFlight;
        private int status;

        /** Adds the elements of {@code array} ({@code ["…"]}, as the send cursor frames it) to the next POST. */
        void queue(String array) {
            if (pending.length() > 0) {
                pending.append(',');
            }
            pending.append(array, 1, array.length() - 1);
        }

        /** Starts a POST with everything queued, unless one is in flight. */
        void startPostIfDue() {
            if (inFlight || pending.length() == 0 || state != State.OPEN) {
                return;
            }
            byte[] body = new byte[pending.length() + 2];
            body[0] = '[';
            for (int i = 0; i < pending.length(); i++) {
                body[i + 1] = (byte) pending.charAt(i); // the payloads are ASCII (sockbench.client.engine.Payload)
            }
            body[body.length - 1] = ']';
            pending.setLength(0);
            inFlight = true;
            request(HttpRequests.send(sessionPath, host, body, 0, body.length));
        }

        @Override
        String name() {
            return "xhr_send";
        }

        @Override
        public void onHead(int status) {
            headArrived();
            this.status = status;
        }

        @Override
        public void onBody(byte[] b, int start, int end) {
            // 204 has none; a 200's body is empty or ignorable by the protocol
        }

        @Override
        public void onEnd(boolean keepAlive) {
            if (status != 204 && status != 200) {
                lost("xhr_send answered HTTP " + status);
                return;
            }
            inFlight = false;
            if (!keepAlive) {
                closeSocket(); // the next POST opens a new socket
            }
            if (pending.length() > 0) {
                events.wantsFlush(HttpConnection.this);
            }
        }
    }
}
