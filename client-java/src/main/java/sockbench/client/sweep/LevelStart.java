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
 *   start  = clamp(knee / N × fraction, lo = start_rate, hi = the level's cap)
 * </pre>
 * The level's cap is the plan's max rate, or the client's ceiling for the level ({@link LevelCap}).
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
        return startFor(n, lastKneeReceivedPerS, plan.maxRate());
    }

    /**
     * The same under the level's own cap ({@link LevelCap}): the adaptive rule is clamped to
     * {@code hi} instead of the plan's max rate, and a given rate above {@code hi} is lowered to it.
     *
     * @param hi the level's cap on the target rate, messages/s, &gt; 0
     */
    public double startFor(int n, Double lastKneeReceivedPerS, double hi) {
        Double g = given.get(n);
        if (g != null) {
            return Math.min(g, hi);
        }
        return adaptive(plan, n, lastKneeReceivedPerS, hi);
    }

    /** The rule above, without given rates. */
    public static double adaptive(SweepPlan plan, int n, Double lastKneeReceivedPerS) {
        return adaptive(plan, n, lastKneeReceivedPerS, plan.maxRate());
    }

    /** The rule above, without given rates, clamped to {@code hi} (messages/s) instead of the plan's max rate. */
    public static double adaptive(SweepPlan plan, int n, Double lastKneeReceivedPerS, double hi) {
        Double fraction = plan.nextLevelStartFraction();
        if (fraction == null || lastKneeReceivedPerS == null || !(lastKneeReceivedPerS > 0)) {
            return Math.min(hi, plan.startRate());
        }
        double predictedTarget = lastKneeReceivedPerS / n; // received = sent × N
        return Math.min(hi, Math.max(plan.startRate(), predictedTarget * fraction));
    }

    /**
     * Parses {@code --level-start-rates}: {@code N:RATE,N:RATE,...}, each rate at most the plan's max rate.
     *
     * @throws IllegalArgumentException naming the bad entry: not N:RATE, N not one of the plan's levels,
     *                                  RATE not in (0, max_rate], or a level given twice
     */
    public static Map<Integer, Double> parse(String spec, SweepPlan plan) {
        return parse(spec, plan, plan.maxRate());
    }

    /**
     * Parses {@code N:VALUE,N:VALUE,...} for the plan's levels ({@code --level-start-rates},
     * {@code --client-ceilings}), each value in (0, {@code max}].
     *
     * @param max the largest value allowed (the plan's max rate for start rates; a level's start
     *            above its own cap is lowered to the cap when the level runs)
     * @throws IllegalArgumentException naming the bad entry: not N:RATE, N not one of the plan's levels,
     *                                  RATE not in (0, max], or a level given twice
     */
    public static Map<Integer, Double> parse(String spec, SweepPlan plan, double max) {
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
            if (!(rate > 0) || rate > max || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("rate " + e.substring(colon + 1).trim() + " for level " + n
                        + " must be > 0 and <= the max rate " + max);
            }
            if (out.put(n, rate) != null) {
                throw new IllegalArgumentException("level " + n + " is given twice");
            }
        }
        return Collections.unmodifiableMap(out);
    }
}
