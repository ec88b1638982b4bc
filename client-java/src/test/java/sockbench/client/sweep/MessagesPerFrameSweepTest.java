package sockbench.client.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import sockbench.client.engine.Transport;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.MessagesPerFrame;
import sockbench.client.stats.PointResult;
import sockbench.client.testserver.BroadcastTestServer;

/**
 * Every measured point of a sweep carries its messages per frame: against the in-test broadcast
 * server, which frames every message alone, one message per frame on both transports, and every
 * message received in the window counted in a frame.
 */
class MessagesPerFrameSweepTest {

    private static void assertEveryPointOneMessagePerFrame(List<LevelResult> levels) {
        for (LevelResult l : levels) {
            for (PointResult p : l.points()) {
                MessagesPerFrame f = p.messagesPerFrame();
                assertNotNull(f, "N=" + l.concurrency() + " rate " + p.targetRate());
                assertEquals(p.received(), f.messages(), "the window's messages, all in frames");
                assertEquals(f.messages(), f.frames());
                assertEquals(1.0, f.mean());
                assertEquals(1, f.max());
                assertEquals(1.0, f.perConnectionMax());
            }
        }
    }

    @Test
    @Timeout(60)
    void aNaiveServersPointsShowOneMessagePerFrame() throws Exception {
        try (BroadcastTestServer server = BroadcastTestServer.startNew(0)) {
            List<LevelResult> sockjs = SweepIntegrationTest.run(server.url(), Transport.SOCKJS,
                    SweepIntegrationTest.smallSweep(List.of(3)), new ArrayList<>());
            assertEveryPointOneMessagePerFrame(sockjs);
            List<LevelResult> raw = SweepIntegrationTest.run(server.url(), Transport.RAW,
                    SweepIntegrationTest.smallSweep(List.of(3)), new ArrayList<>());
            assertEveryPointOneMessagePerFrame(raw);
        }
    }
}
