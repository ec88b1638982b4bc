package sockbench.client.sweep;

import sockbench.client.plan.SweepPlan;
import sockbench.client.stats.PointResult;
import sockbench.client.stats.SaturationPoint;

/**
 * What a {@link Sweep} reports while it runs. The sweep owns this interface and the printer
 * ({@code output/Progress}) implements it, so output depends on the sweep and never the other way.
 */
public interface SweepProgress {

    /**
     * @param searchPoints points a level measures after its ramp ends (confirm + refine steps), for an ETA
     * @param levelCap     where level n's climb ends if the server never gets there, sent msgs/s
     *                     ({@link SweepSettings#capFor}: the client's ceiling ÷ n, or the plan's max rate)
     */
    void sweepStarted(SweepPlan plan, int searchPoints, java.util.function.IntToDoubleFunction levelCap);

    /** A level's connections are open (or failed), after {@code seconds}. */
    void levelConnected(int n, int connected, int failed, double seconds);

    /** The level's sessions are held idle for {@code seconds} before its first point. */
    default void idleHold(int n, double seconds) {
    }

    /** Where the level's ramp starts; {@code profileStart} is the profile's start rate. */
    void levelStart(int n, double start, double profileStart);

    /** Agents connected / expected ("" = one process). */
    void agents(String status);

    /** Client-side efficiency of the point about to be reported: messages per read syscall. */
    void diagnostics(double messagesPerRead);

    /** One measured point of level {@code n}. */
    void point(int n, PointResult p, SweepPlan plan);

    /** The level ended for {@code endReason} with these saturation figures (null = none). */
    void levelDone(int n, SaturationPoint sat, SaturationPoint strict, String endReason);
}
