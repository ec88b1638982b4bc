package sockbench.client.stats;

/**
 * The limits that classify points.
 *
 * @param okMeanMs             a point is ok while its mean corrected RTT is below this, ms (&gt; 0; default 200)
 * @param overloadMeanMs       a mean corrected RTT at or above this makes a point overloaded, ms (default 1500)
 * @param overloadTimeoutMs    a message not back within this makes a point overloaded, ms (default 5000)
 * @param clientBoundRateRatio a point is client-bound when achieved send rate &lt; this × target (0..1, default 0.95)
 * @param clientBoundCpuRatio  ... or when client CPU ≥ this × its allowed cores (0..1, default 0.9)
 */
public record Thresholds(double okMeanMs, double overloadMeanMs, double overloadTimeoutMs,
                         double clientBoundRateRatio, double clientBoundCpuRatio) {

    /** Default of {@code okMeanMs}; an int so the CLI can name it in its option's default. */
    public static final int OK_MEAN_MS = 200;
    /** Default of {@code overloadMeanMs}. */
    public static final int OVERLOAD_MEAN_MS = 1500;
    /** Default of {@code overloadTimeoutMs}. */
    public static final int OVERLOAD_TIMEOUT_MS = 5000;

    /** Default of {@code clientBoundRateRatio}. */
    public static final double CLIENT_BOUND_RATE_RATIO = 0.95;
    /** Default of {@code clientBoundCpuRatio}. */
    public static final double CLIENT_BOUND_CPU_RATIO = 0.9;

    public static final Thresholds DEFAULT = new Thresholds(OK_MEAN_MS, OVERLOAD_MEAN_MS, OVERLOAD_TIMEOUT_MS,
            CLIENT_BOUND_RATE_RATIO, CLIENT_BOUND_CPU_RATIO);

    public Thresholds {
        if (!(okMeanMs > 0) || !(overloadMeanMs > 0) || !(overloadTimeoutMs > 0)) {
            throw new IllegalArgumentException("latency thresholds must be > 0");
        }
        if (!(clientBoundRateRatio > 0 && clientBoundRateRatio <= 1)
                || !(clientBoundCpuRatio > 0 && clientBoundCpuRatio <= 1)) {
            throw new IllegalArgumentException("client-bound ratios must be in (0, 1]");
        }
    }

    /** These latency limits with the client-bound ratios of this record. */
    public Thresholds withLatencies(double okMs, double overloadMs, double timeoutMs) {
        return new Thresholds(okMs, overloadMs, timeoutMs, clientBoundRateRatio, clientBoundCpuRatio);
    }
}
