package sockbench.client.stats;

import org.HdrHistogram.Histogram;

/**
 * The latency object of a result file: sample count and distribution in milliseconds.
 * All fields but {@code count} are null when there are no samples (a number that could
 * not be measured is null, never 0).
 *
 * @param count  number of samples
 * @param mean   arithmetic mean, ms
 * @param stddev standard deviation, ms
 * @param min    smallest sample, ms
 * @param p50    median, ms
 * @param p90    90th percentile, ms
 * @param p99    99th percentile, ms
 * @param p999   99.9th percentile, ms
 * @param max    largest sample, ms
 */
public record LatencySummary(long count, Double mean, Double stddev, Double min, Double p50,
                             Double p90, Double p99, Double p999, Double max) {

    /** Unit of the values recorded in {@link #newHistogram()} histograms: microseconds. */
    public static final double MICROS_PER_MS = 1000.0;

    /**
     * A histogram for round-trip times in microseconds, 3 significant digits, 1 µs to 1 hour
     * (the range grows automatically beyond that rather than dropping a sample).
     */
    public static Histogram newHistogram() {
        Histogram h = new Histogram(3_600_000_000L, 3);
        h.setAutoResize(true);
        return h;
    }

    /** Summarises a histogram of microsecond samples. */
    public static LatencySummary of(Histogram micros) {
        long n = micros.getTotalCount();
        if (n == 0) {
            return new LatencySummary(0, null, null, null, null, null, null, null, null);
        }
        return new LatencySummary(n,
                micros.getMean() / MICROS_PER_MS,
                micros.getStdDeviation() / MICROS_PER_MS,
                micros.getMinValue() / MICROS_PER_MS,
                micros.getValueAtPercentile(50) / MICROS_PER_MS,
                micros.getValueAtPercentile(90) / MICROS_PER_MS,
                micros.getValueAtPercentile(99) / MICROS_PER_MS,
                micros.getValueAtPercentile(99.9) / MICROS_PER_MS,
                micros.getMaxValue() / MICROS_PER_MS);
    }
}
