package sockbench.client.stats;

import java.util.List;

/**
 * One agent's part of a point (results/README.md, {@code levels[].points[].agents[]}).
 *
 * @param agent              agent id, {@code host:pid}
 * @param connections        its connections open at the point's start
 * @param sent               messages it sent in the window
 * @param received           copies it received inside the window
 * @param lost               copies its connections were owed (fleet's sent × its connections) that had not arrived at the drain deadline
 * @param rttSamples         own copies that came back (its RTT histogram's count)
 * @param cpuPct             its process CPU over its window, percent of one core
 * @param stealPct           hypervisor steal on its host over its window, percent; null when unreadable
 * @param clientBoundReasons why this agent could not keep up ({@code send_rate}, {@code client_cpu}); empty if it could
 */
public record AgentPointResult(String agent, int connections, long sent, long received, long lost, long rttSamples,
                               double cpuPct, Double stealPct, List<String> clientBoundReasons) {

    public AgentPointResult {
        clientBoundReasons = List.copyOf(clientBoundReasons);
    }
}
