package sockbench.client.plan;

/** How the target rate grows from one point to the next within a level. */
public enum Ramp {
    /** rate × {@code rate_factor} each step. */
    GEOMETRIC,
    /** rate + max(1, 1000 / N) each step (integer division, as the original Java client did). */
    ADDITIVE;

    /** The name used in result files. */
    public String jsonName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
