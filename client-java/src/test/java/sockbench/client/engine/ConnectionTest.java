package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import sockbench.client.websocket.Compression;
import sockbench.client.websocket.ServerUpgrade;

/**
 * One connection's state machine on a real loopback socket, the server's side played by the
 * test: the upgrade response and the frames behind it are split right wherever the reads break
 * (the response to Java-WebSocket, the rest to our decoder), a SockJS session opens on {@code o}
 * and a raw one on the upgrade, a refused upgrade fails the open, and a server's close frame is
 * answered before the socket closes.
 */
@Timeout(60)
class ConnectionTest {

    /** Records what the connection tells its loop, one readable line per event. */
    static final class Recorder implements ConnectionEvents {
        final List<String> events = new ArrayList<>();
        int flushRequests;

        @Override
        public void opened(Connection c) {
            events.add("opened");
        }

        @Override
        public void openFailed(Connection c, String reason) {
            events.add("openFailed");
        }

        @Override
        public void closed(Connection c, String reason) {
            events.add("closed: " + reason);
        }

        @Override
        public void protocolError(Connection c, String reason) {
            events.add("protocolError");
        }

        @Override
        public void wantsFlush(Connection c) {
            flushRequests++;
        }

        @Override
        public void message(Connection c, byte[] buf, int start, int end) {
            events.add("message: " + new String(buf, start, end - start, StandardCharsets.US_ASCII));
        }
    }

    private ServerSocketChannel listener;
    private Selector selector;
    private final List<SocketChannel> peers = new ArrayList<>();

