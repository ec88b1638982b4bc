package sockbench.client.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import sockbench.client.stats.Thresholds;

/** The latency limits that classify points; defaults and the client-bound ratios are Thresholds.DEFAULT's. */
final class ThresholdOptions {

    @Option(names = "--ok-mean-ms", paramLabel = "MS", defaultValue = "" + Thresholds.OK_MEAN_MS,
            description = "A point is ok while its mean corrected RTT is below this, ms. Default: ${DEFAULT-VALUE}.")
    double okMeanMs;

    @Option(names = "--overload-mean-ms", paramLabel = "MS", defaultValue = "" + Thresholds.OVERLOAD_MEAN_MS,
            description = "Mean corrected RTT at or above this makes a point overloaded, ms. Default: ${DEFAULT-VALUE}.")
    double overloadMeanMs;

    @Option(names = "--overload-timeout-ms", paramLabel = "MS", defaultValue = "" + Thresholds.OVERLOAD_TIMEOUT_MS,
            description = "A message not back within this makes a point overloaded, ms. Default: ${DEFAULT-VALUE}.")
    double overloadTimeoutMs;

    Thresholds thresholds(CommandSpec spec) {
        return Usage.parse(spec, null, () -> Thresholds.DEFAULT.withLatencies(okMeanMs, overloadMeanMs, overloadTimeoutMs));
    }
}
