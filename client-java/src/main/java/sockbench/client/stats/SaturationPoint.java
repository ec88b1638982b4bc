package sockbench.client.stats;

import java.util.List;

/**
 * A level's saturation point: its ok point with the highest received rate.
 *
 * @param targetRate   the point's target send rate, messages/s
 * @param receivedPerS its received rate (all copies), messages/s
 * @param sentPerS     its achieved send rate, messages/s
 * @param rttMeanMs    its mean corrected RTT, ms
 * @param clientBound  whether that point was client-bound
 */
public record SaturationPoint(double targetRate, double receivedPerS, double sentPerS,
                              double rttMeanMs, boolean clientBound) {

    /** The ok point with the highest received/s, or null when no point was ok. */
    public static SaturationPoint of(List<PointResult> points) {
        PointResult best = null;
        for (PointResult p : points) {
            if (p.state() == PointState.OK && (best == null || p.receivedPerS() > best.receivedPerS())) {
                best = p;
            }
        }
        if (best == null) {
            return null;
        }
        double mean = best.rtt().mean() == null ? 0 : best.rtt().mean();
        return new SaturationPoint(best.targetRate(), best.receivedPerS(), best.sentPerS(), mean, best.clientBound());
    }
}
