package sockbench.client.stats;

import java.util.List;
import java.util.function.Predicate;

/**
 * A level's saturation point (results/README.md, the saturation object): its best point by
 * received rate among those that pass a test, and how far above it the true knee can lie.
 *
 * @param targetRate      the point's target send rate, messages/s
 * @param receivedPerS    its received rate (all copies), messages/s
 * @param sentPerS        its achieved send rate, messages/s
 * @param rttMeanMs       its mean corrected RTT, ms
 * @param clientBound     whether that point was client-bound
 * @param upperTargetRate the lowest target rate above it whose point failed the test, messages/s; null if none
 * @param serverCpuPct    that point's server CPU, percent of one core; null when unknown
 * @param clientCpuPct    that point's client CPU, percent of one core
 */
public record SaturationPoint(double targetRate, double receivedPerS, double sentPerS,
                              double rttMeanMs, boolean clientBound, Double upperTargetRate,
                              Double serverCpuPct, Double clientCpuPct) {

    /** The ok point (mean below the threshold) with the highest received/s, or null when no point was ok. */
    public static SaturationPoint of(List<PointResult> points) {
        return best(points, PointResult::ok);
    }

    /** The same among the points that are ok by the strict rules, or null. */
    public static SaturationPoint strict(List<PointResult> points) {
        return best(points, PointResult::okStrict);
    }

    /** The point passing {@code passes} with the highest received/s, bracketed by the lowest failing rate above it. */
    public static SaturationPoint best(List<PointResult> points, Predicate<PointResult> passes) {
        PointResult best = null;
        for (PointResult p : points) {
            if (passes.test(p) && (best == null || p.receivedPerS() > best.receivedPerS())) {
                best = p;
            }
        }
        if (best == null) {
            return null;
        }
        Double upper = null;
        for (PointResult p : points) {
            if (!passes.test(p) && p.targetRate() > best.targetRate() && (upper == null || p.targetRate() < upper)) {
                upper = p.targetRate();
            }
        }
        double mean = best.rtt().mean() == null ? 0 : best.rtt().mean();
        return new SaturationPoint(best.targetRate(), best.receivedPerS(), best.sentPerS(), mean, best.clientBound(),
                upper, best.serverCpuPct(), best.clientCpuPct());
    }

    /** 100 × (upper / target − 1): how far above this point the knee can lie; null without an upper bound. */
    public Double gridErrorPct() {
        return upperTargetRate == null ? null : 100.0 * (upperTargetRate / targetRate - 1);
    }
}
