package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.testserver.BroadcastTestServer;

/**
 * The --validate mode against a real (in-test) server: a frame that is not valid UTF-8 closes
 * the connection that got it; the normal receive path, which skips that check by design,
 * counts the message as not ours and keeps the connection.
 */
class ValidateModeTest {

    /** a["<0xC3 0x28>"]: a broken two-byte UTF-8 sequence inside a SockJS message. */
    static final byte[] BAD = {'a', '[', '"', (byte) 0xC3, (byte) 0x28, '"', ']'};

    static int openAfterBadFrame(boolean validate, long[] malformed) throws Exception {
        try (BroadcastTestServer server = BroadcastTestServer.startNew(0);
             Engine engine = Engine.builder(new Target(server.url(), Transport.SOCKJS)).ioThreads(1)
                     .connectTimeoutNs(5_000_000_000L).connectConcurrency(10).validate(validate).start()) {
            assertEquals(2, engine.open(2, 5_000_000_000L).connected());
            long now = System.nanoTime();
            engine.start(clients -> PointSchedule.countOnly(clients, now, now + 10_000_000_000L, 1));
            server.sendTextBytes(BAD);
            server.sendTextBytes("a[\"fine\"]".getBytes(StandardCharsets.US_ASCII));
            long deadline = System.nanoTime() + 3_000_000_000L;
            while (System.nanoTime() < deadline && engine.poll().get(Count.MALFORMED) < 2) {
                Thread.sleep(10);
            }
            Thread.sleep(100);
            malformed[0] = engine.poll().get(Count.MALFORMED);
            return engine.openConnections();
        }
    }

    @Test
    @Timeout(30)
    void invalidUtf8ClosesTheConnectionOnlyInValidateMode() throws Exception {
        long[] malformed = new long[1];
        assertEquals(0, openAfterBadFrame(true, malformed), "validate: both sessions closed");
        assertTrue(malformed[0] >= 2, "counted as malformed: " + malformed[0]);
        assertEquals(2, openAfterBadFrame(false, malformed), "hot path: not checked, connections stay");
        assertTrue(malformed[0] >= 2, "both copies of the bad and the foreign message are not ours: " + malformed[0]);
    }
}
