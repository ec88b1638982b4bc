package sockbench.client.bench;

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
 */
public record SweepSettings(SweepPlan plan, Thresholds thresholds, double connectTimeoutS,
                            int payloadBytes, int clientCores, SearchRules search) {

    /** Settings with the default search rules. */
    public SweepSettings(SweepPlan plan, Thresholds thresholds, double connectTimeoutS, int payloadBytes, int clientCores) {
        this(plan, thresholds, connectTimeoutS, payloadBytes, clientCores, SearchRules.DEFAULT);
    }
}
