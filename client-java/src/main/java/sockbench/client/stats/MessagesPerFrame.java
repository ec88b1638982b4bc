package sockbench.client.stats;

import org.HdrHistogram.Histogram;

/**
 * How many messages a server put in each data frame during a point's window (a point's
 * {@code messages_per_frame}, results/README.md): a coalescing server sends
 * {@code a["m1","m2",...]} once per loop turn, a naive one a frame per message, and a raw
 * websocket is always one message per frame. It says whether two results were measured like for
 * like; it judges nothing.
 *
 * @param frames           data frames received inside the window by all connections
 * @param messages         messages in those frames
 * @param mean             messages / frames
 * @param p50              median messages per frame, over all frames
 * @param p90              90th percentile
 * @param p99              99th percentile
 * @param max              the largest frame, messages
 * @param perConnectionMin the lowest of the connections' own means (connections with a frame), 2 decimals
 *                         (recorded × 100 in a {@link #newHistogram}: exact up to 20.47, above at most 0.05 % low)
 * @param perConnectionP50 the median of those means
 * @param perConnectionMax the highest of them
 */
public record MessagesPerFrame(long frames, long messages, double mean, long p50, long p90, long p99, long max,
                               double perConnectionMin, double perConnectionP50, double perConnectionMax) {

    /**
     * A histogram of messages per frame, or of per-connection means × 100: 3 significant digits,
     * so every value below 2,048 is exact (above, read at most 0.05 % low); grows rather than drop a value.
     */
    public static Histogram newHistogram() {
        Histogram h = new Histogram(10_000, 3);
        h.setAutoResize(true);
        return h;
    }

    /**
     * The summary of a point's frames; null when no data frame arrived (nothing to say).
     *
     * @param perFrame                 messages of each frame
     * @param connectionMeanHundredths each connection's mean messages per frame, × 100, rounded
     */
    public static MessagesPerFrame of(long frames, long messages, Histogram perFrame,
                                      Histogram connectionMeanHundredths) {
        if (frames == 0 || perFrame.getTotalCount() == 0 || connectionMeanHundredths.getTotalCount() == 0) {
            return null;
        }
        Histogram c = connectionMeanHundredths;
        return new MessagesPerFrame(frames, messages, (double) messages / frames,
                floor(perFrame, perFrame.getValueAtPercentile(50)),
                floor(perFrame, perFrame.getValueAtPercentile(90)),
                floor(perFrame, perFrame.getValueAtPercentile(99)),
                floor(perFrame, perFrame.getMaxValue()),
                floor(c, c.getMinValue()) / 100.0,
                floor(c, c.getValueAtPercentile(50)) / 100.0,
                floor(c, c.getMaxValue()) / 100.0);
    }

    /**
     * The bottom of {@code value}'s bucket. HdrHistogram reports percentiles and the max at the
     * top of theirs; the bottom is the same for every value below 2,048 and keeps equal values
     * equal above it (connections that all averaged exactly 100.00 read min = median = max = 100.0,
     * not 100.0 and 100.07).
     */
    private static long floor(Histogram h, long value) {
        return h.lowestEquivalentValue(value);
    }
}
