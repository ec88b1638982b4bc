package sockbench.client.stats;

import java.util.Locale;

/** How the server coped with one point (see {@link PointRules}). */
public enum PointState {
    /** Mean corrected RTT below the ok threshold (200 ms). */
    OK,
    /** Mean corrected RTT at or above the ok threshold but the server still delivers everything in time. */
    SATURATED,
    /** A message not back in time, a connection lost, or mean RTT ≥ 1.5 s: the level ends here. */
    OVERLOADED,
    /**
     * An agent died or stopped answering before or during the point: its share is missing, so the
     * point says nothing about the server (neither ok nor a limit) and the sweep stops there.
     */
    AGENT_LOST;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
