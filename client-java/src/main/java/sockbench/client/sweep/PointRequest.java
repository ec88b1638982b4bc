package sockbench.client.sweep;

/**
 * One point as the sweep asks for it.
 *
 * @param rate              target rate, messages/s sent by all clients together, &gt; 0
 * @param index             the point's sequence number in the run (its payload epochs), ≥ 0
 * @param warmupS           unrecorded warm-up, seconds, ≥ 0
 * @param stepS             measured window, seconds, &gt; 0
 * @param payloadBytes      payload size, bytes, 1..65536
 * @param overloadTimeoutMs drain limit after the window, ms, &gt; 0
 * @param startNs           due time of message 0 on the caller's {@code System.nanoTime()} clock
 * @param connected         connections open when the point starts (all agents together)
 */
public record PointRequest(double rate, long index, double warmupS, double stepS, int payloadBytes,
                           double overloadTimeoutMs, long startNs, int connected) {

    /** A point request with every field set by name; unset: 0. */
    public static Builder builder() {
        return new Builder();
    }

    /** Named steps for {@link PointRequest}; the field meanings are the record's. */
    public static final class Builder {
        private double rate;
        private long index;
        private double warmupS;
        private double stepS;
        private int payloadBytes;
        private double overloadTimeoutMs;
        private long startNs;
        private int connected;

        private Builder() {
        }

        public Builder rate(double value) {
            this.rate = value;
            return this;
        }

        public Builder index(long value) {
            this.index = value;
            return this;
        }

        public Builder warmupS(double value) {
            this.warmupS = value;
            return this;
        }

        public Builder stepS(double value) {
            this.stepS = value;
            return this;
        }

        public Builder payloadBytes(int value) {
            this.payloadBytes = value;
            return this;
        }

        public Builder overloadTimeoutMs(double value) {
            this.overloadTimeoutMs = value;
            return this;
        }

        public Builder startNs(long value) {
            this.startNs = value;
            return this;
        }

        public Builder connected(int value) {
            this.connected = value;
            return this;
        }

        public PointRequest build() {
            return new PointRequest(rate, index, warmupS, stepS, payloadBytes, overloadTimeoutMs, startNs, connected);
        }
    }
}
