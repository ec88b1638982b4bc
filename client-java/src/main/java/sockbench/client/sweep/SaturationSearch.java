package sockbench.client.sweep;

import sockbench.client.plan.Ramp;
import sockbench.client.plan.SweepPlan;
import sockbench.client.stats.Phase;
import sockbench.client.stats.PointResult;
import sockbench.client.stats.PointState;
import sockbench.client.stats.SearchRules;

/**
 * Decides which point of a level to measure next, from the points measured so far (pure logic;
 * {@link Sweep} measures). The rules (results/README.md, "How a level is searched"):
 * <ol>
 *   <li>ramp the rate on the plan's grid from the level's start rate while points are ok;</li>
 *   <li>at the first point that is not ok, bisect geometrically between the last ok rate and it,
 *       {@code refineSteps} times;</li>
 *   <li>that first bad point is re-run once on fresh connections before it is believed (a single
 *       loopback stall must not end a level). The re-run is needed only when the refinement found
 *       no bad rate below it, i.e. when the knee would lie right under it; otherwise a bad refine
 *       point already bounds the knee and the re-run could not change the result. If the re-run is
 *       ok, the ramp goes on from there;</li>
 *   <li>a level whose very first point is not ok (no ok rate to bisect from) confirms it at once;
 *       if the level started above the profile's start rate (an adaptive or given start), it then
 *       re-ramps from the start rate instead of ending without a saturation.</li>
 * </ol>
 * Connections: a re-run (confirm) always runs on fresh connections, and so does any point after
 * an overloaded one (copies still missing at the drain deadline, a lost connection, or a mean RTT
 * ≥ 1.5 s: queues, a stalled socket or a slow-consumer flag may be left behind and must not decide
 * the next point). After an ok or merely saturated point every copy of its window has come back
 * during the drain, nothing is in flight, and the connections are reused, as on the ramp; reopening
 * 2,000 connections costs seconds that a sweep spends better on points.
 * The bracket after k steps is the grid factor to the power 1/2^k (×2 → ×1.044 after 4).
 *
 * <p>The climb's upper end is the level's {@link LevelCap}: when the next grid rate would exceed it,
 * the level ends there ({@code max_rate}, or {@code client_ceiling} when the cap is the client's
 * measured ceiling). Under a client ceiling the last ramp point is the cap itself, when it lies more
 * than the search's final bracket above the last ok rate: the floor is then reported at the client's
 * ceiling instead of up to a grid step below it. (A {@code max_rate} cap keeps the plain grid, as it
 * always has: it is a constant of the profile or the user, not a measurement.)
 */
public final class SaturationSearch {

    /**
     * One point to measure.
     *
     * @param rate  target rate, messages/s
     * @param phase why it is measured
     * @param fresh measure it on newly opened connections
     */
    public record Step(double rate, Phase phase, boolean fresh) {
    }

    private final SweepPlan plan;
    private final SearchRules rules;
    private final int concurrency;
    private final double levelStart;
    private final LevelCap cap;
    private Double lastOk;
    private double low;
    private double high;
    private int refinesLeft;
    private boolean refineFoundBad;
    /** The bad ramp rate that opened the current bracket, still to be confirmed, or null. */
    private Double unconfirmedHigh;
    private boolean fellBack;
    private String endReason;

    /** A level that starts at the plan's start rate. */
    public SaturationSearch(SweepPlan plan, SearchRules rules, int concurrency) {
        this(plan, rules, concurrency, plan.startRate());
    }

    /**
     * @param levelStart the level's first target rate, messages/s, &gt; 0 ({@link LevelStart})
     */
    public SaturationSearch(SweepPlan plan, SearchRules rules, int concurrency, double levelStart) {
        this(plan, rules, concurrency, levelStart, LevelCap.of(plan));
    }

