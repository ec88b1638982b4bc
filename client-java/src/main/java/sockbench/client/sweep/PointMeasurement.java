package sockbench.client.sweep;

import java.util.List;
import sockbench.client.engine.PointCounters;

/**
 * A point as measured by every process holding connections, merged.
 *
 * @param total        every agent's counters added (histograms merged value by value)
 * @param measureCount messages in the window's schedule (all clients)
 * @param windowS      window length, seconds
 * @param agents       each agent's own measurement, in agent order (one entry in local mode)
 * @param agentLost    the agent that died or stopped answering during the point, or null
 */
public record PointMeasurement(PointCounters total, long measureCount, double windowS, List<AgentSample> agents,
                               String agentLost) {

    public PointMeasurement {
        agents = List.copyOf(agents);
    }

    /** Adds up the agents' samples. */
    public static PointMeasurement merge(List<AgentSample> agents, long measureCount, double windowS, String agentLost) {
        PointCounters total = new PointCounters();
        for (AgentSample a : agents) {
            total.add(a.counters());
        }
        return new PointMeasurement(total, measureCount, windowS, agents, agentLost);
    }
}
