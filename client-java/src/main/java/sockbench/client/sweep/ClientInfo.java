package sockbench.client.sweep;

import java.util.List;

/**
 * The load generator as recorded in results ({@code client}).
 *
 * @param name         always {@code sockbench-client-java}
 * @param version      client version
 * @param jvmVersion   {@code java.version}
 * @param jvmVendor    {@code java.vendor}
 * @param transport    {@code sockjs} or {@code raw}
 * @param cpus         CPUs the client process may run on
 * @param ioThreads    I/O threads driving the connections
 * @param maxHeapBytes JVM max heap, bytes (the coordinator's with agents)
 * @param fleetRunId   the run id agents joined on the bus; null when one process held every connection
 * @param agents       the agents that held the connections, in agent order; empty without agents
 */
public record ClientInfo(String name, String version, String jvmVersion, String jvmVendor, String transport,
                         List<Integer> cpus, int ioThreads, long maxHeapBytes, String fleetRunId,
                         List<AgentRecord> agents) {
    public static final String NAME = "sockbench-client-java";
    public static final String VERSION = "1.2.0";

    public ClientInfo {
        agents = List.copyOf(agents);
    }

    /** One process holding every connection. */
    public ClientInfo(String name, String version, String jvmVersion, String jvmVendor, String transport,
                      List<Integer> cpus, int ioThreads, long maxHeapBytes) {
        this(name, version, jvmVersion, jvmVendor, transport, cpus, ioThreads, maxHeapBytes, null, List.of());
    }

    /** The same client as the coordinator of these agents. */
    public ClientInfo withAgents(String runId, List<AgentRecord> list) {
        return new ClientInfo(name, version, jvmVersion, jvmVendor, transport, cpus, ioThreads, maxHeapBytes, runId, list);
    }
}
