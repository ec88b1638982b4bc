package sockbench.client.websocket;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import org.java_websocket.WebSocket;
import org.java_websocket.WebSocketAdapter;
import org.java_websocket.WebSocketImpl;
import org.java_websocket.drafts.Draft_6455;
import org.java_websocket.exceptions.InvalidHandshakeException;
import org.java_websocket.framing.CloseFrame;
import org.java_websocket.framing.PongFrame;
import org.java_websocket.handshake.Handshakedata;
import org.java_websocket.handshake.HandshakeImpl1Client;

/**
 * The fence: the only class that uses Java-WebSocket (org.java-websocket, the version pinned by
 * {@code java-websocket.version} in pom.xml), for one client connection.
 *
 * <p>What the library still does for us: it writes the HTTP upgrade request, checks the server's
 * answer ({@code 101}, {@code Sec-WebSocket-Accept}, …), frames and masks everything the client
 * sends, and runs our side of the closing handshake. What it no longer does: decode what the
 * server sends after the upgrade ({@link WsFrameDecoder} does, straight from the read buffer;
 * client-java/README.md, "The receive path"), so only the upgrade response's bytes ever reach
 * {@link #decodeUpgradeResponse}. Nothing outside this class sees a Java-WebSocket type.
 *
 * <p>Every Java-WebSocket name used here is in {@link #NAMES} with why;
 * {@code JavaWebSocketFenceTest} fails when the jar on the classpath is not the pinned version,
 * when a listed name is missing from it, or when this class uses a name it does not list. So a
 * Java-WebSocket upgrade is checked here first.
 *
 * <p>Not thread-safe: used by the connection's I/O thread only.
 */
public final class JavaWebSocketFence {

    /** A Java-WebSocket name this class uses, and why. */
    record Name(String name, String why) {
    }

