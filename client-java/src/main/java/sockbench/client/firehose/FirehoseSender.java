package sockbench.client.firehose;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Iterator;
import sockbench.client.engine.Payload;

/**
 * The firehose self-test's sender: a minimal single-threaded loopback WebSocket server that
 * accepts the client's framed SockJS connections, answers the upgrade, sends {@code o}, then
 * writes pre-built {@code a[...]} frames to every connection as fast as the sockets take them.
 * It exists to find the client's receive ceiling, so it does as little work per byte as
 * possible: one pre-built block of frames, written cyclically from a per-connection position.
 *
 * <p>Not a SockJS server: it ignores everything the client sends (the client sends nothing
 * in this test).
 */
public final class FirehoseSender implements AutoCloseable {

    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    /** The pre-built block: large, so each write syscall hands the kernel up to this much. */
    private static final int BLOCK_TARGET_BYTES = 256 * 1024;

    private final ServerSocketChannel server;
    private final Selector selector;
    private final ByteBuffer block;
    private final ByteBuffer readBuffer = ByteBuffer.allocate(16 * 1024);
    private volatile boolean running = true;
    /**
     * Streaming to new connections starts only once no connection has arrived for this long:
     * a sender busy streaming to the first connections would otherwise starve the handshakes of
     * the rest (one thread, one core), and the test would measure connection setup, not receiving.
     */
    private static final long QUIET_NS = 500_000_000L;
    private long lastAcceptNs = System.nanoTime();
    private final java.util.List<SelectionKey> waiting = new java.util.ArrayList<>();

    /** Per-connection state: handshake bytes so far, then the position in the block. */
    private static final class Peer {
        final StringBuilder request = new StringBuilder();
        ByteBuffer pending;     // handshake response + "o" frame, until written
        ByteBuffer cursor;      // view of the block once streaming
    }

    /** SO_SNDBUF of each connection, bytes; 0 = the kernel's autotuning. */
    private final int sendBufferBytes;

    /**
     * @param port             TCP port on 127.0.0.1, 0 for any
     * @param messagesPerFrame messages in each {@code a[...]} frame, ≥ 1
     * @param payloadBytes     characters per message payload, ≥ 1
     */
    public FirehoseSender(int port, int messagesPerFrame, int payloadBytes) throws IOException {
        this(port, messagesPerFrame, payloadBytes, 0);
    }

    /** A send buffer size the options accept, KiB: 0 (kernel autotuning) or 4..65536. */
    public static boolean validSendBufferKib(int kib) {
        return kib == 0 || (kib >= 4 && kib <= 65536);
    }

