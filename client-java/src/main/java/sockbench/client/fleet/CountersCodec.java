package sockbench.client.fleet;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import sockbench.client.engine.PointCounters;
import sockbench.client.engine.PointCounters.Count;

/**
 * A point's counters as stream fields: every count by name, and each RTT histogram in
 * HdrHistogram's standard compressed encoding, base64 ({@code encodeIntoCompressedByteBuffer}),
 * so the coordinator adds the agents' histograms value by value instead of averaging summaries.
 */
public final class CountersCodec {

    static final String RTT = "rtt";
    static final String RTT_UNCORRECTED = "rtt_uncorrected";
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
