package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.sweep.LoadEngine;
import sockbench.client.sweep.LocalLoadEngine;
import sockbench.client.sweep.PointMeasurement;
import sockbench.client.sweep.PointRequest;
import sockbench.client.testserver.RepoSockJsServer;
import sockbench.client.websocket.Compression;

/**
 * {@code --compression permessage-deflate} end to end against the repository's real servers
 * (server-python through Tornado's permessage-deflate, server-node through faye's, the sockjs-go
 * peer through gorilla/websocket's, without context takeover): every session
 * negotiates it, the servers compress every frame with the session's own context (the client's
 * decoder refuses RSV1 otherwise, so a copy that arrives was inflated), and every copy of every
 * measured message comes back, framed SockJS and raw; a server that does not accept the offer
 * fails every open, and the first error says why.
 */
@Timeout(90)
class CompressionIntegrationTest {

    private static final LoadEngine.WindowListener NO_LISTENER = new LoadEngine.WindowListener() {
        @Override
        public void windowStarted() {
        }

        @Override
        public void windowEnded() {
        }
    };

    private static final String DEFLATE = "permessage-deflate";

    /** One point of {@code rate} msgs/s on {@code n} compressed sessions; their counters. */
    private static PointCounters measure(String url, Transport transport, int n, double rate) throws Exception {
        try (Engine engine = Engine.builder(new Target(url, transport, Compression.PERMESSAGE_DEFLATE)).ioThreads(2)
                .connectTimeoutNs(5_000_000_000L).connectConcurrency(10).start()) {
            LocalLoadEngine local = LocalLoadEngine.forThisProcess(engine);
            ConnectProgress opened = local.open(n, 10_000_000_000L);
            assertEquals(n, opened.connected(), "every session opened; first error: " + opened.firstError());
            PointMeasurement m = local.measure(new PointRequest(rate, 0, 0.2, 0.5, 256, 5000,
                    System.nanoTime() + local.startLeadNs(), n), NO_LISTENER);
            assertEquals(n, local.openConnections(), "every session still open after the point");
            local.closeAll(200);
            return m.total();
        }
    }

    private static void assertEveryCopyArrived(PointCounters c, int n, String what) {
        EveryCopy.arrived(c, n, what);
        assertTrue(c.get(Count.INFLATED_BYTES) > 0 && c.get(Count.BYTES_READ) > 0,
                what + ": the point counted what it read and what that inflated to");
    }

    @Test
    void ourServerCompressesAndEveryCopyArrives() throws Exception {
        try (RepoSockJsServer server = RepoSockJsServer.python(25, "--compression", DEFLATE)) {
            assertTrue(server.readyLine().contains(" compression=permessage-deflate"), server.readyLine());
            assertEveryCopyArrived(measure(server.url(), Transport.SOCKJS, 6, 200), 6, "server-python, SockJS");
            assertEveryCopyArrived(measure(server.url(), Transport.RAW, 4, 200), 4, "server-python, raw websocket");
        }
    }

    @Test
    void sockjsNodeCompressesAndEveryCopyArrives() throws Exception {
        try (RepoSockJsServer server = RepoSockJsServer.node(25, "--compression", DEFLATE)) {
            assertTrue(server.readyLine().contains(" compression=permessage-deflate"), server.readyLine());
            assertEveryCopyArrived(measure(server.url(), Transport.SOCKJS, 6, 200), 6, "sockjs-node, SockJS");
        }
    }

    @Test
    void sockjsGoCompressesEachMessageOnItsOwnAndEveryCopyArrives() throws Exception {
        // gorilla/websocket answers server_no_context_takeover: the client resets its inflater per message.
        try (RepoSockJsServer server = RepoSockJsServer.sockjsGo(25, "--compression", DEFLATE)) {
            assertTrue(server.readyLine().contains(" compression=permessage-deflate"), server.readyLine());
            assertEveryCopyArrived(measure(server.url(), Transport.SOCKJS, 6, 200), 6, "sockjs-go, SockJS");
        }
    }

    @Test
    void aServerThatDoesNotAcceptTheOfferFailsEveryOpenAndSaysWhy() throws Exception {
        try (RepoSockJsServer server = RepoSockJsServer.python(25);
             Engine engine = Engine.builder(new Target(server.url(), Transport.SOCKJS, Compression.PERMESSAGE_DEFLATE))
                     .ioThreads(1).connectTimeoutNs(5_000_000_000L).connectConcurrency(10).start()) {
            ConnectProgress opened = LocalLoadEngine.forThisProcess(engine).open(3, 10_000_000_000L);
            assertEquals(0, opened.connected());
            assertEquals(3, opened.failed());
            assertNotNull(opened.firstError());
            assertTrue(opened.firstError().contains("did not accept permessage-deflate"), opened.firstError());
        }
    }
}
