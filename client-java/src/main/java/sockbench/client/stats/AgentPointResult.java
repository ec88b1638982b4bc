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

    /** An agent's part with every field set by name; unset: 0, null or empty. */
    public static Builder builder() {
        return new Builder();
    }

    /** Named steps for {@link AgentPointResult}; the field meanings are the record's. */
    public static final class Builder {
        private String agent;
        private int connections;
        private long sent;
        private long received;
        private long lost;
        private long rttSamples;
        private double cpuPct;
        private Double stealPct;
        private List<String> clientBoundReasons = List.of();

        private Builder() {
        }

        public Builder agent(String value) {
            this.agent = value;
            return this;
        }

        public Builder connections(int value) {
            this.connections = value;
            return this;
        }

        public Builder sent(long value) {
            this.sent = value;
            return this;
        }

        public Builder received(long value) {
            this.received = value;
            return this;
        }

        public Builder lost(long value) {
            this.lost = value;
            return this;
        }

        public Builder rttSamples(long value) {
            this.rttSamples = value;
            return this;
        }

        public Builder cpuPct(double value) {
            this.cpuPct = value;
            return this;
        }

        public Builder stealPct(Double value) {
            this.stealPct = value;
            return this;
        }

        public Builder clientBoundReasons(List<String> value) {
            this.clientBoundReasons = value;
            return this;
        }

        public AgentPointResult build() {
            return new AgentPointResult(agent, connections, sent, received, lost, rttSamples, cpuPct, stealPct, clientBoundReasons);
        }
    }
}