    /**
     * Every Java-WebSocket name used in this file. Form: {@code class}, {@code class#field},
     * {@code class#method(parameter types)} or {@code class#<init>(parameter types)}, with
     * fully qualified parameter types (how {@code JavaWebSocketFenceTest} looks them up).
     */
    static final List<Name> NAMES = List.of(
            new Name("org.java_websocket.WebSocketImpl",
                    "one connection's websocket state machine on the library's side"),
            new Name("org.java_websocket.WebSocketImpl#<init>(org.java_websocket.WebSocketListener,"
                    + "org.java_websocket.drafts.Draft)",
                    "a client-side connection speaking one draft, reporting to our listener"),
            new Name("org.java_websocket.WebSocketImpl#setChannel(java.nio.channels.ByteChannel)",
                    "the socket the library closes in closeConnection()"),
            new Name("org.java_websocket.WebSocketImpl#setSelectionKey(java.nio.channels.SelectionKey)",
                    "the selection key the library cancels in closeConnection()"),
            new Name("org.java_websocket.WebSocketImpl#startHandshake("
                    + "org.java_websocket.handshake.ClientHandshakeBuilder)",
                    "queues the upgrade request (with a fresh Sec-WebSocket-Key) in outQueue"),
            new Name("org.java_websocket.WebSocketImpl#decode(java.nio.ByteBuffer)",
                    "reads the upgrade response and checks it (status 101, Sec-WebSocket-Accept, headers); "
                            + "called with the response's bytes only"),
            new Name("org.java_websocket.WebSocketImpl#isOpen()",
                    "true once the upgrade response was accepted"),
            new Name("org.java_websocket.WebSocketImpl#send(java.lang.String)",
                    "frames and masks one text message into outQueue (masking needs that copy)"),
            new Name("org.java_websocket.WebSocketImpl#sendFrame(org.java_websocket.framing.Framedata)",
                    "frames and masks the pong that answers a ping"),
            new Name("org.java_websocket.WebSocketImpl#close(int,java.lang.String)",
                    "queues our close frame (the closing handshake, RFC 6455 section 5.5.1)"),
            new Name("org.java_websocket.WebSocketImpl#outQueue",
                    "the encoded frames not written yet: our gathered write takes them from its head"),
            new Name("org.java_websocket.WebSocketImpl#isFlushAndClose()",
                    "our close frame is queued: close the socket once the queue is written"),
            new Name("org.java_websocket.WebSocketImpl#closeConnection()",
                    "closes the socket after our close frame is out; reports onWebsocketClose"),
            new Name("org.java_websocket.drafts.Draft_6455",
                    "RFC 6455, the only protocol version the servers speak"),
            new Name("org.java_websocket.drafts.Draft_6455#<init>()",
                    "no extensions of the library's own, no subprotocols: what we send is never compressed "
                            + "(RFC 7692 allows a client's uncompressed messages), and the receive path is ours"),
            new Name("org.java_websocket.handshake.HandshakeImpl1Client",
                    "the upgrade request we fill in"),
            new Name("org.java_websocket.handshake.HandshakeImpl1Client#<init>()",
                    "an empty request; the draft adds the websocket headers"),
            new Name("org.java_websocket.handshake.HandshakeImpl1Client#setResourceDescriptor(java.lang.String)",
                    "the request path (/<prefix>/websocket or the SockJS session path)"),
            new Name("org.java_websocket.handshake.HandshakeImpl1Client#put(java.lang.String,java.lang.String)",
                    "the Host header, and Sec-WebSocket-Extensions when compression is asked for (Draft_6455 adds "
                            + "that header only for extensions it was given, and it is given none)"),
            new Name("org.java_websocket.exceptions.InvalidHandshakeException",
                    "what startHandshake throws for a request it cannot write; becomes an IOException"),
            new Name("org.java_websocket.framing.PongFrame",
                    "the answer to a ping"),
            new Name("org.java_websocket.framing.PongFrame#<init>()",
                    "an empty pong"),
            new Name("org.java_websocket.framing.PongFrame#setPayload(java.nio.ByteBuffer)",
                    "the ping's application data, echoed (RFC 6455 section 5.5.3)"),
            new Name("org.java_websocket.framing.CloseFrame",
                    "holds the close codes"),
            new Name("org.java_websocket.framing.CloseFrame#NORMAL",
                    "1000, the code of every close we send"),
            new Name("org.java_websocket.WebSocketAdapter",
                    "base class of our listener: the ping, pong and handshake hooks we leave as they are"),
            new Name("org.java_websocket.WebSocket",
                    "the first parameter of every callback (always our own WebSocketImpl; unused)"),
            new Name("org.java_websocket.handshake.Handshakedata",
                    "a parameter of onWebsocketOpen: the server's accepted upgrade response"),
            new Name("org.java_websocket.handshake.Handshakedata#getFieldValue(java.lang.String)",
                    "the answer's Sec-WebSocket-Extensions (\"\" when absent; the draft's DefaultExtension "
                            + "accepts any answer, so DeflateNegotiation checks it)"),
            new Name("org.java_websocket.WebSocketListener#onWebsocketOpen(org.java_websocket.WebSocket,"
                    + "org.java_websocket.handshake.Handshakedata)",
                    "the upgrade succeeded; the caller learns it from isOpen() after the decode"),
            new Name("org.java_websocket.WebSocketListener#onWebsocketMessage(org.java_websocket.WebSocket,"
                    + "java.lang.String)",
                    "a text message through the library's decoder: must not happen, reported as a protocol error"),
            new Name("org.java_websocket.WebSocketListener#onWebsocketMessage(org.java_websocket.WebSocket,"
                    + "java.nio.ByteBuffer)",
                    "a binary message through the library's decoder: reported as a protocol error"),
            new Name("org.java_websocket.WebSocketListener#onWebsocketClose(org.java_websocket.WebSocket,"
                    + "int,java.lang.String,boolean)",
                    "the library closed the connection (upgrade refused, or after our close frame)"),
            new Name("org.java_websocket.WebSocketListener#onWebsocketClosing(org.java_websocket.WebSocket,"
                    + "int,java.lang.String,boolean)",
                    "a closing handshake under way; onWebsocketClose follows"),
            new Name("org.java_websocket.WebSocketListener#onWebsocketCloseInitiated(org.java_websocket.WebSocket,"
                    + "int,java.lang.String)",
                    "a close frame queued; onWebsocketClose follows"),
            new Name("org.java_websocket.WebSocketListener#onWebsocketError(org.java_websocket.WebSocket,"
                    + "java.lang.Exception)",
                    "an error; the close callback that follows carries the reason"),
            new Name("org.java_websocket.WebSocketListener#onWriteDemand(org.java_websocket.WebSocket)",
                    "bytes were queued in outQueue: the connection must be flushed"),
            new Name("org.java_websocket.WebSocketListener#getLocalSocketAddress(org.java_websocket.WebSocket)",
                    "the library's WebSocket.getLocalSocketAddress() asks the listener"),
            new Name("org.java_websocket.WebSocketListener#getRemoteSocketAddress(org.java_websocket.WebSocket)",
                    "the library's WebSocket.getRemoteSocketAddress() asks the listener"));

    /** What the library reports to the connection, in plain types. Called on the I/O thread. */
    public interface Events {

        /** Frames were queued: {@link #outgoing()} must be written. */
        void wantsFlush();

        /** The library closed the connection (upgrade refused, or our closing handshake done). */
        void closedByLibrary(int code, String reason);

        /** A message reached the library's own decoder, which must not happen after the upgrade. */
        void unexpectedMessage(String what);
    }

    private final SocketChannel channel;
    private final WebSocketImpl ws;
    /** The accepted upgrade response's Sec-WebSocket-Extensions ("" when it has none); null before. */
    private String answeredExtensions;

