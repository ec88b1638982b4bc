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

    /** An agent's record with every field set by name; unset: 0, null or empty. */
    public static Builder builder() {
        return new Builder();
    }

    /** Named steps for {@link AgentRecord}; the field meanings are the record's. */
    public static final class Builder {
        private String agent;
        private String host;
        private long pid;
        private List<Integer> cpus = List.of();
        private int ioThreads;
        private List<String> sourceAddresses = List.of();
        private int connectionsMax;
        private long clockOffsetMicros;
        private long clockRttMicros;
        private int clientBoundPoints;
        private List<String> clientBoundReasons = List.of();

        private Builder() {
        }

        public Builder agent(String value) {
            this.agent = value;
            return this;
        }

        public Builder host(String value) {
            this.host = value;
            return this;
        }

        public Builder pid(long value) {
            this.pid = value;
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

        public Builder sourceAddresses(List<String> value) {
            this.sourceAddresses = value;
            return this;
        }

        public Builder connectionsMax(int value) {
            this.connectionsMax = value;
            return this;
        }

        public Builder clockOffsetMicros(long value) {
            this.clockOffsetMicros = value;
            return this;
        }

        public Builder clockRttMicros(long value) {
            this.clockRttMicros = value;
            return this;
        }

        public Builder clientBoundPoints(int value) {
            this.clientBoundPoints = value;
            return this;
        }

        public Builder clientBoundReasons(List<String> value) {
            this.clientBoundReasons = value;
            return this;
        }

        public AgentRecord build() {
            return new AgentRecord(agent, host, pid, cpus, ioThreads, sourceAddresses, connectionsMax, clockOffsetMicros, clockRttMicros, clientBoundPoints, clientBoundReasons);
        }
    }
}