    /**
     * @param levelStart the level's first target rate, messages/s, &gt; 0 ({@link LevelStart})
     * @param cap        where the level's climb ends if the server never gets there ({@link LevelCap})
     */
    public SaturationSearch(SweepPlan plan, SearchRules rules, int concurrency, double levelStart, LevelCap cap) {
        if (!(levelStart > 0)) {
            throw new IllegalArgumentException("level start rate must be > 0, got " + levelStart);
        }
        this.plan = plan;
        this.rules = rules;
        this.concurrency = concurrency;
        this.levelStart = levelStart;
        this.cap = cap;
        this.endReason = cap.reason();
    }

    /** The first point of the level. */
    public Step first() {
        return new Step(levelStart, Phase.RAMP, false);
    }

    /** Why the level ended (valid once {@link #next} returned null): overloaded, saturated, max_rate or client_ceiling. */
    public String endReason() {
        return endReason;
    }

    /** True when the level's start was not ok and it re-ramped from the plan's start rate. */
    public boolean fellBack() {
        return fellBack;
    }

    /**
     * @param p the point just measured (the step last returned)
     * @return the next point, or null when the level is done
     */
    public Step next(PointResult p) {
        double rate = p.targetRate();
        boolean dirty = p.state() == PointState.OVERLOADED;
        switch (p.phase()) {
            case RAMP -> {
                if (p.ok()) {
                    return ramp(rate);
                }
                endReason = reason(p);
                if (lastOk != null && rules.refineSteps() > 0) {
                    unconfirmedHigh = rules.confirm() ? rate : null;
                    return startRefine(lastOk, rate, dirty);
                }
                return rules.confirm() ? new Step(rate, Phase.CONFIRM, true) : believedBad(dirty);
            }
            case CONFIRM -> {
                if (p.ok()) {
                    return ramp(rate);
                }
                endReason = reason(p);
                return believedBad(dirty);
            }
            case REFINE -> {
                if (p.ok()) {
                    low = rate;
                } else {
                    high = rate;
                    refineFoundBad = true;
                }
                if (--refinesLeft > 0) {
                    return new Step(Math.sqrt(low * high), Phase.REFINE, dirty);
                }
                if (!refineFoundBad && unconfirmedHigh != null) {
                    double h = unconfirmedHigh;
                    unconfirmedHigh = null;
                    return new Step(h, Phase.CONFIRM, true);
                }
                return null;
            }
            default -> throw new IllegalStateException("unknown phase " + p.phase());
        }
    }

    private static String reason(PointResult p) {
        return p.state() == PointState.OVERLOADED ? "overloaded" : "saturated";
    }

    private Step ramp(double okRate) {
        lastOk = okRate;
        double next = plan.nextRate(okRate, concurrency);
        if (next > cap.rate() * (1 + 1e-9)) {
            if (cap.isCeiling() && cap.rate() > okRate * finalBracket()) {
                return new Step(cap.rate(), Phase.RAMP, false);
            }
            endReason = cap.reason();
            return null;
        }
        return new Step(next, Phase.RAMP, false);
    }

    /**
     * The ratio between the bracket's ends after the refine steps (geometric: the grid factor to the
     * power 1/2^k; the additive ramp: one step at this level over the rate), at least 1 + 1e-9: a
     * point closer than this above the last ok rate would tell nothing the refinement could.
     */
    private double finalBracket() {
        double grid = plan.ramp() == Ramp.GEOMETRIC ? plan.rateFactor()
                : 1 + SweepPlan.additiveStep(concurrency) / Math.max(lastOk, 1e-9);
        return Math.max(1 + 1e-9, Math.pow(grid, 1.0 / (1L << Math.min(rules.refineSteps(), 30))));
    }

    private Step startRefine(double okRate, double badRate, boolean fresh) {
        low = okRate;
        high = badRate;
        refinesLeft = rules.refineSteps();
        refineFoundBad = false;
        return new Step(Math.sqrt(low * high), Phase.REFINE, fresh);
    }

    /**
     * A bad point is believed: the level ends, unless no rate below it was ever tried because the
     * level started above the plan's start rate; then it re-ramps from there once.
     */
    private Step believedBad(boolean fresh) {
        if (lastOk == null && !fellBack && levelStart > plan.startRate()) {
            fellBack = true;
            return new Step(plan.startRate(), Phase.RAMP, fresh);
        }
        return null;
    }
}
