package sockbench.client.stats;

import java.util.ArrayList;
import java.util.List;

/** The stop rules and the client-bound rule, as pure functions of a point's measurements. */
public final class PointRules {

    private PointRules() {
    }

    /**
     * Classifies a point.
     *
     * @param rtt              corrected round-trip times of the point
     * @param maxUncorrectedMs largest RTT from the actual send time, ms (null without samples)
     * @param lost             copies of the point's messages that had not arrived at the drain deadline
     * @param connectionErrors connections lost during the point
     */
    public static PointState classify(LatencySummary rtt, Double maxUncorrectedMs, long lost,
                                      long connectionErrors, Thresholds t) {
        boolean timedOut = lost > 0 || (maxUncorrectedMs != null && maxUncorrectedMs >= t.overloadTimeoutMs());
        if (timedOut || connectionErrors > 0 || (rtt.mean() != null && rtt.mean() >= t.overloadMeanMs())) {
            return PointState.OVERLOADED;
        }
        if (rtt.mean() != null && rtt.mean() >= t.okMeanMs()) {
            return PointState.SATURATED;
        }
        return PointState.OK;
    }

    /**
     * The fan-out verdict of an all-copies point, judged by EVERY copy rather than the sender's own:
     * overloaded when any copy was lost, a connection was lost, the largest uncorrected own RTT
     * reached the overload timeout, or the mean over all copies reached the overload mean;
     * saturated when the all-copies p99 reached the ok threshold ({@code okMeanMs}, 200 ms by
     * default: at thousands of sessions the slowest percent of recipients, not the average
     * sender, is where a broadcast stops being interactive); ok otherwise.
     *
     * @param fanout           latency of every copy from its message's due time
     * @param maxUncorrectedMs largest own RTT from the actual send time, ms (null without samples)
     * @param lost             copies of the point's messages that had not arrived at the drain deadline
     * @param connectionErrors connections lost during the point
     */
    public static PointState classifyFanout(LatencySummary fanout, Double maxUncorrectedMs, long lost,
                                            long connectionErrors, Thresholds t) {
        boolean timedOut = lost > 0 || (maxUncorrectedMs != null && maxUncorrectedMs >= t.overloadTimeoutMs());
        if (timedOut || connectionErrors > 0 || (fanout.mean() != null && fanout.mean() >= t.overloadMeanMs())) {
            return PointState.OVERLOADED;
        }
        if (fanout.p99() != null && fanout.p99() >= t.okMeanMs()) {
            return PointState.SATURATED;
        }
        return PointState.OK;
    }

    /**
     * Why a point measures the client rather than the server (empty when it does not).
     *
     * @param targetRate    scheduled send rate, messages/s
     * @param sentPerS      achieved send rate, messages/s
     * @param clientCpuPct  client process CPU over the window, percent of one core
     * @param clientCores   number of cores the client may run on, ≥ 1
     * @return subset of {@code send_rate}, {@code client_cpu}
     */
    public static List<String> clientBoundReasons(double targetRate, double sentPerS, double clientCpuPct,
                                                  int clientCores, Thresholds t) {
        List<String> reasons = new ArrayList<>(2);
        if (sentPerS < t.clientBoundRateRatio() * targetRate) {
            reasons.add("send_rate");
        }
        if (clientCpuPct >= t.clientBoundCpuRatio() * 100.0 * Math.max(1, clientCores)) {
            reasons.add("client_cpu");
        }
        return reasons;
    }

    /**
     * Whether the server's queue grew during the window: the mean corrected RTT of the messages
     * <em>due</em> in the window's second half exceeds the first half's by more than
     * max({@code backlogMinMs}, {@code backlogRatio} × first-half mean). A window just above
     * capacity can keep its overall mean under 200 ms while the queue grows; this catches it.
     *
     * @param firstHalfMeanMs  mean of the first half, ms (null without samples: no verdict, false)
     * @param secondHalfMeanMs mean of the second half, ms
     */
    public static boolean backlogGrowing(Double firstHalfMeanMs, Double secondHalfMeanMs, SearchRules r) {
        if (firstHalfMeanMs == null || secondHalfMeanMs == null) {
            return false;
        }
        double allowed = Math.max(r.backlogMinMs(), r.backlogRatio() * firstHalfMeanMs);
        return secondHalfMeanMs - firstHalfMeanMs > allowed;
    }

    /** 100 × received / expected, or null when nothing was expected. */
    public static Double deliveredPct(long received, long expected) {
        return expected <= 0 ? null : 100.0 * received / expected;
    }

    /**
     * The strict verdict: ok by mean, and not backlog-growing, and at least
     * {@code strictDeliveredPct} delivered inside the window, and not client-bound.
     */
    public static boolean okStrict(PointState state, boolean backlogGrowing, Double deliveredPct,
                                   boolean clientBound, SearchRules r) {
        return state == PointState.OK && !backlogGrowing && !clientBound
                && deliveredPct != null && deliveredPct >= r.strictDeliveredPct();
    }
}
