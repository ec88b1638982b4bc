package sockbench.client.fleet;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import sockbench.client.engine.CopyCompletion;
import sockbench.client.engine.PointCounters;
import sockbench.client.engine.PointCounters.Count;

/**
 * A point's counters as stream fields: every count by name, and each histogram (the RTTs, the
 * messages per frame and the per-connection mean messages per frame) in HdrHistogram's standard
 * compressed encoding, base64 ({@code encodeIntoCompressedByteBuffer}), so the coordinator adds
 * the agents' histograms value by value instead of averaging summaries. An all-copies point also
 * carries every copy's latency histogram and each measured message's copy count and slowest copy
 * ({@link IntArrays}), so the coordinator's completion of a message is the slowest copy over every
 * agent with the copies summed. A churn's reconnect times travel as a histogram too, and its
 * failures as reason counts, summed by reason.
 */
public final class CountersCodec {

    static final String RTT = "rtt";
    static final String RTT_UNCORRECTED = "rtt_uncorrected";
    static final String MESSAGES_PER_FRAME = "messages_per_frame";
    static final String CONNECTION_MEAN_HUNDREDTHS = "messages_per_frame_connection_mean_x100";
    static final String FANOUT = "fanout";
    /** All-copies points only: each measured message's copies and slowest copy (µs), int arrays deflated, base64. */
    static final String COMPLETION_COPIES = "completion_copies";
    static final String COMPLETION_SLOWEST_US = "completion_slowest_us";
    /** Churn: the reconnect-time histogram, and failures by reason ("count TAB reason" lines). */
    static final String CHURN_RECONNECT = "churn_reconnect";
    static final String CHURN_FAILURES = "churn_failures";
    private static final String COUNT = "count.";

    private CountersCodec() {
    }

    public static Map<String, String> encode(PointCounters c) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Count k : Count.values()) {
            out.put(COUNT + k.name(), Long.toString(c.get(k)));
        }
        out.put(RTT, encodeHistogram(c.rttCorrectedMicros));
        out.put(RTT_UNCORRECTED, encodeHistogram(c.rttUncorrectedMicros));
        out.put(MESSAGES_PER_FRAME, encodeHistogram(c.messagesPerFrame));
        out.put(CONNECTION_MEAN_HUNDREDTHS, encodeHistogram(c.connectionMeanHundredths));
        out.put(FANOUT, encodeHistogram(c.fanoutMicros));
        out.put(CHURN_RECONNECT, encodeHistogram(c.churnReconnectMicros));
        out.put(CHURN_FAILURES, FleetLoadEngine.encodeReasons(c.churnFailures));
        CopyCompletion completion = c.completion();
        if (completion != null) {
            out.put(COMPLETION_COPIES, IntArrays.encode(completion.copiesArray()));
            out.put(COMPLETION_SLOWEST_US, IntArrays.encode(completion.slowestMicrosArray()));
        }
        return out;
    }

    /** @throws IllegalArgumentException when a field is missing or not decodable */
    public static PointCounters decode(Map<String, String> fields) {
        PointCounters c = new PointCounters();
        for (Count k : Count.values()) {
            String v = fields.get(COUNT + k.name());
            if (v == null) {
                throw new IllegalArgumentException("missing field " + COUNT + k.name());
            }
            c.add(k, Long.parseLong(v));
        }
        c.rttCorrectedMicros.add(decodeHistogram(require(fields, RTT)));
        c.rttUncorrectedMicros.add(decodeHistogram(require(fields, RTT_UNCORRECTED)));
        c.messagesPerFrame.add(decodeHistogram(require(fields, MESSAGES_PER_FRAME)));
        c.connectionMeanHundredths.add(decodeHistogram(require(fields, CONNECTION_MEAN_HUNDREDTHS)));
        c.fanoutMicros.add(decodeHistogram(require(fields, FANOUT)));
        c.churnReconnectMicros.add(decodeHistogram(require(fields, CHURN_RECONNECT)));
        c.churnFailures.putAll(FleetLoadEngine.decodeReasons(fields.get(CHURN_FAILURES)));
        if (fields.containsKey(COMPLETION_COPIES)) {
            c.completion(CopyCompletion.of(IntArrays.decode(fields.get(COMPLETION_COPIES)),
                    IntArrays.decode(require(fields, COMPLETION_SLOWEST_US))));
        }
        return c;
    }

    public static String encodeHistogram(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        byte[] bytes = new byte[n];
        buf.flip();
        buf.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    public static Histogram decodeHistogram(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("not a compressed HdrHistogram: " + e.getMessage(), e);
        }
    }

    private static String require(Map<String, String> fields, String key) {
        String v = fields.get(key);
        if (v == null) {
            throw new IllegalArgumentException("missing field " + key);
        }
        return v;
    }
}
