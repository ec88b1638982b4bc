package sockbench.client.fleet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
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

    @Test
    void allCopiesFieldsSurviveTheTripAndTwoAgentsCompletionIsTheSlowestCopyWithCopiesSummed() {
        PointCounters a = new PointCounters();
        a.fanoutMicros.recordValue(1_000);
        a.fanoutMicros.recordValue(5_000);
        a.completion(sockbench.client.engine.CopyCompletion.of(new int[] {2, 2, 1}, new int[] {5_000, 800, 300}));
        PointCounters b = new PointCounters();
        b.fanoutMicros.recordValue(9_000);
        b.completion(sockbench.client.engine.CopyCompletion.of(new int[] {1, 1, 0}, new int[] {9_000, 700, 0}));

        PointCounters merged = new PointCounters();
        merged.add(CountersCodec.decode(CountersCodec.encode(a)));
        merged.add(CountersCodec.decode(CountersCodec.encode(b)));
        assertEquals(3, merged.fanoutMicros.getTotalCount());
        assertEquals(9_000, merged.fanoutMicros.getMaxValue(), 10);
        assertArrayEquals(new int[] {3, 3, 1}, merged.completion().copiesArray());
        assertArrayEquals(new int[] {9_000, 800, 300}, merged.completion().slowestMicrosArray());
    }

    @Test
    void twoAgentsChurnReconnectTimesMergeValueByValueAndFailuresAddByReason() {
        PointCounters a = new PointCounters();
        a.churnReconnectMicros.recordValue(2_000);
        a.churnFailures.put("Connection refused", 2);
        PointCounters b = new PointCounters();
        b.churnReconnectMicros.recordValue(30_000);
        b.churnFailures.put("Connection refused", 1);
        b.churnFailures.put("timeout", 4);

        PointCounters merged = new PointCounters();
        merged.add(CountersCodec.decode(CountersCodec.encode(a)));
        merged.add(CountersCodec.decode(CountersCodec.encode(b)));
        assertEquals(2, merged.churnReconnectMicros.getTotalCount());
        assertEquals(30_000, merged.churnReconnectMicros.getMaxValue(), 20);
        assertEquals(Map.of("Connection refused", 3, "timeout", 4), merged.churnFailures);
    }

    @Test
    void aPointWithoutAllCopiesCarriesNoCompletionArrays() {
        Map<String, String> fields = CountersCodec.encode(new PointCounters());
        assertFalse(fields.containsKey(CountersCodec.COMPLETION_COPIES));
        assertNull(CountersCodec.decode(fields).completion());
    }

    @Test
    void aFullSizeCompletionArrayOfEqualValuesIsSmallOnTheBus() {
        int[] copies = new int[sockbench.client.engine.CopyCompletion.MAX_TRACKED_MESSAGES];
        java.util.Arrays.fill(copies, 50_000);
        String field = IntArrays.encode(copies);
        assertTrue(field.length() < 20_000, "deflated: " + field.length() + " chars");
        assertArrayEquals(copies, IntArrays.decode(field));
        assertThrows(IllegalArgumentException.class, () -> IntArrays.decode("bm90IGRlZmxhdGU="));
    }
}