    /**
     * @param sendBufferBytes SO_SNDBUF per connection, bytes, 0 (kernel autotuning) or 4096..67108864.
     *                        A small send buffer keeps the data not yet sent in this process, so
     *                        the kernel's transmit work runs in its write calls on the sender's core
     *                        instead of in the softirq of the reader's window updates on the
     *                        client's core (see client-java/README.md, the firehose profile).
     */
    public FirehoseSender(int port, int messagesPerFrame, int payloadBytes, int sendBufferBytes) throws IOException {
        this.sendBufferBytes = sendBufferBytes;
        this.block = buildBlock(messagesPerFrame, payloadBytes);
        this.selector = Selector.open();
        this.server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress("127.0.0.1", port), 4096);
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
    }

    public int port() {
        return server.socket().getLocalPort();
    }

    /** A block of whole WebSocket text frames, each one {@code a[...]} frame, about 256 KiB in all. */
    static ByteBuffer buildBlock(int messagesPerFrame, int payloadBytes) {
        StringBuilder frame = new StringBuilder("a[");
        for (int i = 0; i < messagesPerFrame; i++) {
            if (i > 0) {
                frame.append(',');
            }
            frame.append('"');
            // A payload in the client's format, of the epoch the count attributes, from a client
            // id no connection has: the client handles it exactly as another client's copy of a
            // measured message in a real run.
            Payload.append(frame, FirehoseCount.EPOCH, 999_999, i, 0, 0, payloadBytes);
            frame.append('"');
        }
        frame.append(']');
        byte[] one = wsFrame(frame.toString().getBytes(StandardCharsets.UTF_8));
        int count = Math.max(1, BLOCK_TARGET_BYTES / one.length);
        ByteBuffer b = ByteBuffer.allocateDirect(count * one.length);
        for (int i = 0; i < count; i++) {
            b.put(one);
        }
        b.flip();
        return b.asReadOnlyBuffer();
    }

    /** An unmasked server-to-client text frame. */
    static byte[] wsFrame(byte[] payload) {
        int n = payload.length;
        int header = n < 126 ? 2 : n < 65536 ? 4 : 10;
        ByteBuffer b = ByteBuffer.allocate(header + n);
        b.put((byte) 0x81);
        if (n < 126) {
            b.put((byte) n);
        } else if (n < 65536) {
            b.put((byte) 126).putShort((short) n);
        } else {
            b.put((byte) 127).putLong(n);
        }
        b.put(payload);
        return b.array();
    }

    /** Serves until {@link #close()}. */
    public void serve() throws IOException {
        while (running) {
            selector.select(100);
            if (!waiting.isEmpty() && System.nanoTime() - lastAcceptNs >= QUIET_NS) {
                for (SelectionKey k : waiting) {
                    if (k.isValid()) {
                        k.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    }
                }
                waiting.clear();
            }
            Iterator<SelectionKey> it = selector.selectedKeys().iterator();
            while (it.hasNext()) {
                SelectionKey key = it.next();
                it.remove();
                try {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept();
                        continue;
                    }
                    Peer peer = (Peer) key.attachment();
                    if (key.isReadable()) {
                        read(key, peer);
                    }
                    if (key.isValid() && key.isWritable()) {
                        write(key, peer);
                    }
                } catch (IOException e) {
                    drop(key);
                }
            }
        }
        selector.close();
        server.close();
    }

    private void accept() throws IOException {
        SocketChannel ch;
        while ((ch = server.accept()) != null) {
            lastAcceptNs = System.nanoTime();
            ch.configureBlocking(false);
            if (sendBufferBytes > 0) {
                ch.setOption(java.net.StandardSocketOptions.SO_SNDBUF, sendBufferBytes);
            }
            ch.register(selector, SelectionKey.OP_READ, new Peer());
        }
    }

    private void read(SelectionKey key, Peer peer) throws IOException {
        SocketChannel ch = (SocketChannel) key.channel();
        readBuffer.clear();
        int n = ch.read(readBuffer);
        if (n < 0) {
            drop(key);
            return;
        }
        if (peer.cursor != null || peer.pending != null) {
            return; // streaming: whatever the client sends is ignored
        }
        peer.request.append(new String(readBuffer.array(), 0, n, StandardCharsets.ISO_8859_1));
        int end = peer.request.indexOf("\r\n\r\n");
        if (end < 0) {
            if (peer.request.length() > 16 * 1024) {
                drop(key);
            }
            return;
        }
        String wsKey = null;
        for (String line : peer.request.substring(0, end).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Sec-WebSocket-Key")) {
                wsKey = line.substring(colon + 1).trim();
            }
        }
        if (wsKey == null) {
            drop(key);
            return;
        }
        String response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: " + acceptKey(wsKey) + "\r\n\r\n";
        byte[] head = response.getBytes(StandardCharsets.ISO_8859_1);
        byte[] open = wsFrame(new byte[] {'o'});
        peer.pending = ByteBuffer.allocate(head.length + open.length).put(head).put(open).flip();
        key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
    }

    private void write(SelectionKey key, Peer peer) throws IOException {
        SocketChannel ch = (SocketChannel) key.channel();
        if (peer.pending != null) {
            ch.write(peer.pending);
            if (peer.pending.hasRemaining()) {
                return;
            }
            peer.pending = null;
            peer.cursor = block.duplicate();
            if (System.nanoTime() - lastAcceptNs < QUIET_NS) {
                key.interestOps(SelectionKey.OP_READ); // wait until connections stop arriving
                waiting.add(key);
                return;
            }
        }
        // Fill the socket buffer; the block is whole frames, so wrapping keeps the stream valid.
        for (int i = 0; i < 64; i++) {
            if (!peer.cursor.hasRemaining()) {
                peer.cursor.rewind();
            }
            if (ch.write(peer.cursor) == 0) {
                return;
            }
        }
    }

    private static void drop(SelectionKey key) {
        key.cancel();
        try {
            key.channel().close();
        } catch (IOException ignored) {
            // gone
        }
    }

    static String acceptKey(String key) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.ISO_8859_1));
            return Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        running = false;
        selector.wakeup();
    }
}
