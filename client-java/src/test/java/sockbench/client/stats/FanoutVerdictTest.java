package sockbench.client.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The fan-out verdict of an all-copies point judges every copy: a lost copy, a lost connection, an
 * own copy past the overload timeout or an all-copies mean past the overload mean overloads it; an
 * all-copies p99 at or past the ok threshold saturates it, whatever the own-copy mean says.
 */
class FanoutVerdictTest {

    private static final Thresholds T = Thresholds.DEFAULT; // ok 200 ms, overload mean 1500 ms, timeout 5000 ms

    /** Every copy's latency: {@code fast} copies at 1 ms and {@code slow} at {@code slowMs}. */
    private static LatencySummary copies(int fast, int slow, long slowMs) {
        Histogram h = LatencySummary.newHistogram();
        h.recordValueWithCount(1_000, fast);
        if (slow > 0) {
            h.recordValueWithCount(slowMs * 1000, slow);
        }
        return LatencySummary.of(h);
    }

    @Test
    void aTailOfSlowCopiesSaturatesThoughTheMeanIsLow() {
        LatencySummary tail = copies(980, 20, 300); // mean ~7 ms, p99 300 ms
        assertEquals(PointState.OK, PointRules.classify(tail, 5.0, 0, 0, T), "the own-mean rule would pass it");
        assertEquals(PointState.SATURATED, PointRules.classifyFanout(tail, 5.0, 0, 0, T));
    }

    @Test
    void aP99JustUnderTheOkThresholdIsOk() {
        assertEquals(PointState.OK, PointRules.classifyFanout(copies(980, 20, 190), 5.0, 0, 0, T));
    }

    @Test
    void anyLostCopyOrConnectionOrTimedOutOwnCopyOverloads() {
        LatencySummary fine = copies(1000, 0, 0);
        assertEquals(PointState.OVERLOADED, PointRules.classifyFanout(fine, 5.0, 1, 0, T), "one lost copy");
        assertEquals(PointState.OVERLOADED, PointRules.classifyFanout(fine, 5.0, 0, 1, T), "one lost connection");
        assertEquals(PointState.OVERLOADED, PointRules.classifyFanout(fine, 5000.0, 0, 0, T), "own copy at the timeout");
    }

    @Test
    void anAllCopiesMeanAtTheOverloadMeanOverloads() {
        assertEquals(PointState.OVERLOADED, PointRules.classifyFanout(copies(0, 10, 1600), 5.0, 0, 0, T));
    }

    @Test
    void noCopiesTimedIsOkUnlessSomethingWasLost() {
        LatencySummary none = LatencySummary.of(LatencySummary.newHistogram());
        assertEquals(PointState.OK, PointRules.classifyFanout(none, null, 0, 0, T));
        assertEquals(PointState.OVERLOADED, PointRules.classifyFanout(none, null, 3, 0, T));
    }

    @Test
    void completionCountsCompleteMessagesAndCallsTheRestIncomplete() {
        // 4 messages sent to 3 sessions: two complete (slowest copies 5 and 9 ms), one reached 2
        // sessions, one reached none; the fifth slot was never sent.
        int[] copies = {3, 2, 3, 0, 0};
        int[] slowest = {5_000, 7_000, 9_000, 0, 0};
        CompletionSummary c = CompletionSummary.of(copies, slowest, 3, 4);
        assertEquals(2, c.count());
        assertEquals(2, c.incomplete());
        assertEquals(9.0, c.max(), 0.01);
        assertEquals(5.0, c.p50(), 0.01);
        CompletionSummary unknownSent = CompletionSummary.of(copies, slowest, 3, -1);
        assertEquals(1, unknownSent.incomplete(), "without the sent count only the partial message is known");
        CompletionSummary none = CompletionSummary.of(new int[] {1}, new int[] {4_000}, 3, 1);
        assertEquals(0, none.count());
        assertNull(none.p99(), "no percentile without a complete message");
    }

    @Test
    void fanoutSaturationIsTheOkPointWithTheMostCopiesPerSecond() {
        PointResult low = point(10, 30_000, PointState.OK, 12.0);
        PointResult high = point(20, 60_000, PointState.OK, 150.0);
        PointResult bad = point(40, 90_000, PointState.SATURATED, 400.0);
        FanoutSaturation s = FanoutSaturation.of(List.of(low, high, bad));
        assertEquals(60_000, s.copiesPerS());
        assertEquals(20, s.targetRate());
        assertEquals(150.0, s.p99Ms());
        assertNull(FanoutSaturation.of(List.of(bad)));
    }

    private static PointResult point(double rate, double receivedPerS, PointState state, double p99) {
        LatencySummary fanout = new LatencySummary(100, 1.0, 1.0, 0.1, 1.0, 2.0, p99, p99, p99);
        return PointResult.builder().targetRate(rate).receivedPerS(receivedPerS).state(state).phase(Phase.RAMP)
                .rtt(fanout).rttUncorrected(fanout).fanout(fanout).build();
    }
}
