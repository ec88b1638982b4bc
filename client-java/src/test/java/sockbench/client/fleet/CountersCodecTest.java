package sockbench.client.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import sockbench.client.engine.PointCounters;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.stats.LatencySummary;

/** The agents' counters on the bus: counts by name, histograms in HdrHistogram's compressed encoding. */
class CountersCodecTest {

    @Test
    void twoAgentsHistogramsMergedEqualOneHistogramOfAllValues() {
        Random rnd = new Random(42);
        PointCounters a = new PointCounters();
        PointCounters b = new PointCounters();
        Histogram all = LatencySummary.newHistogram();
        for (int i = 0; i < 20_000; i++) {
            // Two different distributions, so a merge of summaries (means of percentiles) would be wrong.
            long va = 200 + (long) (rnd.nextExponential() * 1_000);
            long vb = 50_000 + (long) (rnd.nextGaussian() * 5_000 + 5_000);
            a.rttCorrectedMicros.recordValue(va);
            b.rttCorrectedMicros.recordValue(Math.max(1, vb));
            all.recordValue(va);
            all.recordValue(Math.max(1, vb));
        }
        PointCounters merged = new PointCounters();
        merged.add(CountersCodec.decode(CountersCodec.encode(a)));
        merged.add(CountersCodec.decode(CountersCodec.encode(b)));

        assertEquals(all.getTotalCount(), merged.rttCorrectedMicros.getTotalCount());
        for (double q : new double[] {0, 10, 50, 90, 99, 99.9, 100}) {
            assertEquals(all.getValueAtPercentile(q), merged.rttCorrectedMicros.getValueAtPercentile(q), "p" + q);
        }
        assertEquals(all.getMean(), merged.rttCorrectedMicros.getMean(), 1e-9);
        assertEquals(all, merged.rttCorrectedMicros, "value by value");
    }

    @Test
    void everyCountSurvivesTheTripAndAddsUp() {
        PointCounters a = new PointCounters();
        PointCounters b = new PointCounters();
        long v = 1;
        for (Count c : Count.values()) {
            a.add(c, v);
            b.add(c, 1000 * v);
            v++;
        }
        a.rttUncorrectedMicros.recordValue(1234);
        PointCounters merged = CountersCodec.decode(CountersCodec.encode(a));
        merged.add(CountersCodec.decode(CountersCodec.encode(b)));
        v = 1;
        for (Count c : Count.values()) {
            assertEquals(1001 * v, merged.get(c), c.name());
            v++;
        }
        assertEquals(1, merged.rttUncorrectedMicros.getTotalCount());
    }

    @Test
    void aBrokenEncodingIsAnErrorNotAnEmptyHistogram() {
        Map<String, String> fields = new java.util.HashMap<>(CountersCodec.encode(new PointCounters()));
        fields.put(CountersCodec.RTT, "bm90IGEgaGlzdG9ncmFt");
        assertThrows(IllegalArgumentException.class, () -> CountersCodec.decode(fields));
        fields.remove(CountersCodec.RTT);
        assertThrows(IllegalArgumentException.class, () -> CountersCodec.decode(fields));
    }
}