    @BeforeEach
    void listen() throws Exception {
        listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress("127.0.0.1", 0));
        selector = Selector.open();
    }

    @AfterEach
    void close() throws Exception {
        for (SocketChannel p : peers) {
            p.close();
        }
        selector.close();
        listener.close();
    }

    /** A connection that has sent its upgrade request, and the request as the server read it. */
    record Handshaking(WsConnection connection, Recorder events, SocketChannel peer, String request) {
    }

    Handshaking handshaking(Transport transport) throws Exception {
        Recorder events = new Recorder();
        WsConnection c = new WsConnection(events, transport, 7, null, false);
        InetSocketAddress address = (InetSocketAddress) listener.getLocalAddress();
        String host = "127.0.0.1:" + address.getPort();
        c.connect(selector, address, null, Long.MAX_VALUE, "/broadcast/websocket", host, Compression.NONE);
        SocketChannel peer = listener.accept();
        peers.add(peer);
        while (c.state() == Connection.State.CONNECTING) {
            selector.select(100);
            for (SelectionKey k : selector.selectedKeys()) {
                if (k.attachment() == c && k.isValid() && k.isConnectable()) {
                    c.connectReady();
                }
            }
            selector.selectedKeys().clear();
        }
        assertEquals(Connection.State.HANDSHAKING, c.state());
        assertTrue(events.flushRequests > 0, "the request is queued for the loop's flush");
        c.flush(new ByteBuffer[4]);
        return new Handshaking(c, events, peer, new String(readUntilBlankLine(peer), StandardCharsets.US_ASCII));
    }

    static byte[] readUntilBlankLine(SocketChannel peer) throws Exception {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        ByteBuffer one = ByteBuffer.allocate(1);
        while (!got.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            one.clear();
            if (peer.read(one) < 0) {
                break;
            }
            got.write(one.array(), 0, one.position());
        }
        return got.toByteArray();
    }

    /** An unmasked server text frame (short payloads only). */
    static String textFrame(String payload) {
        return "\u0081" + (char) payload.length() + payload;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * Feeds {@code b[from, to)} as one read, then flushes if the connection asked to, as its loop
     * would (and as the loop, never an empty read).
     */
    static void receive(Handshaking h, byte[] b, int from, int to) {
        if (from == to) {
            return;
        }
        int asked = h.events().flushRequests;
        h.connection().receive(b, from, to);
        if (h.events().flushRequests > asked) {
            h.connection().flush(new ByteBuffer[4]);
        }
    }

    @Test
    void aSockJsSessionOpensOnItsOFrameWhereverTheReadsBreak() throws Exception {
        // Every response has the same length: Sec-WebSocket-Accept is always 28 characters.
        int length = bytes(ServerUpgrade.response("Sec-WebSocket-Key: k\r\n", true) + textFrame("o")
                + textFrame("a[\"3:7:1\",\"x\"]")).length;
        for (int cut = 0; cut <= length; cut++) {
            Handshaking h = handshaking(Transport.SOCKJS);
            byte[] stream = bytes(ServerUpgrade.response(h.request(), true) + textFrame("o") + textFrame("a[\"3:7:1\",\"x\"]"));
            receive(h, stream, 0, cut);
            receive(h, stream, cut, stream.length);
            assertEquals(List.of("opened", "message: 3:7:1", "message: x"), h.events().events, "reads split at " + cut);
            assertTrue(h.connection().isOpen());
            h.connection().close(true);
            h.peer().close();
        }
    }

    @Test
    void aSockJsSessionWaitsForItsOFrameAfterTheUpgrade() throws Exception {
        Handshaking h = handshaking(Transport.SOCKJS);
        byte[] response = bytes(ServerUpgrade.response(h.request(), true));
        receive(h, response, 0, response.length);
        assertEquals(Connection.State.UPGRADED, h.connection().state());
        assertTrue(h.connection().isOpening());
        byte[] o = bytes(textFrame("o"));
        receive(h, o, 0, o.length);
        assertEquals(List.of("opened"), h.events().events);
    }

    @Test
    void aRawConnectionOpensOnTheUpgradeAndEveryTextMessageIsAMessage() throws Exception {
        Handshaking h = handshaking(Transport.RAW);
        byte[] stream = bytes(ServerUpgrade.response(h.request(), true) + textFrame("3:7:1") + textFrame("o"));
        receive(h, stream, 0, stream.length);
        assertEquals(List.of("opened", "message: 3:7:1", "message: o"), h.events().events);
    }

    @Test
    void aRefusedUpgradeFailsTheOpen() throws Exception {
        Handshaking h = handshaking(Transport.SOCKJS);
        byte[] stream = bytes(ServerUpgrade.response(h.request(), false) + textFrame("o"));
        receive(h, stream, 0, stream.length);
        assertEquals(List.of("openFailed"), h.events().events);
        assertEquals(Connection.State.CLOSED, h.connection().state());
    }

    @Test
    void aServerCloseFrameIsAnsweredThenTheConnectionCloses() throws Exception {
        Handshaking h = handshaking(Transport.RAW);
        byte[] stream = bytes(ServerUpgrade.response(h.request(), true) + "\u0088\u0005\u0003\u00e8bye");
        receive(h, stream, 0, stream.length);
        // The library reports the close first, with our reply's code: the server's reason is not in the line.
        assertEquals(2, h.events().events.size(), h.events().events.toString());
        assertEquals("opened", h.events().events.get(0));
        assertTrue(h.events().events.get(1).startsWith("closed: websocket closed: 1000"), h.events().events.toString());
        assertEquals(Connection.State.CLOSED, h.connection().state());
        ByteBuffer reply = ByteBuffer.allocate(64);
        while (h.peer().read(reply) >= 0) {
            // read the reply up to the close of the socket
        }
        reply.flip();
        assertEquals(6 + 2, reply.remaining(), "one masked close frame with code 1000 and no reason");
        assertEquals(0x88, reply.get(0) & 0xFF);
        byte[] code = {(byte) (reply.get(6) ^ reply.get(2)), (byte) (reply.get(7) ^ reply.get(3))};
        assertArrayEquals(new byte[] {0x03, (byte) 0xe8}, code);
    }
}
