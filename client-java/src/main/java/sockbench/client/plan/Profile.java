package sockbench.client.plan;

import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The named sweeps: the one table of profiles ({@code --profile}, {@code --list-profiles} and the
 * bench runner all read it from here). Times are seconds, rates messages/s sent by all clients
 * together. The rate a level reaches is bounded by the server and by {@code maxRate}.
 *
 * <p>Why {@code standard} looks the way it does (the runner's matrix, 8 servers × 3 repetitions,
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
 *
 * <p>A repetition after the first (the runner's business) starts each level at
 * {@code laterRepetitionStartFraction} of the target rate where the first repetition saturated
 * ({@code --level-start-rates}): low enough that its first point is ok even on a slower pass of a
 * drifting VM (the spread seen is up to 2×), high enough to skip the climb from the start rate.
 */
public enum Profile {
    /** Tiny, for CI: two small levels, three short points each; finishes in a few seconds. */
    SMOKE(new Spec("Tiny, for CI: levels 2 and 4, x2 steps from 20 to 80 msgs/s, 0.5 s points")
            .plan(p -> p.levels(2, 4).geometric(2.0).startRate(20).maxRate(80)
                    .stepS(0.5).settleS(0.2).warmupS(0.2).nextLevelStartFraction(0.25))
            .confirm(true).refineSteps(3).laterRepetitionStartFraction(0.5)),
    /** Three levels, coarse ×1.5 ramp, 2 s points: a few minutes against a typical server. */
    QUICK(new Spec("Three levels (25, 100, 500), x1.5 steps refined 3 times, 2 s points + 0.5 s settle")
            .plan(p -> p.levels(25, 100, 500).geometric(1.5).startRate(10).maxRate(100_000)
                    .stepS(2).settleS(0.5).warmupS(0.5).nextLevelStartFraction(0.25))
            .confirm(true).refineSteps(3).laterRepetitionStartFraction(0.5)),
    /** The reference sweep: 7 levels, ×2 steps + 4 refine steps, 2 s points; about 3 to 4 min per server. */
    STANDARD(new Spec("The reference sweep: 7 levels, x2 steps refined 4 times (knee within 4.4 %), 2 s points + 0.5 s settle")
            .plan(p -> p.levels(25, 50, 100, 200, 500, 1000, 2000).geometric(2.0).startRate(10).maxRate(100_000)
                    .stepS(2).settleS(0.5).warmupS(0.5).nextLevelStartFraction(0.25))
            .confirm(true).refineSteps(4).laterRepetitionStartFraction(0.5)),
    /**
     * The original client's schedule exactly: start 1/s, + max(1, 1000/N) per step, 3 s steps, 1 s
     * pause, every level from the start rate.
     */
    LEGACY(new Spec("The original 2011 client's schedule: 13 levels, +max(1, 1000/N) steps from 1 msg/s, 3 s points + 1 s settle")
            .plan(p -> p.levels(Levels.LEGACY).additive().startRate(1).maxRate(1_000_000)
                    .stepS(3).settleS(1).warmupS(0.5).nextLevelStartFraction(null))
            .confirm(true).refineSteps(3).laterRepetitionStartFraction(0.5)),
    /** Legacy levels with the geometric ramp. */
    FULL(new Spec("The 13 legacy levels with the x1.25 geometric ramp, 3 s points + 1 s settle")
            .plan(p -> p.levels(Levels.LEGACY).geometric(1.25).startRate(10).maxRate(100_000)
                    .stepS(3).settleS(1).warmupS(0.5).nextLevelStartFraction(0.25))
            .confirm(true).refineSteps(3).laterRepetitionStartFraction(0.5)),
    /**
     * The runner's unrecorded pass before each measured run, for every server alike: PyPy's JIT
     * (and the client's own) compile the broadcast path on the first few thousand messages, which
     * would otherwise inflate the latency of the first points measured. One level, short points, a
     * rate range every server under test reaches; its result is thrown away.
     */
    WARMUP(new Spec("The runner's unrecorded warm-up pass before each measured run: level 50, x2 steps from 200 to 3200 msgs/s, 1 s points + 0.2 s settle")
            .plan(p -> p.levels(50).geometric(2.0).startRate(200).maxRate(3200)
                    .stepS(1).settleS(0.2).warmupS(0.5).nextLevelStartFraction(0.25))
            .confirm(true).refineSteps(4).laterRepetitionStartFraction(0.5)),
    /**
     * Sessions at scale: 1,000 to 100,000 websocket sessions per level, each level opened at a paced
     * 2,000 connects/s, held idle for 30 s (longer than SockJS's 25 s default heartbeat, so every
     * session gets one: memory per session, idle CPU), then ramped from 1 msg/s and judged by the
     * latency of EVERY copy (all-copies p99), since at these sizes the fan-out, not the sender's own
     * copy, is what a user waits for. Levels above one process's share need agents and workers
     * (the runner groups them). The ramp is ×√5, every level and every repetition from the start
     * (no adaptive or later-repetition start): the grid 1, 2.24, 5, 11.2, 25, … passes 5 msgs/s at
     * every level, the fixed rate at which the all-copies p99 is compared across levels (19,000
     * sessions × 5 msgs/s = 95,000 copies/s), and the climb from 1 msg/s costs only a few short
     * points at these rates.
     */
    SESSIONS(new Spec("Sessions at scale: 1,000 to 100,000 sessions, paced connect (2,000/s), 30 s idle hold, x sqrt(5) steps from 1 msg/s (through 5 msgs/s at every level) judged by every copy's p99, 2 s points + 0.5 s settle")
            .plan(p -> p.levels(1000, 2000, 5000, 10000, 19000, 50000, 100000).geometric(Math.sqrt(5)).startRate(1)
                    .maxRate(100_000).stepS(2).settleS(0.5).warmupS(0.5).nextLevelStartFraction(null)
                    .allCopies(true).idleHoldS(30).connectRatePerS(2000))
            .confirm(true).refineSteps(3).everyRepetitionFromStartRate());

    private final Spec spec;

    Profile(Spec spec) {
        this.spec = spec;
    }

    /** The profile's name as used on the command line and in results. */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** One line saying what the profile is for (shown by {@code --list-profiles}). */
    public String description() {
        return spec.description;
    }

    /** Re-run the first not-ok point on fresh connections before believing it. */
    public boolean confirm() {
        return spec.confirm;
    }

    /** Geometric bisection steps between the last ok and the first bad rate of a level, 0..20. */
    public int refineSteps() {
        return spec.refineSteps;
    }

    /**
     * A later repetition starts each level at this fraction of the target rate where the first
     * repetition saturated, 0 &lt; x ≤ 1 (read by the runner through {@code --list-profiles});
     * null: every repetition ramps from the start rate like the first.
     */
    public Double laterRepetitionStartFraction() {
        return spec.laterRepetitionStartFraction;
    }

    public SweepPlan plan() {
        return spec.plan.apply(SweepPlan.builder(jsonName())).build();
    }

    /** One row of the table, every field named. */
    private static final class Spec {
        final String description;
        UnaryOperator<SweepPlan.Builder> plan;
        boolean confirm;
        int refineSteps = -1;
        Double laterRepetitionStartFraction;

        Spec(String description) {
            this.description = description;
        }

        /** Levels, ramp and timings: the profile's {@link SweepPlan}. */
        Spec plan(UnaryOperator<SweepPlan.Builder> steps) {
            this.plan = steps;
            return this;
        }

        Spec confirm(boolean on) {
            this.confirm = on;
            return this;
        }

        Spec refineSteps(int steps) {
            this.refineSteps = steps;
            return this;
        }

        Spec laterRepetitionStartFraction(double fraction) {
            if (!(fraction > 0 && fraction <= 1)) {
                throw new IllegalArgumentException("later repetition start fraction must be in (0, 1], got " + fraction);
            }
            this.laterRepetitionStartFraction = fraction;
            return this;
        }

        /** Later repetitions ramp every level from the start rate, like the first. */
        Spec everyRepetitionFromStartRate() {
            this.laterRepetitionStartFraction = null;
            return this;
        }
    }

    private static final class Levels {
        static final List<Integer> LEGACY =
                List.of(25, 50, 75, 100, 200, 300, 400, 500, 750, 1000, 1250, 1500, 2000);
    }
}
