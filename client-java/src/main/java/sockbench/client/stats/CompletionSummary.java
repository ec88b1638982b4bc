package sockbench.client.stats;

import org.HdrHistogram.Histogram;

/**
 * {@code completion_ms} of an all-copies point: per measured message, its scheduled send time to
 * the arrival of its LAST copy (the moment the last session had it), over the messages every
 * session received. What a broadcast's slowest recipient waits, which neither the sender's own
 * copy nor the distribution of all copies shows.
 *
 * @param count      messages whose copies all arrived by the drain deadline
 * @param incomplete measured messages sent with at least one copy missing at the drain deadline
 * @param p50        median completion time, ms; null when {@code count} is 0
 * @param p90        90th percentile, ms; null when {@code count} is 0
 * @param p99        99th percentile, ms; null when {@code count} is 0
 * @param max        the slowest complete message, ms; null when {@code count} is 0
 */
public record CompletionSummary(long count, long incomplete, Double p50, Double p90, Double p99, Double max) {

    /**
     * Summarises per-message arrays (index = measured message).
     *
     * @param copies         copies of each message that arrived (all receivers together)
     * @param slowestMicros  each message's latest copy, µs after its due time
     * @param expectedCopies copies a complete message has: the connections open at the point's start
     * @param sent           measured messages sent, or -1 when the arrays do not cover every measured
     *                       message (then a message no session received cannot be told from one never sent)
     */
    public static CompletionSummary of(int[] copies, int[] slowestMicros, long expectedCopies, long sent) {
        Histogram h = LatencySummary.newHistogram();
        long withAnyCopy = 0;
        long partial = 0;
        for (int i = 0; i < copies.length; i++) {
            if (copies[i] == 0) {
                continue;
            }
            withAnyCopy++;
            if (copies[i] >= expectedCopies) {
                h.recordValue(slowestMicros[i]);
            } else {
                partial++;
            }
        }
        // Sent messages of which no copy arrived at all are incomplete too (when sent is known).
        long noCopy = sent < 0 ? 0 : Math.max(0, sent - withAnyCopy);
        long n = h.getTotalCount();
        if (n == 0) {
            return new CompletionSummary(0, partial + noCopy, null, null, null, null);
        }
        return new CompletionSummary(n, partial + noCopy,
                h.getValueAtPercentile(50) / LatencySummary.MICROS_PER_MS,
                h.getValueAtPercentile(90) / LatencySummary.MICROS_PER_MS,
                h.getValueAtPercentile(99) / LatencySummary.MICROS_PER_MS,
                h.getMaxValue() / LatencySummary.MICROS_PER_MS);
    }
}
