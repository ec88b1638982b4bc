package sockbench.client.sweep;

import java.util.List;
import sockbench.client.engine.PointCounters;

/**
 * What one process that holds connections (the single client, or one agent of a fleet) measured
 * over one point, before merging.
 *
 * @param agent       agent id ({@code host:pid}); the single process's own id in local mode
 * @param host        host name of the process
 * @param counters    its counts and RTT histograms (its own copies only)
 * @param connected   its connections open at the point's start
 * @param cpuPct      its process CPU over its window, percent of one core
 * @param cpus        CPUs the process may run on (for the client-bound CPU rule)
 * @param stealPct    hypervisor steal over its window, percent of all CPU time; null when unreadable
 * @param measureCount the window's messages its connections were scheduled to send
 */
public record AgentSample(String agent, String host, PointCounters counters, int connected, double cpuPct,
                          List<Integer> cpus, Double stealPct, long measureCount) {

    public AgentSample {
        cpus = List.copyOf(cpus);
    }
}
