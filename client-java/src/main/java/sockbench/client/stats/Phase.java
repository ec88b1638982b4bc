package sockbench.client.stats;

import java.util.Locale;

/** Why a point was measured (results/README.md, {@code points[].phase}). */
public enum Phase {
    /** A point of the rate grid. */
    RAMP,
    /** The re-run, on fresh connections, of the first grid point that was not ok. */
    CONFIRM,
    /**
     * A bisection step between the last ok and the first bad rate (on fresh connections when the point
     * before it was overloaded).
     */
    REFINE;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
