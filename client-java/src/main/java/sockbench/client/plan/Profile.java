package sockbench.client.plan;

import java.util.List;
import java.util.Locale;

/**
 * The named sweeps: the one table of profiles ({@code --profile}, {@code --list-profiles} and the
 * bench runner all read it from here). Times are seconds, rates messages/s sent by all clients
 * together. The rate a level reaches is bounded by the server and by {@code maxRate}.
 *
 * <p>Why {@code standard} looks the way it does (the matrix of issue 16, 8 servers × 3 repetitions,
 * must fit 90 minutes on a 2-core VM, so about 3.5 minutes per server run):
 * <ul>
 *   <li>×2 ramp with 4 refine steps: the refine bisection narrows the last grid step anyway, and
 *       ×2^(1/16) = 4.4 % is a tighter bracket than ×1.25 with 3 steps (2.8 %) costs points for;
 *       the coarse grid halves the climb to the knee.</li>
 *   <li>each level after the first starts at a quarter of the rate the previous level's knee
 *       predicts ({@code nextLevelStartFraction}), instead of climbing from 10 msgs/s again.</li>
 *   <li>0.5 s warm-up + 2 s window: the 200 ms mean-RTT rule admits a rate r × capacity when the
 *       queue it builds, (r − 1) × (warm-up + window / 2), stays under 0.2 s; that is r ≤ 1.13 here
 *       against 1.10 with 3 s windows, and the strict figure (backlog rule) sees r ≥ 1.02 either way.</li>
 *   <li>0.5 s settle: the drain already waits until every copy of the window is back, so the
 *       server's queues are empty before the settle pause starts.</li>
 * </ul>
 */
public enum Profile {
    /** Tiny, for CI: two small levels, three short points each; finishes in a few seconds. */
    SMOKE("Tiny, for CI: levels 2 and 4, x2 steps from 20 to 80 msgs/s, 0.5 s points",
            List.of(2, 4), Ramp.GEOMETRIC, 2.0, 20, 0.5, 0.2, 0.2, 80, true, 3, 0.25),
    /** Three levels, coarse ×1.5 ramp, 2 s points: a few minutes against a typical server. */
    QUICK("Three levels (25, 100, 500), x1.5 steps refined 3 times, 2 s points + 0.5 s settle",
            List.of(25, 100, 500), Ramp.GEOMETRIC, 1.5, 10, 2, 0.5, 0.5, 100_000, true, 3, 0.25),
    /** The reference sweep: 7 levels, ×2 steps + 4 refine steps, 2 s points; about 3 to 4 min per server. */
    STANDARD("The reference sweep: 7 levels, x2 steps refined 4 times (knee within 4.4 %), 2 s points + 0.5 s settle",
            List.of(25, 50, 100, 200, 500, 1000, 2000), Ramp.GEOMETRIC, 2.0, 10, 2, 0.5, 0.5, 100_000, true, 4, 0.25),
    /**
     * The original client's schedule exactly: start 1/s, + max(1, 1000/N) per step, 3 s steps, 1 s
     * pause, every level from the start rate.
     */
    LEGACY("The original 2011 client's schedule: 13 levels, +max(1, 1000/N) steps from 1 msg/s, 3 s points + 1 s settle",
            Levels.LEGACY, Ramp.ADDITIVE, 0, 1, 3, 1, 0.5, 1_000_000, true, 3, null),
    /** Legacy levels with the geometric ramp. */
    FULL("The 13 legacy levels with the x1.25 geometric ramp, 3 s points + 1 s settle",
            Levels.LEGACY, Ramp.GEOMETRIC, 1.25, 10, 3, 1, 0.5, 100_000, true, 3, 0.25);

    private final String description;
    private final List<Integer> levels;
    private final Ramp ramp;
    private final double rateFactor;
    private final double startRate;
    private final double stepS;
    private final double settleS;
    private final double warmupS;
    private final double maxRate;
    private final boolean confirm;
    private final int refineSteps;
    private final Double nextLevelStartFraction;

    Profile(String description, List<Integer> levels, Ramp ramp, double rateFactor, double startRate,
            double stepS, double settleS, double warmupS, double maxRate,
            boolean confirm, int refineSteps, Double nextLevelStartFraction) {
        this.description = description;
        this.levels = levels;
        this.ramp = ramp;
        this.rateFactor = rateFactor;
        this.startRate = startRate;
        this.stepS = stepS;
        this.settleS = settleS;
        this.warmupS = warmupS;
        this.maxRate = maxRate;
        this.confirm = confirm;
        this.refineSteps = refineSteps;
        this.nextLevelStartFraction = nextLevelStartFraction;
    }

    /** The profile's name as used on the command line and in results. */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** One line saying what the profile is for (shown by {@code --list-profiles}). */
    public String description() {
        return description;
    }

    /** Re-run the first not-ok point on fresh connections before believing it. */
    public boolean confirm() {
        return confirm;
    }

    /** Geometric bisection steps between the last ok and the first bad rate of a level, 0..20. */
    public int refineSteps() {
        return refineSteps;
    }

    public SweepPlan plan() {
        return new SweepPlan(jsonName(), levels, ramp, rateFactor, startRate, stepS, settleS, warmupS, maxRate,
                nextLevelStartFraction);
    }

    private static final class Levels {
        static final List<Integer> LEGACY =
                List.of(25, 50, 75, 100, 200, 300, 400, 500, 750, 1000, 1250, 1500, 2000);
    }
}
