package sockbench.client.stats;

import java.util.List;

/**
 * One concurrency level (results/README.md, {@code levels[]}).
 *
 * @param concurrency   connections requested (N)
 * @param connected     connections that completed the handshake (SockJS: received {@code o})
 * @param connectErrors connections that failed or timed out while opening
 * @param connectS      time to open all connections, seconds
 * @param points        measured points in increasing target rate
 * @param saturation    the ok point with the highest received/s, or null
 * @param saturationStrict the strictly ok point with the highest received/s, or null
 * @param endReason     overloaded, saturated, max_rate, connect_failed or aborted
 * @param startRate     the target rate this level started at, messages/s (adaptive, given or the plan's);
 *                      null when not known (the level never got to measure)
 */
public record LevelResult(int concurrency, int connected, int connectErrors, double connectS,
                          List<PointResult> points, SaturationPoint saturation,
                          SaturationPoint saturationStrict, String endReason, Double startRate) {

    public LevelResult {
        points = List.copyOf(points);
    }


    /** A level with every field set by name; unset: 0, null or empty. */
    public static Builder builder() {
        return new Builder();
    }

    /** Named steps for {@link LevelResult}; the field meanings are the record's. */
    public static final class Builder {
        private int concurrency;
        private int connected;
        private int connectErrors;
        private double connectS;
        private List<PointResult> points = List.of();
        private SaturationPoint saturation;
        private SaturationPoint saturationStrict;
        private String endReason;
        private Double startRate;

        private Builder() {
        }

        public Builder concurrency(int value) {
            this.concurrency = value;
            return this;
        }

        public Builder connected(int value) {
            this.connected = value;
            return this;
        }

        public Builder connectErrors(int value) {
            this.connectErrors = value;
            return this;
        }

        public Builder connectS(double value) {
            this.connectS = value;
            return this;
        }

        public Builder points(List<PointResult> value) {
            this.points = value;
            return this;
        }

        public Builder saturation(SaturationPoint value) {
            this.saturation = value;
            return this;
        }

        public Builder saturationStrict(SaturationPoint value) {
            this.saturationStrict = value;
            return this;
        }

        public Builder endReason(String value) {
            this.endReason = value;
            return this;
        }

        public Builder startRate(Double value) {
            this.startRate = value;
            return this;
        }

        public LevelResult build() {
            return new LevelResult(concurrency, connected, connectErrors, connectS, points, saturation, saturationStrict, endReason, startRate);
        }
    }
}