    /**
     * @param channel the connection's socket, connected (closed by {@link #closeConnection()})
     * @param key     its selection key (cancelled by {@link #closeConnection()})
     */
    public JavaWebSocketFence(SocketChannel channel, SelectionKey key, Events events) {
        this.channel = channel;
        this.ws = new WebSocketImpl(new Listener(events), new Draft_6455());
        ws.setChannel(channel);
        ws.setSelectionKey(key);
    }

    /**
     * Queues the upgrade request for {@code path} with {@code Host: host} and, unless null,
     * {@code Sec-WebSocket-Extensions: extensions} (then {@link Events#wantsFlush}).
     */
    public void startHandshake(String path, String host, String extensions) throws IOException {
        HandshakeImpl1Client request = new HandshakeImpl1Client();
        request.setResourceDescriptor(path);
        request.put("Host", host);
        if (extensions != null) {
            request.put("Sec-WebSocket-Extensions", extensions);
        }
        try {
            ws.startHandshake(request);
        } catch (InvalidHandshakeException e) {
            throw new IOException("handshake: " + e.getMessage(), e);
        }
    }

    /**
     * Hands bytes of the server's upgrade response, and nothing after it, to the library, which
     * checks it once complete; a refusal is reported through {@link Events#closedByLibrary}.
     */
    public void decodeUpgradeResponse(byte[] b, int start, int end) {
        ws.decode(ByteBuffer.wrap(b, start, end - start));
    }

    /** True once the upgrade response was accepted. */
    public boolean upgraded() {
        return ws.isOpen();
    }

    /**
     * The accepted upgrade response's {@code Sec-WebSocket-Extensions} value, "" when it has none;
     * null before {@link #upgraded()}. The library accepts any value (it was given no extension to
     * match), so the caller checks it against what it offered.
     */
    public String answeredExtensions() {
        return answeredExtensions;
    }

    /** Queues one text message, framed and masked; throws a RuntimeException when the library refuses. */
    public void sendText(String text) {
        ws.send(text);
    }

    /** Queues a pong carrying {@code buf[start, end)}, the ping's data. */
    public void sendPong(byte[] buf, int start, int end) {
        PongFrame pong = new PongFrame();
        pong.setPayload(ByteBuffer.wrap(Arrays.copyOfRange(buf, start, end)));
        ws.sendFrame(pong);
    }

    /** Queues a close frame with code 1000 and {@code reason}; the socket closes once it is written. */
    public void closeNormally(String reason) {
        ws.close(CloseFrame.NORMAL, reason);
    }

    /**
     * The encoded frames waiting to be written, oldest first: the writer takes buffers from the
     * head once the socket has taken all their bytes.
     */
    public Queue<ByteBuffer> outgoing() {
        return ws.outQueue;
    }

    /** True when our close frame is queued: call {@link #closeConnection()} once the queue is written. */
    public boolean closeAfterFlush() {
        return ws.isFlushAndClose();
    }

    /** Closes the socket (after our close frame went out); reported through {@link Events#closedByLibrary}. */
    public void closeConnection() {
        ws.closeConnection();
    }

    /** The library's callbacks, turned into {@link Events}. */
    private final class Listener extends WebSocketAdapter {

        private final Events events;

        Listener(Events events) {
            this.events = events;
        }

        @Override
        public void onWebsocketOpen(WebSocket conn, Handshakedata answer) {
            // The caller sees the upgrade through upgraded() once decodeUpgradeResponse returns.
            answeredExtensions = answer.getFieldValue("Sec-WebSocket-Extensions");
        }

        @Override
        public void onWebsocketMessage(WebSocket conn, String message) {
            // Not reached: frames after the upgrade never go through Java-WebSocket's decoder.
            events.unexpectedMessage("unexpected message through Java-WebSocket's receive path");
        }

        @Override
        public void onWebsocketMessage(WebSocket conn, ByteBuffer blob) {
            events.unexpectedMessage("unexpected binary message");
        }

        @Override
        public void onWebsocketClose(WebSocket conn, int code, String reason, boolean remote) {
            events.closedByLibrary(code, reason);
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
            events.wantsFlush();
        }

        @Override
        public InetSocketAddress getLocalSocketAddress(WebSocket conn) {
            return address(true);
        }

        @Override
        public InetSocketAddress getRemoteSocketAddress(WebSocket conn) {
            return address(false);
        }
    }

    /** The socket's local or remote address, or null when there is none (not connected, closed). */
    private InetSocketAddress address(boolean local) {
        try {
            SocketAddress a = channel == null ? null : local ? channel.getLocalAddress() : channel.getRemoteAddress();
            return (InetSocketAddress) a;
        } catch (IOException e) {
            return null;
        }
    }
}
