package sockbench.client.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import sockbench.client.engine.PointCounters;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.stats.AgentPointResult;
import sockbench.client.stats.Thresholds;

/** How the agents' parts of a point combine into its client-side verdicts. */
class PointMergeTest {

    private static final double RATE = 1000;
    private static final double WINDOW_S = 2;

    /** An agent that sent {@code sent} of its {@code scheduled} window messages with {@code cpuPct} CPU. */
    private static AgentSample agent(String id, String host, long scheduled, long sent, double cpuPct, List<Integer> cpus) {
        PointCounters c = new PointCounters();
        c.add(Count.SENT, sent);
        c.add(Count.SKIPPED, scheduled - sent);
        c.add(Count.ARRIVED_MEASURED, sent * 2);
        c.add(Count.RECEIVED_IN_WINDOW, sent * 2);
        for (int i = 0; i < sent; i++) {
            c.rttCorrectedMicros.recordValue(1000 + i);
        }
        return new AgentSample(id, host, c, 5, cpuPct, cpus, 0.0, scheduled);
    }

    private static List<String> reasons(AgentSample... agents) {
        PointMeasurement m = PointMeasurement.merge(List.of(agents), 2000, WINDOW_S, null);
        List<AgentPointResult> per = PointMerge.agents(m, RATE, Thresholds.DEFAULT);
        return PointMerge.clientBoundReasons(m, RATE, per, Thresholds.DEFAULT);
    }

    @Test
    void agentsThatKeptUpGiveAnUnflaggedPoint() {
        assertEquals(List.of(), reasons(agent("a:1", "a", 1000, 1000, 30, List.of(1)),
                agent("b:2", "b", 1000, 1000, 30, List.of(1))));
    }

    @Test
    void oneClientBoundAgentMarksThePoint() {
        // Agent b sent 93 % of its share: the fleet as a whole sent 96.5 %, which passes the
        // 95 % rule; b's own rule marks the point.
        List<String> r = reasons(agent("a:1", "a", 1000, 1000, 30, List.of(1)),
                agent("b:2", "b", 1000, 930, 30, List.of(1)));
        assertTrue(r.contains("send_rate"), r.toString());
        PointMeasurement m = PointMeasurement.merge(List.of(agent("a:1", "a", 1000, 1000, 30, List.of(1)),
                agent("b:2", "b", 1000, 990, 95, List.of(1))), 2000, WINDOW_S, null);
        List<AgentPointResult> per = PointMerge.agents(m, RATE, Thresholds.DEFAULT);
        assertEquals(List.of(), per.get(0).clientBoundReasons());
        assertEquals(List.of("client_cpu"), per.get(1).clientBoundReasons());
        assertEquals(List.of("client_cpu"), PointMerge.clientBoundReasons(m, RATE, per, Thresholds.DEFAULT));
    }

    @Test
    void agentsSharingACoreAreJudgedTogether() {
        // Each uses 48 % of core 1 (under the 90 % rule alone); together they fill it.
        List<String> r = reasons(agent("h:1", "h", 1000, 1000, 48, List.of(1)),
                agent("h:2", "h", 1000, 1000, 48, List.of(1)));
        assertEquals(List.of("client_cpu"), r);
        // The same load on two hosts is not client-bound.
        assertEquals(List.of(), reasons(agent("h:1", "h", 1000, 1000, 48, List.of(1)),
                agent("g:2", "g", 1000, 1000, 48, List.of(1))));
    }

    @Test
    void countsAndCpuAreSummedStealIsTheHighest() {
        AgentSample a = agent("a:1", "a", 1000, 1000, 30, List.of(1));
        AgentSample b = new AgentSample("b:2", "b", a.counters(), 5, 20, List.of(0), 7.5, 1000);
        PointMeasurement m = PointMeasurement.merge(List.of(a, b), 2000, WINDOW_S, null);
        assertEquals(2000, m.total().get(Count.SENT));
        assertEquals(2000, m.total().rttCorrectedMicros.getTotalCount());
        assertEquals(50, PointMerge.clientCpuPct(m), 1e-9);
        assertEquals(7.5, PointMerge.stealPct(m));
        List<AgentPointResult> per = PointMerge.agents(m, RATE, Thresholds.DEFAULT);
        // Each agent is owed every copy the fleet sent on each of its 5 connections.
        assertEquals(2000 * 5 - 2000, per.get(0).lost());
    }
}
