package sockbench.client.sweep;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import sockbench.client.plan.SweepPlan;

/**
 * Where each level's ramp starts (pure arithmetic; {@link Sweep} asks it once per level).
 *
 * <p>Most points of a level that starts at the profile's start rate are the climb to a knee the
 * previous level already located. What carries over between concurrency levels is what the
 * server pushed per second (received/s): the send rate at the knee scales with 1/N. So, for a
 * plan with a {@code nextLevelStartFraction}:
 * <pre>
 *   knee   = saturation.received_per_s of the last level that had a saturation
 *   start  = clamp(knee / N × fraction, lo = start_rate, hi = max_rate)
 * </pre>
 * The first level, and every level before any saturation was found, starts at {@code start_rate}.
 * A rate given for the level ({@code --level-start-rates}) overrides the rule. When the first
 * point is not ok, {@link SaturationSearch} falls back to re-ramping from {@code start_rate}.
 */
public final class LevelStart {

    private final SweepPlan plan;
    private final Map<Integer, Double> given;

    /**
     * @param plan  the sweep (start rate, max rate, fraction)
     * @param given start rates for some levels, messages/s, each in (0, max_rate]; may be empty
     */
    public LevelStart(SweepPlan plan, Map<Integer, Double> given) {
        this.plan = plan;
        this.given = Map.copyOf(given);
    }

    /**
     * @param n                  the level's concurrency
     * @param lastKneeReceivedPerS received/s at the saturation of the last level that had one, or null
     * @return the level's first target rate, messages/s
     */
    public double startFor(int n, Double lastKneeReceivedPerS) {
        Double g = given.get(n);
        if (g != null) {
            return g;
        }
        return adaptive(plan, n, lastKneeReceivedPerS);
    }

    /** The rule above, without given rates. */
    public static double adaptive(SweepPlan plan, int n, Double lastKneeReceivedPerS) {
        Double fraction = plan.nextLevelStartFraction();
        if (fraction == null || lastKneeReceivedPerS == null || !(lastKneeReceivedPerS > 0)) {
            return plan.startRate();
        }
        double predictedTarget = lastKneeReceivedPerS / n; // received = sent × N
        return Math.min(plan.maxRate(), Math.max(plan.startRate(), predictedTarget * fraction));
    }

    /**
     * Parses {@code --level-start-rates}: {@code N:RATE,N:RATE,...}.
     *
     * @throws IllegalArgumentException naming the bad entry: not N:RATE, N not one of the plan's levels,
     *                                  RATE not in (0, max_rate], or a level given twice
     */
    public static Map<Integer, Double> parse(String spec, SweepPlan plan) {
        Map<Integer, Double> out = new LinkedHashMap<>();
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("expected N:RATE[,N:RATE...], got an empty value");
        }
        for (String entry : spec.split(",", -1)) {
            String e = entry.trim();
            int colon = e.indexOf(':');
            int n;
            double rate;
            try {
                if (colon < 0) {
                    throw new NumberFormatException();
                }
                n = Integer.parseInt(e.substring(0, colon).trim());
                rate = Double.parseDouble(e.substring(colon + 1).trim());
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException("'" + e + "' is not N:RATE (e.g. 100:4800)");
            }
            if (!plan.levels().contains(n)) {
                throw new IllegalArgumentException("level " + n + " is not one of the sweep's levels " + plan.levels());
            }
            if (!(rate > 0) || rate > plan.maxRate() || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("rate " + e.substring(colon + 1).trim() + " for level " + n
                        + " must be > 0 and <= the max rate " + plan.maxRate());
            }
            if (out.put(n, rate) != null) {
                throw new IllegalArgumentException("level " + n + " is given twice");
            }
        }
        return Collections.unmodifiableMap(out);
    }
}
