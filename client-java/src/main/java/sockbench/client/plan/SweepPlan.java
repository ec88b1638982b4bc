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
 * @param allCopies  time every copy every session receives (not only the sender's own) and judge points by
 *                   the fan-out verdict ({@code stats/PointRules#classifyFanout}); false = today's own-copy verdict
 * @param idleHoldS  seconds each level's sessions are held idle after connecting, before the first point
 *                   (memory per session, idle CPU, heartbeats), 0..{@value #MAX_IDLE_HOLD_S}; 0 = no hold
 * @param connectRatePerS new connections started per second while a level opens, 0..{@value #MAX_CONNECT_RATE_PER_S}
 *                   connects/s, paced across the I/O threads; 0 = unpaced (only the connect concurrency limits it)
 * @param churnPct   percent of each level's sessions that close and reconnect once a second while its
 *                   broadcast ramp runs ({@code engine/ChurnPool}), 0 &lt; x ≤ {@value #MAX_CHURN_PCT}; 0 = no churn.
 *                   Not a profile's field: a run's choice ({@code --churn}), recorded in parameters
 */
public record SweepPlan(String profile, List<Integer> levels, Ramp ramp, double rateFactor,
                        double startRate, double stepS, double settleS, double warmupS, double maxRate,
                        Double nextLevelStartFraction, boolean allCopies, double idleHoldS, double connectRatePerS,
                        double churnPct) {

    /** Upper bound of {@code idleHoldS}, seconds (an hour: longer holds are a soak test, not a sweep). */
    public static final int MAX_IDLE_HOLD_S = 3600;
    /** Upper bound of {@code connectRatePerS}, connects/s. */
    public static final int MAX_CONNECT_RATE_PER_S = 1_000_000;
    /** Upper bound of {@code churnPct}, percent: beyond half, the steady "others" would be the minority. */
    public static final int MAX_CHURN_PCT = 50;

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
        if (!(idleHoldS >= 0 && idleHoldS <= MAX_IDLE_HOLD_S)) {
            throw new IllegalArgumentException("idle hold must be 0.." + MAX_IDLE_HOLD_S + " s, got " + idleHoldS);
        }
        if (!(connectRatePerS >= 0 && connectRatePerS <= MAX_CONNECT_RATE_PER_S)) {
            throw new IllegalArgumentException("connect rate must be 0.." + MAX_CONNECT_RATE_PER_S
                    + " connects/s (0 = unpaced), got " + connectRatePerS);
        }
        if (!(churnPct >= 0 && churnPct <= MAX_CHURN_PCT)) {
            throw new IllegalArgumentException("churn must be 0 < PCT <= " + MAX_CHURN_PCT
                    + " (percent of each level's sessions per second; 0 = none), got " + churnPct);
        }
    }

    /** The verdict the result records: {@code all_copies_p99} with all-copies timing, else {@code own_mean}. */
    public String verdict() {
        return allCopies ? "all_copies_p99" : "own_mean";
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
        return toBuilder().levels(newLevels).build();
    }

    /** Same plan with every level starting at {@code startRate} ({@code --no-adaptive-start}). */
    public SweepPlan withoutAdaptiveStart() {
        return toBuilder().nextLevelStartFraction(null).build();
    }

    /** A plan named {@code profile}, every field set by name ({@link Builder#build} checks them). */
    public static Builder builder(String profile) {
        return new Builder().profile(profile);
    }

    /** This plan's fields in a builder, to change some by name. */
    public Builder toBuilder() {
        return new Builder().profile(profile).levels(levels).ramp(ramp).rateFactor(rateFactor).startRate(startRate)
                .stepS(stepS).settleS(settleS).warmupS(warmupS).maxRate(maxRate)
                .nextLevelStartFraction(nextLevelStartFraction).allCopies(allCopies).idleHoldS(idleHoldS)
                .connectRatePerS(connectRatePerS).churnPct(churnPct);
    }

    /**
     * Named steps instead of ten positional numbers; units and ranges as in the record. A field
     * left unset is NaN (or null) and fails the record's checks, so none can be forgotten silently;
     * the sessions fields (all copies, idle hold, connect pacing) default to off, today's behaviour.
     */
    public static final class Builder {
        private String profile;
        private List<Integer> levels = List.of();
        private Ramp ramp = Ramp.GEOMETRIC;
        private double rateFactor = Double.NaN;
        private double startRate = Double.NaN;
        private double stepS = Double.NaN;
        private double settleS = Double.NaN;
        private double warmupS = Double.NaN;
        private double maxRate = Double.NaN;
        private Double nextLevelStartFraction;
        private boolean allCopies;
        private double idleHoldS;
        private double connectRatePerS;
        private double churnPct;

        private Builder() {
        }

        public Builder profile(String name) {
            this.profile = name;
            return this;
        }

        public Builder levels(List<Integer> n) {
            this.levels = n;
            return this;
        }

        public Builder levels(Integer... n) {
            return levels(List.of(n));
        }

        public Builder ramp(Ramp r) {
            this.ramp = r;
            return this;
        }

        /** The geometric ramp with this multiplier. */
        public Builder geometric(double factor) {
            return ramp(Ramp.GEOMETRIC).rateFactor(factor);
        }

        /** The additive ramp, + max(1, 1000/N) per step (no multiplier). */
        public Builder additive() {
            return ramp(Ramp.ADDITIVE).rateFactor(0);
        }

        public Builder rateFactor(double x) {
            this.rateFactor = x;
            return this;
        }

        public Builder startRate(double msgPerS) {
            this.startRate = msgPerS;
            return this;
        }

        public Builder maxRate(double msgPerS) {
            this.maxRate = msgPerS;
            return this;
        }

        public Builder stepS(double seconds) {
            this.stepS = seconds;
            return this;
        }

        public Builder settleS(double seconds) {
            this.settleS = seconds;
            return this;
        }

        public Builder warmupS(double seconds) {
            this.warmupS = seconds;
            return this;
        }

        /** null = every level starts at the start rate. */
        public Builder nextLevelStartFraction(Double fraction) {
            this.nextLevelStartFraction = fraction;
            return this;
        }

        /** Time every copy and judge by the fan-out verdict; default false. */
        public Builder allCopies(boolean on) {
            this.allCopies = on;
            return this;
        }

        /** Idle hold after each level connects, seconds, 0..3600; default 0. */
        public Builder idleHoldS(double seconds) {
            this.idleHoldS = seconds;
            return this;
        }

        /** Connects started per second, 0..1,000,000; default 0 (unpaced). */
        public Builder connectRatePerS(double perS) {
            this.connectRatePerS = perS;
            return this;
        }

        /** Churn, percent of each level's sessions per second, 0..50; default 0 (none). */
        public Builder churnPct(double pct) {
            this.churnPct = pct;
            return this;
        }

        public SweepPlan build() {
            return new SweepPlan(profile, levels, ramp, rateFactor, startRate, stepS, settleS, warmupS, maxRate,
                    nextLevelStartFraction, allCopies, idleHoldS, connectRatePerS, churnPct);
        }
    }
}
