package sockbench.client.testserver;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.java_websocket.WebSocket;
import org.java_websocket.handshake.ClientHandshake;
import org.java_websocket.server.WebSocketServer;

/**
 * A small in-process SockJS broadcast server for the integration tests, following
 * docs/protocol.md §4.2: {@code /broadcast/<3 digits>/<id>/websocket} (framed: {@code o} on open,
 * every message sent to every session as {@code a["..."]}) and {@code /broadcast/websocket} (raw).
 * Built on Java-WebSocket's server. An optional delay holds every broadcast back, to test latency.
 */
public final class BroadcastTestServer extends WebSocketServer implements AutoCloseable {

    private static final Pattern FRAMED = Pattern.compile("/broadcast/[0-9]{3}/[^/.]+/websocket");
    private static final JsonFactory JSON = new JsonFactory();

    private final Set<WebSocket> framed = ConcurrentHashMap.newKeySet();
    private final Set<WebSocket> raw = ConcurrentHashMap.newKeySet();
    private final CountDownLatch started = new CountDownLatch(1);
    private final long delayMs;
    private final ScheduledExecutorService delayer = Executors.newSingleThreadScheduledExecutor();
    private volatile boolean dropAll;

    /** @param delayMs hold each broadcast back this long, ms (0 = deliver at once) */
    public BroadcastTestServer(long delayMs) {
        super(new InetSocketAddress("127.0.0.1", 0));
        this.delayMs = delayMs;
        setReuseAddr(true);
        setTcpNoDelay(true); // else Nagle + delayed ACK add ~40 ms to small broadcasts
    }

    public static BroadcastTestServer startNew(long delayMs) throws InterruptedException {
        BroadcastTestServer s = new BroadcastTestServer(delayMs);
        s.start();
        if (!s.started.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("test server did not start");
        }
        return s;
    }

    /** The SockJS app URL, e.g. http://127.0.0.1:PORT/broadcast. */
    public String url() {
        return "http://127.0.0.1:" + getPort() + "/broadcast";
    }

    /** From now on messages are swallowed (simulates a server that stops delivering). */
    public void dropAll() {
        dropAll = true;
    }

    /** Closes every framed session the SockJS way ({@code c[3000,"Go away!"]}), as a server does on shutdown. */
    public void goAway() {
        for (WebSocket c : framed) {
            c.send("c[3000,\"Go away!\"]");
            c.close(1000, "Go away!");
        }
    }

    @Override
    public void onStart() {
        started.countDown();
    }

    @Override
    public void onOpen(WebSocket conn, ClientHandshake handshake) {
        String path = handshake.getResourceDescriptor();
        if (FRAMED.matcher(path).matches()) {
            framed.add(conn);
            conn.send("o");
        } else if (path.equals("/broadcast/websocket")) {
            raw.add(conn);
        } else {
            conn.close(1002, "no such endpoint");
        }
    }

    @Override
    public void onClose(WebSocket conn, int code, String reason, boolean remote) {
        framed.remove(conn);
        raw.remove(conn);
    }

    @Override
    public void onMessage(WebSocket conn, String message) {
        List<String> messages = new ArrayList<>();
        if (framed.contains(conn)) {
            try (JsonParser p = JSON.createParser(message)) {
                if (p.nextToken() == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.VALUE_STRING) {
                        messages.add(p.getText());
                    }
                } else {
                    messages.add(p.getText());
                }
            } catch (IOException e) {
                conn.close(1002, "Broken JSON encoding.");
                return;
            }
        } else {
            messages.add(message);
        }
        if (dropAll) {
            return;
        }
        Runnable deliver = () -> {
            for (String m : messages) {
                String frame = "a[\"" + new String(JsonStringEncoder.getInstance().quoteAsString(m)) + "\"]";
                broadcast(frame, framed);
                broadcast(m, raw);
            }
        };
        if (delayMs > 0) {
            delayer.schedule(deliver, delayMs, TimeUnit.MILLISECONDS);
        } else {
            deliver.run();
        }
    }

    @Override
    public void onMessage(WebSocket conn, ByteBuffer message) {
        conn.close(1003, "binary not supported");
    }

    @Override
    public void onError(WebSocket conn, Exception ex) {
        // test server: connection errors end that connection only
    }

    /** Sessions currently open. */
    /** Sends one text frame with exactly these payload bytes to every session (no UTF-8 check: tests send bad ones). */
    public void sendTextBytes(byte[] payload) {
        for (WebSocket c : getConnections()) {
            org.java_websocket.framing.TextFrame f = new org.java_websocket.framing.TextFrame();
            f.setPayload(ByteBuffer.wrap(payload));
            f.setFin(true);
            c.sendFrame(f);
        }
    }

    public int sessions() {
        return framed.size() + raw.size();
    }

    @Override
    public void close() throws InterruptedException {
        delayer.shutdownNow();
        stop(1000);
    }
}
