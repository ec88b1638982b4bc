package sockbench.client.bench;

import sockbench.client.plan.SweepPlan;
import sockbench.client.stats.Phase;
import sockbench.client.stats.PointResult;
import sockbench.client.stats.PointState;
import sockbench.client.stats.SearchRules;

/**
 * Decides which point of a level to measure next, from the points measured so far (pure logic;
 * {@link Sweep} measures). The rules (results/README.md, "How a level is searched"):
 * <ol>
 *   <li>ramp the rate on the plan's grid while points are ok;</li>
 *   <li>the first point that is not ok is re-run once on fresh connections (a single loopback
 *       stall must not end a level); if the re-run is ok, the ramp goes on from there;</li>
 *   <li>otherwise bisect geometrically between the last ok rate and the first bad one,
 *       {@code refineSteps} times, each step on fresh connections; then the level ends.</li>
 * </ol>
 * The bracket after k steps is the grid factor to the power 1/2^k (×1.25 → ×1.028 after 3).
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
    private Double lastOk;
    private double low;
    private double high;
    private int refinesLeft;
    private String endReason = "max_rate";

    public SaturationSearch(SweepPlan plan, SearchRules rules, int concurrency) {
        this.plan = plan;
        this.rules = rules;
        this.concurrency = concurrency;
    }

    /** The first point of the level. */
    public Step first() {
        return new Step(plan.startRate(), Phase.RAMP, false);
    }

    /** Why the level ended (valid once {@link #next} returned null): overloaded, saturated or max_rate. */
    public String endReason() {
        return endReason;
    }

    /**
     * @param p the point just measured (the step last returned)
     * @return the next point, or null when the level is done
     */
    public Step next(PointResult p) {
        double rate = p.targetRate();
        switch (p.phase()) {
            case RAMP -> {
                if (p.ok()) {
                    return ramp(rate);
                }
                return rules.confirm() ? new Step(rate, Phase.CONFIRM, true) : bad(p);
            }
            case CONFIRM -> {
                return p.ok() ? ramp(rate) : bad(p);
            }
            case REFINE -> {
                if (p.ok()) {
                    low = rate;
                } else {
                    high = rate;
                }
                return --refinesLeft > 0 ? new Step(Math.sqrt(low * high), Phase.REFINE, true) : null;
            }
            default -> throw new IllegalStateException("unknown phase " + p.phase());
        }
    }

    private Step ramp(double okRate) {
        lastOk = okRate;
        double next = plan.nextRate(okRate, concurrency);
        if (next > plan.maxRate() * (1 + 1e-9)) {
            endReason = "max_rate";
            return null;
        }
        return new Step(next, Phase.RAMP, false);
    }

    /** The first not-ok point is believed: end here, or refine between the last ok rate and it. */
    private Step bad(PointResult p) {
        endReason = p.state() == PointState.OVERLOADED ? "overloaded" : "saturated";
        if (lastOk == null || rules.refineSteps() == 0) {
            return null;
        }
        low = lastOk;
        high = p.targetRate();
        refinesLeft = rules.refineSteps();
        return new Step(Math.sqrt(low * high), Phase.REFINE, true);
    }
}
