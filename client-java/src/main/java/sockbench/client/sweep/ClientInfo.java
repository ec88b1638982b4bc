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

    /** The same client as the coordinator of these agents. */
    public ClientInfo withAgents(String runId, List<AgentRecord> list) {
        return new ClientInfo(name, version, jvmVersion, jvmVendor, transport, cpus, ioThreads, maxHeapBytes, runId, list);
    }

    /** The client with every field set by name; unset: this client's name and version, else 0, null or empty (no agents). */
    public static Builder builder() {
        return new Builder();
    }

    /** Named steps for {@link ClientInfo}; the field meanings are the record's. */
    public static final class Builder {
        private String name = NAME;
        private String version = VERSION;
        private String jvmVersion;
        private String jvmVendor;
        private String transport;
        private List<Integer> cpus = List.of();
        private int ioThreads;
        private long maxHeapBytes;
        private String fleetRunId;
        private List<AgentRecord> agents = List.of();

        private Builder() {
        }

        public Builder name(String value) {
            this.name = value;
            return this;
        }

        public Builder version(String value) {
            this.version = value;
            return this;
        }

        public Builder jvmVersion(String value) {
            this.jvmVersion = value;
            return this;
        }

        public Builder jvmVendor(String value) {
            this.jvmVendor = value;
            return this;
        }

        public Builder transport(String value) {
            this.transport = value;
            return this;
        }

        public Builder cpus(List<Integer> value) {
            this.cpus = value;
            return this;
        }

        public Builder ioThreads(int value) {
            this.ioThreads = value;
            return this;
        }

        public Builder maxHeapBytes(long value) {
            this.maxHeapBytes = value;
            return this;
        }

        public Builder fleetRunId(String value) {
            this.fleetRunId = value;
            return this;
        }

        public Builder agents(List<AgentRecord> value) {
            this.agents = value;
            return this;
        }

        public ClientInfo build() {
            return new ClientInfo(name, version, jvmVersion, jvmVendor, transport, cpus, ioThreads, maxHeapBytes, fleetRunId, agents);
        }
    }
}
