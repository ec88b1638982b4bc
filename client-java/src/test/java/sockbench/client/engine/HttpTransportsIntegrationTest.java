package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.sweep.LoadEngine;
import sockbench.client.sweep.LocalLoadEngine;
import sockbench.client.sweep.PointMeasurement;
import sockbench.client.sweep.PointRequest;
import sockbench.client.testserver.RepoSockJsServer;

/**
 * The HTTP transports end to end against the repository's real servers (server-python on CPython,
 * server-node on sockjs-node 0.3.24): sessions open on each receiving transport, send with
 * xhr_send, and every copy of every measured message comes back, as on the websocket; a mix keeps
 * each transport's counts apart; a streaming response re-opened at the server's response_limit
 * loses nothing.
 */
@Timeout(90)
class HttpTransportsIntegrationTest {

    private static final LoadEngine.WindowListener NO_LISTENER = new LoadEngine.WindowListener() {
        @Override
        public void windowStarted() {
        }

        @Override
        public void windowEnded() {
        }
    };

    /** One point of {@code rate} msgs/s on {@code n} sessions of {@code mix}, payloads of {@code payloadBytes}. */
    private static PointCounters measure(RepoSockJsServer server, String mix, int n, double rate, int payloadBytes,
                                         double stepS) throws Exception {
        try (Engine engine = Engine.builder(new Target(server.url(), Transport.SOCKJS)).ioThreads(2)
                .connectTimeoutNs(5_000_000_000L).connectConcurrency(10).transports(TransportMix.parse(mix)).start()) {
            LocalLoadEngine local = LocalLoadEngine.forThisProcess(engine);
            assertEquals(n, local.open(n, 10_000_000_000L).connected(), mix + ": every session opened");
            PointMeasurement m = local.measure(new PointRequest(rate, 0, 0.2, stepS, payloadBytes, 5000,
                    System.nanoTime() + local.startLeadNs(), n), NO_LISTENER);
            assertEquals(n, local.openConnections(), mix + ": every session still open after the point");
            local.closeAll(200);
            return m.total();
        }
    }

    private static void assertEveryCopyArrived(PointCounters c, int n, String what) {
        EveryCopy.arrived(c, n, what);
        assertEquals(c.get(Count.SENT), c.rttCorrectedMicros.getTotalCount(), what + ": an RTT per own copy");
    }

    @ParameterizedTest
    @ValueSource(strings = {"xhr-streaming", "eventsource", "xhr-polling"})
    void everyCopyArrivesOverEachHttpTransportFromOurServer(String transport) throws Exception {
        try (RepoSockJsServer server = RepoSockJsServer.python(25)) {
            assertEveryCopyArrived(measure(server, transport, 4, 100, 64, 0.5), 4, transport + " (server-python)");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"xhr-streaming", "eventsource", "xhr-polling"})
    void everyCopyArrivesOverEachHttpTransportFromSockjsNode(String transport) throws Exception {
        try (RepoSockJsServer server = RepoSockJsServer.node(25)) {
            assertEveryCopyArrived(measure(server, transport, 4, 100, 64, 0.5), 4, transport + " (sockjs-node)");
        }
    }

    @Test
    void aMixKeepsEachTransportsCountsApart() throws Exception {
        try (RepoSockJsServer server = RepoSockJsServer.python(25)) {
            int n = 8;
            String spec = "websocket:2,xhr-streaming:1,eventsource:1,xhr-polling:4";
            PointCounters c = measure(server, spec, n, 200, 64, 0.5);
            assertEveryCopyArrived(c, n, "the mix");
            TransportMix mix = TransportMix.parse(spec);
            assertEquals(mix.transports().stream().map(SessionTransport::userName).toList(),
                    c.byTransport.keySet().stream().toList(), "one part per transport, in the mix's order");
            long sent = c.get(Count.SENT);
            long sentByParts = 0;
            for (Map.Entry<String, PointCounters> e : c.byTransport.entrySet()) {
                SessionTransport t = SessionTransport.byUserName(e.getKey()).orElseThrow();
                PointCounters part = e.getValue();
                int sessions = mix.sessionsOf(t, n);
                assertEquals(sent * sessions, part.get(Count.ARRIVED_MEASURED), t + ": every copy to its sessions");
                assertEquals(part.get(Count.SENT), part.get(Count.OWN_RETURNED), t + ": its senders' own copies");
                sentByParts += part.get(Count.SENT);
            }
            assertEquals(sent, sentByParts, "the parts' sends add up to the point's");
        }
    }

    @Test
    void aStreamingResponseReopenedAtTheResponseLimitLosesNothing() throws Exception {
        // 4 KiB payloads at 400 msgs/s for 1.2 s carry ~2 MB to each session: the server ends its
        // xhr_streaming and eventsource responses every 128 KiB (response_limit), about 15 times.
        try (RepoSockJsServer server = RepoSockJsServer.python(25)) {
            for (String t : new String[] {"xhr-streaming", "eventsource"}) {
                PointCounters c = measure(server, t, 4, 400, 4096, 1.0);
                assertEveryCopyArrived(c, 4, t + " across response_limit");
                assertTrue(c.get(Count.BYTES_READ) > 4 * 131072 * 4, t + ": several response limits' worth read: "
                        + c.get(Count.BYTES_READ));
                assertNotNull(c.messagesPerFrame(), t + ": its data frames were counted, as on the websocket");
            }
        }
    }
}
