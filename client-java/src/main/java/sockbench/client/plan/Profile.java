package sockbench.client.plan;

import java.util.List;
import java.util.Locale;

/**
 * The named sweeps of the issue. Times are seconds, rates messages/s sent by all clients together.
 * The rate a level reaches is bounded by the server (the level ends at the first overloaded point)
 * and by {@code maxRate}.
 */
public enum Profile {
    /** Tiny, for CI: two small levels, three short points each; finishes in a few seconds. */
    SMOKE(List.of(2, 4), Ramp.GEOMETRIC, 2.0, 20, 0.5, 0.2, 0.2, 80),
    /** Three levels, coarse ×1.5 ramp, 2 s points: about 3 minutes against a typical server. */
    QUICK(List.of(25, 100, 500), Ramp.GEOMETRIC, 1.5, 10, 2, 0.5, 0.5, 100_000),
    /** The reference sweep: 7 levels, ×1.25 steps, 3 s points + 1 s settle; ≤ 15 min per server. */
    STANDARD(List.of(25, 50, 100, 200, 500, 1000, 2000), Ramp.GEOMETRIC, 1.25, 10, 3, 1, 0.5, 100_000),
    /** The original client's schedule exactly: start 1/s, + max(1, 1000/N) per step, 3 s steps, 1 s pause. */
    LEGACY(Levels.LEGACY, Ramp.ADDITIVE, 0, 1, 3, 1, 0.5, 1_000_000),
    /** Legacy levels with the geometric ramp. */
    FULL(Levels.LEGACY, Ramp.GEOMETRIC, 1.25, 10, 3, 1, 0.5, 100_000);

    private final List<Integer> levels;
    private final Ramp ramp;
    private final double rateFactor;
    private final double startRate;
    private final double stepS;
    private final double settleS;
    private final double warmupS;
    private final double maxRate;

    Profile(List<Integer> levels, Ramp ramp, double rateFactor, double startRate,
            double stepS, double settleS, double warmupS, double maxRate) {
        this.levels = levels;
        this.ramp = ramp;
        this.rateFactor = rateFactor;
        this.startRate = startRate;
        this.stepS = stepS;
        this.settleS = settleS;
        this.warmupS = warmupS;
        this.maxRate = maxRate;
    }

    /** The profile's name as used on the command line and in results. */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public SweepPlan plan() {
        return new SweepPlan(jsonName(), levels, ramp, rateFactor, startRate, stepS, settleS, warmupS, maxRate);
    }

    private static final class Levels {
        static final List<Integer> LEGACY =
                List.of(25, 50, 75, 100, 200, 300, 400, 500, 750, 1000, 1250, 1500, 2000);
    }
}
