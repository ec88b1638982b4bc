package sockbench.client.output;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import sockbench.client.stats.LatencySummary;

/**
 * How the result file writes its recurring shapes: numbers rounded to what they carry, null for
 * what was not measured (never 0), latency objects, lists and reason counts. Shared by the
 * writers of the result's parts, so every part writes them the same way.
 */
final class JsonFields {

    private JsonFields() {
    }

    /** Three decimals are more than the measurements carry; keeps files readable. */
    static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }

    static void nullableNumber(JsonGenerator g, String name, Double v) throws IOException {
        if (v == null || v.isNaN() || v.isInfinite()) {
            g.writeNullField(name);
        } else {
            g.writeNumberField(name, round(v));
        }
    }

    static void nullableLong(JsonGenerator g, String name, Long v) throws IOException {
        if (v == null) {
            g.writeNullField(name);
        } else {
            g.writeNumberField(name, v);
        }
    }

    static void nullableString(JsonGenerator g, String name, String v) throws IOException {
        if (v == null) {
            g.writeNullField(name);
        } else {
            g.writeStringField(name, v);
        }
    }

    static void ints(JsonGenerator g, String name, List<Integer> values) throws IOException {
        g.writeArrayFieldStart(name);
        for (int v : values) {
            g.writeNumber(v);
        }
        g.writeEndArray();
    }

    static void strings(JsonGenerator g, String name, List<String> values) throws IOException {
        g.writeArrayFieldStart(name);
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
    }

    /** {@code {reason: count, ...}} in the map's order; {@code {}} when empty. */
    static void counts(JsonGenerator g, String name, Map<String, Integer> byReason) throws IOException {
        g.writeObjectFieldStart(name);
        for (Map.Entry<String, Integer> e : byReason.entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }

    /** A latency object: count, mean, stddev, min, p50, p90, p99, p999, max (ms; null without samples). */
    static void latency(JsonGenerator g, String name, LatencySummary l) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("count", l.count());
        nullableNumber(g, "mean", l.mean());
        nullableNumber(g, "stddev", l.stddev());
        nullableNumber(g, "min", l.min());
        nullableNumber(g, "p50", l.p50());
        nullableNumber(g, "p90", l.p90());
        nullableNumber(g, "p99", l.p99());
        nullableNumber(g, "p999", l.p999());
        nullableNumber(g, "max", l.max());
        g.writeEndObject();
    }
}
