package sockbench.client.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class StatsTest {

    static LatencySummary withMean(double meanMs) {
        Histogram h = LatencySummary.newHistogram();
        h.recordValue((long) (meanMs * 1000));
        return LatencySummary.of(h);
    }

    static final LatencySummary EMPTY = LatencySummary.of(LatencySummary.newHistogram());

    @Test
    void summaryIsInMillisecondsWithThreeSignificantDigits() {
        Histogram h = LatencySummary.newHistogram();
        for (int i = 1; i <= 1000; i++) {
            h.recordValue(i * 1000L); // 1 ms .. 1000 ms
        }
        LatencySummary s = LatencySummary.of(h);
        assertEquals(1000, s.count());
        assertEquals(500.5, s.mean(), 0.5);
        assertEquals(1.0, s.min(), 0.001);
        assertEquals(1000.0, s.max(), 1.0);
        assertEquals(500.0, s.p50(), 0.5);
        assertEquals(900.0, s.p90(), 0.9);
        assertEquals(990.0, s.p99(), 1.0);
        assertEquals(999.0, s.p999(), 1.0);
        assertEquals(288.7, s.stddev(), 0.5);
    }

    @Test
    void anEmptySummaryIsNullNotZero() {
        assertEquals(0, EMPTY.count());
        assertNull(EMPTY.mean());
        assertNull(EMPTY.p99());
        assertNull(EMPTY.max());
    }

    @Test
    void pointStates() {
        Thresholds t = Thresholds.DEFAULT;
        assertEquals(PointState.OK, PointRules.classify(withMean(199.9), 199.9, 0, 0, t));
        assertEquals(PointState.SATURATED, PointRules.classify(withMean(200), 200.0, 0, 0, t));
        assertEquals(PointState.SATURATED, PointRules.classify(withMean(1499), 1499.0, 0, 0, t));
        assertEquals(PointState.OVERLOADED, PointRules.classify(withMean(1502), 1502.0, 0, 0, t));
        assertEquals(PointState.OVERLOADED, PointRules.classify(withMean(1), 1.0, 1, 0, t), "a lost copy");
        assertEquals(PointState.OVERLOADED, PointRules.classify(withMean(1), 1.0, 0, 1, t), "a lost connection");
        assertEquals(PointState.OVERLOADED, PointRules.classify(withMean(100), 5000.0, 0, 0, t),
                "a message back only after 5 s");
        assertEquals(PointState.OK, PointRules.classify(EMPTY, null, 0, 0, t), "nothing sent, nothing wrong");
    }

    @Test
    void clientBoundRule() {
        Thresholds t = Thresholds.DEFAULT;
        assertEquals(List.of(), PointRules.clientBoundReasons(1000, 950, 50, 1, t));
        assertEquals(List.of("send_rate"), PointRules.clientBoundReasons(1000, 949, 50, 1, t));
        assertEquals(List.of("client_cpu"), PointRules.clientBoundReasons(1000, 1000, 90, 1, t));
        assertEquals(List.of(), PointRules.clientBoundReasons(1000, 1000, 179, 2, t), "90% of two cores is 180%");
        assertEquals(List.of("send_rate", "client_cpu"), PointRules.clientBoundReasons(1000, 10, 180, 2, t));
    }

    static PointResult point(double rate, double received, PointState state, boolean clientBound) {
        return PointResult.builder().targetRate(rate).durationS(3).sent((long) (rate * 3)).sentPerS(rate)
                .received((long) (received * 3)).receivedPerS(received).rtt(withMean(5)).rttUncorrected(withMean(4))
                .clientCpuPct(10).state(state).clientBoundReasons(clientBound ? List.of("client_cpu") : List.of())
                .phase(Phase.RAMP).deliveredPct(100.0).rttFirstHalfMeanMs(5.0).rttSecondHalfMeanMs(5.0)
                .okStrict(state == PointState.OK && !clientBound).build();
    }

    @Test
    void saturationIsTheOkPointWithTheHighestReceivedRate() {
        List<PointResult> points = List.of(
                point(10, 1000, PointState.OK, false),
                point(20, 3000, PointState.OK, true),
                point(30, 2500, PointState.OK, false),
                point(40, 9000, PointState.SATURATED, false),
                point(50, 1000, PointState.OVERLOADED, false));
        SaturationPoint s = SaturationPoint.of(points);
        assertEquals(20, s.targetRate());
        assertEquals(3000, s.receivedPerS());
        assertTrue(s.clientBound());
        assertEquals(5.0, s.rttMeanMs(), 0.01);
        assertNull(SaturationPoint.of(List.of(point(10, 1, PointState.SATURATED, false))));
    }
}
