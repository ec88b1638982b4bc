package sockbench.client.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import sockbench.client.engine.Engine;

/**
 * The coordinator calls an agent lost only after the agent's own handling of a command could have
 * ended (with an answer or its own error): a 100,000-session run lost a live agent because a
 * close got grace + 10 s while the agent's close may wait three times for its I/O threads.
 */
class ReplyTimeoutTest {

    @Test
    void aCloseIsGivenItsGraceAndThreeIoThreadWaitsBeforeTheAgentIsLost() {
        long close = FleetLoadEngine.replyTimeoutNs(TimeUnit.MILLISECONDS.toNanos(1000), 3);
        assertTrue(close > TimeUnit.SECONDS.toNanos(1) + 3 * Engine.IO_THREAD_ANSWER_NS, "the agent's own bound comes first");
        assertEquals(TimeUnit.SECONDS.toNanos(41), close, "1 s grace + 3 × 10 s + 10 s slack");
    }

    @Test
    void aCountOfOpenSessionsOutlastsTheAgentsOneIoThreadWait() {
        assertTrue(FleetLoadEngine.replyTimeoutNs(0, 1) > Engine.IO_THREAD_ANSWER_NS);
    }
}
