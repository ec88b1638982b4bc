package sockbench.client.stats;

import java.util.List;

/**
 * A level's {@code fanout_saturation}: the highest ok point under the fan-out verdict, stated as
 * the copies per second the server delivered to every session together, so levels of different
 * sizes compare on what the server did, not on the sent rate (which falls as 1/N).
 *
 * @param copiesPerS copies received per second by all sessions together (that point's received_per_s)
 * @param targetRate that point's target send rate, messages/s
 * @param p99Ms      that point's all-copies p99, ms; null without samples
 */
public record FanoutSaturation(double copiesPerS, double targetRate, Double p99Ms) {

    /** The ok point with the highest received/s, or null when no point was ok (or none was timed by every copy). */
    public static FanoutSaturation of(List<PointResult> points) {
        PointResult best = null;
        for (PointResult p : points) {
            if (p.ok() && p.fanout() != null && (best == null || p.receivedPerS() > best.receivedPerS())) {
                best = p;
            }
        }
        return best == null ? null : new FanoutSaturation(best.receivedPerS(), best.targetRate(), best.fanout().p99());
    }
}
