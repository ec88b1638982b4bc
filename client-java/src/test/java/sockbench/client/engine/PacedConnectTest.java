package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import sockbench.client.stats.ConnectRecord;
import sockbench.client.testserver.BroadcastTestServer;

/**
 * A paced level opens no faster than its connect rate (spread over the I/O threads), an unpaced
 * one as fast as it can; failures are counted by a short stable reason and named in one warning.
 */
@Timeout(60)
class PacedConnectTest {

    private static Engine engine(String url, int threads) throws Exception {
        return Engine.builder(new Target(url, Transport.SOCKJS)).ioThreads(threads)
                .connectTimeoutNs(5_000_000_000L).connectConcurrency(64).start();
    }

    @Test
    void aPacedLevelTakesAtLeastItsConnectsDividedByTheRate() throws Exception {
        try (BroadcastTestServer server = BroadcastTestServer.startNew(0); Engine e = engine(server.url(), 2)) {
            long t0 = System.nanoTime();
            ConnectProgress p = e.open(IntStream.range(0, 40).boxed().toList(), 20_000_000_000L, 100);
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertEquals(40, p.connected());
            // 40 connects at 100/s: the last starts 0.39 s after the first.
            assertTrue(seconds >= 0.38, "40 paced connects took " + seconds + " s");
            assertTrue(seconds < 3, "pacing should not stall: " + seconds + " s");
            e.closeAll(500);

            long t1 = System.nanoTime();
            ConnectProgress unpaced = e.open(IntStream.range(0, 40).boxed().toList(), 20_000_000_000L, 0);
            assertEquals(40, unpaced.connected());
            assertTrue((System.nanoTime() - t1) / 1e9 < seconds, "unpaced is faster than paced");
            e.closeAll(500);
        }
    }

    @Test
    void refusedConnectionsAreCountedByTheirReason() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort(); // free again once closed: connects are refused
        }
        try (Engine e = engine("http://127.0.0.1:" + closedPort + "/broadcast", 1)) {
            ConnectProgress p = e.open(IntStream.range(0, 5).boxed().toList(), 10_000_000_000L, 0);
            assertEquals(5, p.failed());
            assertEquals(Map.of("Connection refused", 5), p.failuresByReason());
            assertEquals("level 5: 0 of 5 connections opened; 5 failed: Connection refused (5)",
                    ConnectRecord.warning(5, 5, p.connected(), p.failed(), p.failuresByReason(), p.firstError()));
        }
    }

    @Test
    void reasonsAreShortAndStable() {
        assertEquals("Connection refused", ConnectProgress.reasonKey("connect: java.net.ConnectException: Connection refused"));
        assertEquals("Too many open files",
                ConnectProgress.reasonKey("connect: java.net.SocketException: Too many open files"));
        assertEquals("timeout", ConnectProgress.reasonKey("timed out after 10000 ms"));
        assertEquals("timeout", ConnectProgress.reasonKey("level did not finish opening in time"));
        assertEquals("handshake: HTTP 503", ConnectProgress.reasonKey("handshake: HTTP 503"));
        assertEquals("handshake: HTTP 503", ConnectProgress.reasonKey(
                "websocket closed: 1002 Invalid status code received: 503 Status line: HTTP/1.1 503 Service Unavailable"));
        assertEquals("java.nio.channels.UnresolvedAddressException",
                ConnectProgress.reasonKey("connect: java.nio.channels.UnresolvedAddressException"));
    }

    @Test
    void theWarningNamesTheMostFrequentReasonFirst() {
        assertEquals("level 5000: 4990 of 5000 connections opened; 10 failed: Too many open files (7), timeout (3)",
                ConnectRecord.warning(5000, 5000, 4990, 10, Map.of("timeout", 3, "Too many open files", 7), null));
        assertEquals(null, ConnectRecord.warning(10, 10, 10, 0, Map.of(), null));
    }
}
