package sockbench.client.stats;

/**
 * How a level's saturation is searched and judged beyond the per-point state
 * (results/README.md, parameters {@code confirm} … {@code steal_warn_pct}).
 *
 * @param confirm            re-run the first not-ok point once on fresh connections before believing it
 * @param refineSteps        geometric bisection steps between the last ok and the first bad rate, 0..20
 *                           (each halves the bracket's log width: 3 steps turn ×1.25 into ×1.028)
 * @param backlogMinMs       backlog rule: the window's second-half mean RTT must exceed the first half's by
 *                           more than max(this, backlogRatio × first-half mean), ms, ≥ 0 (default 20)
 * @param backlogRatio       see backlogMinMs, ≥ 0 (default 0.5)
 * @param strictDeliveredPct saturation_strict needs at least this percent of the window's expected copies
 *                           delivered inside it, 0..100 (default 97)
 * @param stealWarnPct       warn when a point's hypervisor steal exceeds this percent, 0..100 (default 5)
 */
public record SearchRules(boolean confirm, int refineSteps, double backlogMinMs, double backlogRatio,
                          double strictDeliveredPct, double stealWarnPct) {

    /** Default of {@code backlogMinMs}, ms. */
    public static final double BACKLOG_MIN_MS = 20;
    /** Default of {@code backlogRatio}. */
    public static final double BACKLOG_RATIO = 0.5;
    /** Default of {@code strictDeliveredPct}, percent. */
    public static final double STRICT_DELIVERED_PCT = 97;
    /** Default of {@code stealWarnPct}, percent. */
    public static final double STEAL_WARN_PCT = 5;

    /** Confirm on, 3 refine steps (a profile sets its own), and the constants above. */
    public static final SearchRules DEFAULT = new SearchRules(true, 3, BACKLOG_MIN_MS, BACKLOG_RATIO,
            STRICT_DELIVERED_PCT, STEAL_WARN_PCT);

    public SearchRules {
        if (refineSteps < 0 || refineSteps > 20) {
            throw new IllegalArgumentException("refine steps must be 0..20");
        }
        if (!(backlogMinMs >= 0) || !(backlogRatio >= 0)) {
            throw new IllegalArgumentException("backlog thresholds must be >= 0");
        }
        if (!(strictDeliveredPct >= 0 && strictDeliveredPct <= 100) || !(stealWarnPct >= 0 && stealWarnPct <= 100)) {
            throw new IllegalArgumentException("percentages must be 0..100");
        }
    }

    /** Same rules with another number of refinement steps. */
    public SearchRules withRefineSteps(int steps) {
        return new SearchRules(confirm, steps, backlogMinMs, backlogRatio, strictDeliveredPct, stealWarnPct);
    }

    /** Same rules with confirmation on or off. */
    public SearchRules withConfirm(boolean on) {
        return new SearchRules(on, refineSteps, backlogMinMs, backlogRatio, strictDeliveredPct, stealWarnPct);
    }
}
