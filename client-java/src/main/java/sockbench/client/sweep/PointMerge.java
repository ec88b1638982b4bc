package sockbench.client.sweep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.stats.AgentPointResult;
import sockbench.client.stats.PointRules;
import sockbench.client.stats.Thresholds;

/**
 * How the agents' measurements of one point combine into the point's client-side verdicts.
 * Counts and histograms add ({@link PointMeasurement#merge}); the client-bound rule is applied
 * to every agent on its own share (one agent that could not keep up marks the whole point,
 * because the server was then offered less than the target), and to every host's agents
 * together (agents sharing a core can each look idle while the core is full).
 */
public final class PointMerge {

    private PointMerge() {
    }

    /**
     * Per agent: its share of the point and its own client-bound reasons.
     *
     * @param rate target rate of the whole point, messages/s
     */
    public static List<AgentPointResult> agents(PointMeasurement m, double rate, Thresholds t) {
        List<AgentPointResult> out = new ArrayList<>();
        long fleetSent = m.total().get(Count.SENT);
        for (AgentSample a : m.agents()) {
            var c = a.counters();
            double share = m.measureCount() == 0 ? 0 : (double) a.measureCount() / m.measureCount();
            double keepable = rate * share * (1.0 - (double) c.get(Count.SKIPPED_CLOSED) / Math.max(1, a.measureCount()));
            List<String> reasons = a.measureCount() == 0 ? List.of()
                    : PointRules.clientBoundReasons(keepable, c.get(Count.SENT) / m.windowS(), a.cpuPct(),
                    a.cpus().size(), t);
            long lost = Math.max(0, fleetSent * a.connected() - c.get(Count.ARRIVED_MEASURED));
            out.add(new AgentPointResult(a.agent(), a.connected(), c.get(Count.SENT), c.get(Count.RECEIVED_IN_WINDOW),
                    lost, c.rttCorrectedMicros.getTotalCount(), a.cpuPct(), a.stealPct(), reasons));
        }
        return out;
    }

    /**
     * The point's client-bound reasons: the rule on the merged send rate and on every host's CPU
     * (its agents' CPU summed against the CPUs they may use together), plus every agent's own.
     *
     * @param keepableRate the target rate less the messages whose connection had closed, messages/s
     */
    public static List<String> clientBoundReasons(PointMeasurement m, double keepableRate, List<AgentPointResult> agents,
                                                  Thresholds t) {
        Set<String> reasons = new LinkedHashSet<>();
        Map<String, Double> cpuByHost = new LinkedHashMap<>();
        Map<String, Set<Integer>> cpusByHost = new LinkedHashMap<>();
        for (AgentSample a : m.agents()) {
            cpuByHost.merge(a.host(), a.cpuPct(), Double::sum);
            cpusByHost.computeIfAbsent(a.host(), h -> new LinkedHashSet<>()).addAll(a.cpus());
        }
        double sentPerS = m.total().get(Count.SENT) / m.windowS();
        // The share of the schedule the answering agents held (1 unless an agent was lost):
        // a lost agent's messages are missing from the counts, not unsent by the others.
        long held = m.agents().stream().mapToLong(AgentSample::measureCount).sum();
        double share = m.measureCount() == 0 ? 1 : Math.min(1.0, (double) held / m.measureCount());
        reasons.addAll(PointRules.clientBoundReasons(keepableRate * share, sentPerS, 0, 1, t));
        for (var e : cpuByHost.entrySet()) {
            reasons.addAll(PointRules.clientBoundReasons(0, 0, e.getValue(), cpusByHost.get(e.getKey()).size(), t));
        }
        for (AgentPointResult a : agents) {
            reasons.addAll(a.clientBoundReasons());
        }
        return List.copyOf(reasons);
    }

    /** Client CPU of the point: every agent's summed, percent of one core. */
    public static double clientCpuPct(PointMeasurement m) {
        return m.agents().stream().mapToDouble(AgentSample::cpuPct).sum();
    }

    /** Steal of the point: the highest any agent saw, percent; null when none could read it. */
    public static Double stealPct(PointMeasurement m) {
        Double max = null;
        for (AgentSample a : m.agents()) {
            if (a.stealPct() != null && (max == null || a.stealPct() > max)) {
                max = a.stealPct();
            }
        }
        return max;
    }
}
