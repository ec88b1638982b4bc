package sockbench.client.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;
import sockbench.client.engine.ConnectProgress;

/**
 * The warnings naming a lost agent, with the figures of the 100,000-session run whose agent was
 * lost while the sessions were closed and reopened for the confirm point: its share must not read
 * as sessions that failed to connect, nor the empty point as one measured during the loss.
 */
class AgentLossTextTest {

    private static final AgentLoss LOST_AT_CLOSE = new AgentLoss("vm:10042", "close", "no reply within 11000 ms");

    @Test
    void aReopeningThatMissedALostAgentsShareNamesTheAgentNotAConnectFailure() {
        ConnectProgress cp = ConnectProgress.of(100000, 83333, 16667, null, Map.of(AgentLoss.CONNECT_REASON, 16667));
        assertEquals("level 100000 (reopened for the confirm point at rate 1.0/s): 83333 of 100000 sessions opened; "
                        + "agent vm:10042 (16667 sessions) was lost while sessions were being closed (no reply within 11000 ms)",
                AgentLossText.connectWarning(100000, "reopened for the confirm point at rate 1.0/s", cp, LOST_AT_CLOSE));
    }

    @Test
    void realConnectFailuresBesideALostAgentAreStillCountedByReason() {
        ConnectProgress cp = ConnectProgress.of(6, 1, 5, "timeout",
                Map.of(AgentLoss.CONNECT_REASON, 3, "timeout", 2));
        AgentLoss whileOpening = new AgentLoss("vm:7", "open", "its heartbeat key expired (process gone or stalled)");
        assertEquals("level 6: 1 of 6 sessions opened; agent vm:7 (3 sessions) was lost while its sessions were being "
                        + "opened (its heartbeat key expired (process gone or stalled)); 2 failed to connect: timeout (2)",
                AgentLossText.connectWarning(6, null, cp, whileOpening));
    }

    @Test
    void aPointAfterTheLossSaysNothingWasMeasured() {
        assertEquals("level 100000, rate 1.0/s (confirm): agent vm:10042 had been lost before the point, while sessions "
                        + "were being closed (no reply within 11000 ms); nothing was measured (state agent_lost) and "
                        + "the sweep stops here",
                AgentLossText.pointWarning("level 100000, rate 1.0/s (confirm)", "vm:10042", LOST_AT_CLOSE, false));
    }

    @Test
    void aPointDuringWhichTheAgentWasLostKeepsTheOthersButGivesNoVerdict() {
        AgentLoss midPoint = new AgentLoss("vm:9", "point", "its heartbeat key expired (process gone or stalled)");
        assertEquals("level 4, rate 2.0/s (ramp): agent vm:9 died or stopped answering during the point (its heartbeat "
                        + "key expired (process gone or stalled)); the point keeps the other agents' counts but is no "
                        + "verdict on the server (state agent_lost) and the sweep stops here",
                AgentLossText.pointWarning("level 4, rate 2.0/s (ramp)", "vm:9", midPoint, true));
    }
}
