package sockbench.client.sweep;

import java.util.Map;
import sockbench.client.plan.SweepPlan;

/**
 * Where a level's climb stops if the server never gets there first (pure arithmetic; {@link Sweep}
 * asks it once per level, {@link SaturationSearch} and {@link LevelStart} obey it).
 *
 * <p>A level must end at the server's saturation, not at a constant of the profile. What really
 * bounds a level from above is the client: past its receive ceiling every point only measures the
 * client. So when the client's ceiling for the level is known ({@code --client-ceilings}, measured
 * by the runner with the firehose self-test for this connection count and the server's frame size),
 * the cap on the sent rate is
 * <pre>
 *   cap = ceiling_received_per_s / N        (each sent message is received by all N connections)
 * </pre>
 * with no margin: the firehose ceiling is what the client receives when it does nothing else, so
 * the client can reach at most that in a run (where it also sends and times); points between its real
 * limit and the cap are flagged client-bound by the point rules, and above the cap nothing can be
 * learnt. The end reason is then {@code client_ceiling}. {@link #SAFETY_MAX_RATE} stays as a hard
 * bound far above any ceiling measured here (33.5 M received/s at 25 connections is 1.3 M sent/s), so
 * a bogus ceiling cannot send the ramp on for ever.
 *
 * <p>Without a ceiling for the level (a client run by hand, an unmeasured connection count), the
 * plan's {@code max_rate} caps it as before (end reason {@code max_rate}). A {@code max_rate} the user
 * gave explicitly ({@code --max-rate}) wins over the ceiling: the user asked for that bound.
 *
 * @param rate        the highest target rate the level may run, messages/s sent by all clients, &gt; 0
 * @param reason      the level's end reason when the next target would exceed {@code rate}:
 *                    {@code client_ceiling} or {@code max_rate}
 * @param ceilingPerS the client's ceiling for the level, messages/s received by all clients together,
 *                    recorded as {@code client_ceiling_per_s}; null when not known
 */
public record LevelCap(double rate, String reason, Double ceilingPerS) {

    /** End reason: the next target would exceed the client's measured ceiling for the level. */
    public static final String CLIENT_CEILING = "client_ceiling";
    /** End reason: the next target would exceed the plan's max rate. */
    public static final String MAX_RATE = "max_rate";
    /** The hard bound on a ceiling-derived cap, messages/s sent (far above any measured ceiling / N). */
    public static final double SAFETY_MAX_RATE = 10_000_000;

    public LevelCap {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("a level's cap must be a finite rate > 0, got " + rate);
        }
        if (!CLIENT_CEILING.equals(reason) && !MAX_RATE.equals(reason)) {
            throw new IllegalArgumentException("a level's cap ends it as client_ceiling or max_rate, not " + reason);
        }
    }

    /** True when the cap is the client's ceiling (the search then measures one last point at it). */
    public boolean isCeiling() {
        return CLIENT_CEILING.equals(reason);
    }

    /** The plan's max rate alone: the cap of a level whose client ceiling is not known. */
    public static LevelCap of(SweepPlan plan) {
        return new LevelCap(plan.maxRate(), MAX_RATE, null);
    }

    /**
     * The cap of level {@code n}.
     *
     * @param plan            the sweep (its max rate)
     * @param maxRateGiven    true when the user gave {@code --max-rate}: it caps every level
     * @param ceilingsPerS    the client's ceiling by connection count, messages/s received; may be empty
     * @param n               the level's concurrency, ≥ 1
     */
    public static LevelCap of(SweepPlan plan, boolean maxRateGiven, Map<Integer, Double> ceilingsPerS, int n) {
        Double ceiling = ceilingsPerS.get(n);
        if (ceiling == null) {
            return of(plan);
        }
        if (maxRateGiven) {
            return new LevelCap(plan.maxRate(), MAX_RATE, ceiling);
        }
        double perSent = ceiling / n;
        if (perSent > SAFETY_MAX_RATE) {
            return new LevelCap(SAFETY_MAX_RATE, MAX_RATE, ceiling);
        }
        return new LevelCap(perSent, CLIENT_CEILING, ceiling);
    }
}
