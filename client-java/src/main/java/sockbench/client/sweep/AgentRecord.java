package sockbench.client.sweep;

import java.util.List;

/**
 * One agent of a fleet run as recorded in results ({@code client.agents.list[]}).
 *
 * @param agent              agent id, {@code host:pid}
 * @param host               host name
 * @param pid                process id on that host
 * @param cpus               CPUs the agent process may run on
 * @param ioThreads          its I/O threads
 * @param sourceAddresses    local addresses its connections bind to (empty: the kernel's choice)
 * @param connectionsMax     the most connections it held open at a point's start
 * @param clockOffsetMicros  its monotonic clock's offset to the bus clock (Redis TIME), µs, at assignment
 * @param clockRttMicros     the shortest Redis round trip of that estimate, µs (the offset is good to half of it)
 * @param clientBoundPoints  points in which this agent alone could not keep up
 * @param clientBoundReasons every reason it gave ({@code send_rate}, {@code client_cpu})
 */
public record AgentRecord(String agent, String host, long pid, List<Integer> cpus, int ioThreads,
                          List<String> sourceAddresses, int connectionsMax, long clockOffsetMicros,
                          long clockRttMicros, int clientBoundPoints,
                          List<String> clientBoundReasons) {

    public AgentRecord {
        cpus = List.copyOf(cpus);
        sourceAddresses = List.copyOf(sourceAddresses);
        clientBoundReasons = List.copyOf(clientBoundReasons);
    }
}
