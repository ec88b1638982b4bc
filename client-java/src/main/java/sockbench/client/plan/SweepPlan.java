package sockbench.client.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a sweep does: which concurrency levels, and at each level which target rates,
 * held for how long. Pure data and arithmetic (no I/O), so the ramp rules are testable.
 *
 * @param profile    profile name recorded in results: smoke, quick, standard, legacy, full or custom
 * @param levels     concurrency levels (connections), run in this order; each ≥ 1
 * @param ramp       geometric or additive rate growth
 * @param rateFactor geometric multiplier, &gt; 1 (ignored for additive)
 * @param startRate  first target rate of the first level (and of every level without an adaptive or given start),
 *                   messages/s sent by all clients together, &gt; 0
 * @param stepS      measured duration of each point, seconds, &gt; 0
 * @param settleS    minimum pause after each point's window before the next point starts, seconds, ≥ 0
 * @param warmupS    unrecorded warm-up at each point's rate before its window, seconds, ≥ 0
 * @param maxRate    a level stops when the next target would exceed this, messages/s, &gt; 0
 * @param nextLevelStartFraction each level after the first starts at this fraction of the rate the
 *                   previous level's knee predicts for it ({@code sweep/LevelStart}), 0 &lt; x ≤ 1; null = every
 *                   level starts at {@code startRate} (always null for the additive ramp)
 */
public record SweepPlan(String profile, List<Integer> levels, Ramp ramp, double rateFactor,
                        double startRate, double stepS, double settleS, double warmupS, double maxRate,
                        Double nextLevelStartFraction) {

    /** A plan whose levels all start at {@code startRate}. */
    public SweepPlan(String profile, List<Integer> levels, Ramp ramp, double rateFactor,
                     double startRate, double stepS, double settleS, double warmupS, double maxRate) {
        this(profile, levels, ramp, rateFactor, startRate, stepS, settleS, warmupS, maxRate, null);
    }

    public SweepPlan {
        Objects.requireNonNull(profile);
        levels = List.copyOf(levels);
        if (levels.isEmpty() || levels.stream().anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("levels must be a non-empty list of integers >= 1: " + levels);
        }
        if (ramp == Ramp.GEOMETRIC && !(rateFactor > 1)) {
            throw new IllegalArgumentException("rate factor must be > 1, got " + rateFactor);
        }
        if (!(startRate > 0) || !(stepS > 0) || !(settleS >= 0) || !(warmupS >= 0) || !(maxRate > 0)) {
            throw new IllegalArgumentException("start rate, step and max rate must be > 0; settle and warm-up >= 0");
        }
        if (startRate > maxRate) {
            throw new IllegalArgumentException("start rate " + startRate + " exceeds max rate " + maxRate);
        }
        if (nextLevelStartFraction != null && (ramp != Ramp.GEOMETRIC
                || !(nextLevelStartFraction > 0 && nextLevelStartFraction <= 1))) {
            throw new IllegalArgumentException("next level start fraction must be in (0, 1] and needs the geometric ramp, got "
                    + nextLevelStartFraction);
        }
    }

    /** The additive step at concurrency {@code n}: max(1, 1000/N) with integer division, messages/s. */
    public static int additiveStep(int n) {
        return Math.max(1, 1000 / n);
    }

    /** The target rate after {@code rate} at concurrency {@code n}, messages/s. */
    public double nextRate(double rate, int n) {
        return switch (ramp) {
            case GEOMETRIC -> rate * rateFactor;
            case ADDITIVE -> rate + additiveStep(n);
        };
    }

    /**
     * Every target rate the level at concurrency {@code n} would run if the server never
     * overloaded: from the start rate up to and including the last one ≤ max rate.
     */
    public List<Double> rates(int n) {
        List<Double> out = new ArrayList<>();
        for (double r = startRate; r <= maxRate * (1 + 1e-9); r = nextRate(r, n)) {
            out.add(r);
        }
        return out;
    }

    /** The additive rule as written in results ({@code rate_step}), or null for geometric. */
    public String rateStepRule() {
        return ramp == Ramp.ADDITIVE ? "max(1, 1000/N)" : null;
    }

    /** Same plan with other levels (the profile name stays: levels are recorded separately). */
    public SweepPlan withLevels(List<Integer> newLevels) {
        return new SweepPlan(profile, newLevels, ramp, rateFactor, startRate, stepS, settleS, warmupS, maxRate,
                nextLevelStartFraction);
    }

    /** Same plan with every level starting at {@code startRate} ({@code --no-adaptive-start}). */
    public SweepPlan withoutAdaptiveStart() {
        return new SweepPlan(profile, levels, ramp, rateFactor, startRate, stepS, settleS, warmupS, maxRate, null);
    }
}
