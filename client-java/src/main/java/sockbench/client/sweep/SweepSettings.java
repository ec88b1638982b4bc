package sockbench.client.sweep;

import java.util.Map;
import sockbench.client.engine.SlowReaders;
import sockbench.client.engine.TransportMix;
import sockbench.client.plan.SweepPlan;
import sockbench.client.stats.SearchRules;
import sockbench.client.stats.Thresholds;
import sockbench.client.websocket.Compression;

/**
 * Everything that shapes the sweep's measurements (recorded as {@code parameters} in results).
 *
 * @param plan             levels and ramp
 * @param thresholds       state and client-bound limits
 * @param connectTimeoutS  per-connection connect timeout, seconds, &gt; 0
 * @param payloadBytes     size of each payload string, bytes (characters, all ASCII), ≥ 1
 * @param clientCores      number of CPUs the client may use (for the client-bound CPU rule), ≥ 1
 * @param search           confirm/refine search and the strict rules
 * @param levelStartRates  first target rate of some levels ({@code --level-start-rates}), messages/s;
 *                         overrides the plan's adaptive start for those levels; may be empty
 * @param clientCeilings   the client's measured receive ceiling for some levels ({@code --client-ceilings}),
 *                         messages/s received by all connections together, each &gt; 0; a level listed here
 *                         ends at its ceiling / N instead of the plan's max rate ({@link LevelCap}); may be empty
 * @param maxRateGiven     true when the user gave the max rate ({@code --max-rate}): it then caps every
 *                         level, ceiling or not
 * @param transports       which SockJS transport each session uses ({@code --transports})
 * @param compression      what the websocket upgrades offered ({@code --compression})
 * @param slowReaders      which sessions read at most a given rate ({@code --slow-clients}; {@link SlowReaders#NONE}: none)
 */
public record SweepSettings(SweepPlan plan, Thresholds thresholds, double connectTimeoutS,
                            int payloadBytes, int clientCores, SearchRules search,
                            Map<Integer, Double> levelStartRates, Map<Integer, Double> clientCeilings,
                            boolean maxRateGiven, TransportMix transports, Compression compression,
                            SlowReaders slowReaders) {

    public SweepSettings {
        if (!(connectTimeoutS > 0) || payloadBytes < 1 || clientCores < 1) {
            throw new IllegalArgumentException("connect timeout must be > 0, payload bytes and client cores >= 1");
        }
        levelStartRates = Map.copyOf(levelStartRates);
        clientCeilings = Map.copyOf(clientCeilings);
    }

    /** Where level {@code n}'s climb ends if the server never gets there ({@link LevelCap}). */
    public LevelCap capFor(int n) {
        return LevelCap.of(plan, maxRateGiven, clientCeilings, n);
    }

    /** Settings for {@code plan}, each set by name; thresholds and search rules default to theirs, start rates and ceilings to none. */
    public static Builder builder(SweepPlan plan) {
        return new Builder(plan);
    }

    /** Named steps for {@link SweepSettings}; connect timeout, payload size and client cores must be set. */
    public static final class Builder {
        private final SweepPlan plan;
        private Thresholds thresholds = Thresholds.DEFAULT;
        private double connectTimeoutS = Double.NaN;
        private int payloadBytes;
        private int clientCores;
        private SearchRules search = SearchRules.DEFAULT;
        private Map<Integer, Double> levelStartRates = Map.of();
        private Map<Integer, Double> clientCeilings = Map.of();
        private boolean maxRateGiven;
        private TransportMix transports = TransportMix.WEBSOCKET_ONLY;
        private Compression compression = Compression.NONE;
        private SlowReaders slowReaders = SlowReaders.NONE;

        private Builder(SweepPlan plan) {
            this.plan = plan;
        }

        public Builder thresholds(Thresholds t) {
            this.thresholds = t;
            return this;
        }

        public Builder connectTimeoutS(double seconds) {
            this.connectTimeoutS = seconds;
            return this;
        }

        public Builder payloadBytes(int bytes) {
            this.payloadBytes = bytes;
            return this;
        }

        public Builder clientCores(int cores) {
            this.clientCores = cores;
            return this;
        }

        public Builder search(SearchRules rules) {
            this.search = rules;
            return this;
        }

        public Builder levelStartRates(Map<Integer, Double> rates) {
            this.levelStartRates = rates;
            return this;
        }

        /** The client's ceiling by level, messages/s received ({@code --client-ceilings}); default none. */
        public Builder clientCeilings(Map<Integer, Double> ceilingsPerS) {
            this.clientCeilings = ceilingsPerS;
            return this;
        }

        /** True when {@code --max-rate} was given (it wins over a ceiling); default false. */
        public Builder maxRateGiven(boolean given) {
            this.maxRateGiven = given;
            return this;
        }

        /** Which transport each session uses; default every session on the websocket. */
        public Builder transports(TransportMix mix) {
            this.transports = mix;
            return this;
        }

        /** What the websocket upgrades offer; default no extension. */
        public Builder compression(Compression c) {
            this.compression = c;
            return this;
        }

        /** Which sessions read slowly; default none. */
        public Builder slowReaders(SlowReaders slow) {
            this.slowReaders = slow;
            return this;
        }

        public SweepSettings build() {
            return new SweepSettings(plan, thresholds, connectTimeoutS, payloadBytes, clientCores, search, levelStartRates,
                    clientCeilings, maxRateGiven, transports, compression, slowReaders);
        }
    }
}
