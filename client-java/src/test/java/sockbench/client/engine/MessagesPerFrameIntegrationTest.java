package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.firehose.FirehoseCount;
import sockbench.client.firehose.FirehoseSender;
import sockbench.client.firehose.ServingSenders;
import sockbench.client.stats.MessagesPerFrame;
import sockbench.client.sweep.LoadEngine;
import sockbench.client.sweep.LocalLoadEngine;
import sockbench.client.sweep.PointMeasurement;
import sockbench.client.sweep.PointRequest;
import sockbench.client.testserver.BroadcastTestServer;

/**
 * Messages per frame through the whole receive path (socket read, websocket decode, SockJS scan,
 * accounting) against real loopback servers: the in-test broadcast server frames every message
 * alone (naive), on both transports; the firehose sender writes {@code a[...]} frames of a fixed
 * size, as a coalescing server does.
 */
@Timeout(60)
class MessagesPerFrameIntegrationTest {

    private static final LoadEngine.WindowListener NO_LISTENER = new LoadEngine.WindowListener() {
        @Override
        public void windowStarted() {
        }

        @Override
        public void windowEnded() {
        }
    };

    /** One point of {@code rate} msgs/s on {@code n} connections against the broadcast server, as the sweep measures it. */
    private static PointCounters measureNaive(Transport transport, int n, double rate) throws Exception {
        try (BroadcastTestServer server = BroadcastTestServer.startNew(0);
             Engine engine = Engine.builder(new Target(server.url(), transport)).ioThreads(2)
                     .connectTimeoutNs(5_000_000_000L).connectConcurrency(10).start()) {
            LocalLoadEngine local = LocalLoadEngine.forThisProcess(engine);
            assertEquals(n, local.open(n, 10_000_000_000L).connected());
            PointMeasurement m = local.measure(new PointRequest(rate, 0, 0.2, 0.5, 64, 5000,
                    System.nanoTime() + local.startLeadNs(), n), NO_LISTENER);
            return m.total();
        }
    }

    private static void assertOneMessagePerFrame(PointCounters c, int n) {
        MessagesPerFrame f = c.messagesPerFrame();
        assertNotNull(f, "frames arrived in the window");
        assertEquals(c.get(Count.RECEIVED_IN_WINDOW), f.messages(), "every message in the window came in a frame");
        assertEquals(f.messages(), f.frames(), "one frame per message");
        assertEquals(1.0, f.mean());
        assertEquals(1, f.max());
        assertEquals(1.0, f.perConnectionMin());
        assertEquals(1.0, f.perConnectionMax());
        assertTrue(f.frames() >= n * 40L, "about rate × window × n copies: " + f.frames());
    }

    @Test
    void aNaiveSockJsServerSendsOneMessagePerFrame() throws Exception {
        assertOneMessagePerFrame(measureNaive(Transport.SOCKJS, 4, 100), 4);
    }

    @Test
    void rawWebsocketMessagesAreEachTheirOwnFrame() throws Exception {
        assertOneMessagePerFrame(measureNaive(Transport.RAW, 4, 100), 4);
    }

    /** Everything the client counts from a firehose sender writing frames of {@code perFrame} messages. */
    private static PointCounters measureFirehose(int perFrame) throws Exception {
        try (FirehoseSender sender = ServingSenders.serving(perFrame, 64)) {
            String url = "http://127.0.0.1:" + sender.port() + "/broadcast";
            try (Engine engine = Engine.builder(new Target(url, Transport.SOCKJS)).ioThreads(2)
                    .connectTimeoutNs(5_000_000_000L).connectConcurrency(10).start()) {
                assertEquals(5, engine.open(5, 10_000_000_000L).connected());
                // The sender starts writing 0.5 s after the last connection arrived.
                long start = System.nanoTime() + 800_000_000L;
                long end = start + 300_000_000L;
                engine.start(clients -> PointSchedule.countOnly(clients, start, end, FirehoseCount.EPOCH));
                Thread.sleep((end - System.nanoTime()) / 1_000_000 + 50);
                PointCounters c = engine.finish();
                engine.closeAll(200);
                return c;
            }
        }
    }

    @Test
    void aCoalescingSenderShowsItsFrameSize() throws Exception {
        MessagesPerFrame batched = measureFirehose(3).messagesPerFrame();
        assertNotNull(batched);
        assertEquals(3.0, batched.mean(), "every frame a[\"m1\",\"m2\",\"m3\"]");
        assertEquals(3 * batched.frames(), batched.messages());
        assertEquals(3, batched.p50());
        assertEquals(3, batched.max());
        assertEquals(3.0, batched.perConnectionMin());
        assertEquals(3.0, batched.perConnectionMax());

        MessagesPerFrame single = measureFirehose(1).messagesPerFrame();
        assertNotNull(single);
        assertEquals(1.0, single.mean());
        assertEquals(1, single.max());
    }
}
