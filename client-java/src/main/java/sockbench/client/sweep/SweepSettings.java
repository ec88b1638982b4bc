package sockbench.client.sweep;

import java.util.Map;
import sockbench.client.plan.SweepPlan;
import sockbench.client.stats.SearchRules;
import sockbench.client.stats.Thresholds;

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
 */
public record SweepSettings(SweepPlan plan, Thresholds thresholds, double connectTimeoutS,
                            int payloadBytes, int clientCores, SearchRules search,
                            Map<Integer, Double> levelStartRates) {

    public SweepSettings {
        levelStartRates = Map.copyOf(levelStartRates);
    }

    /** Settings without given level start rates. */
    public SweepSettings(SweepPlan plan, Thresholds thresholds, double connectTimeoutS, int payloadBytes,
                         int clientCores, SearchRules search) {
        this(plan, thresholds, connectTimeoutS, payloadBytes, clientCores, search, Map.of());
    }

    /** Settings with the default search rules. */
    public SweepSettings(SweepPlan plan, Thresholds thresholds, double connectTimeoutS, int payloadBytes, int clientCores) {
        this(plan, thresholds, connectTimeoutS, payloadBytes, clientCores, SearchRules.DEFAULT);
    }
}
