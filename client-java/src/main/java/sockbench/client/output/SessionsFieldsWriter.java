package sockbench.client.output;

import static sockbench.client.output.JsonFields.counts;
import static sockbench.client.output.JsonFields.latency;
import static sockbench.client.output.JsonFields.nullableLong;
import static sockbench.client.output.JsonFields.nullableNumber;
import static sockbench.client.output.JsonFields.round;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import sockbench.client.plan.SweepPlan;
import sockbench.client.stats.ChurnRecord;
import sockbench.client.stats.CompletionSummary;
import sockbench.client.stats.ConnectRecord;
import sockbench.client.stats.FanoutSaturation;
import sockbench.client.stats.IdleRecord;
import sockbench.client.stats.LatencySummary;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.PointResult;

/**
 * The result's fields of many-session runs (docs/sessions.md; results/README.md, "Sessions"): the
 * plan's session settings, a level's connect, idle hold and fan-out saturation, a point's every-copy
 * latency, completion and churn. Each is written only when the run has it, so a run without them
 * writes exactly what it wrote before they existed.
 */
final class SessionsFieldsWriter {

    private SessionsFieldsWriter() {
    }

    /** The plan's session settings in {@code parameters}; {@code churn_pct} only for a churn run. */
    static void parameters(JsonGenerator g, SweepPlan p) throws IOException {
        g.writeBooleanField("all_copies", p.allCopies());
        g.writeStringField("verdict", p.verdict());
        g.writeNumberField("idle_hold_s", p.idleHoldS());
        g.writeNumberField("connect_rate_per_s", p.connectRatePerS());
        if (p.churnPct() > 0) {
            g.writeNumberField("churn_pct", p.churnPct());
        }
    }

    /** A level's connect, idle and fan-out saturation records, those it has. */
    static void level(JsonGenerator g, LevelResult l) throws IOException {
        if (l.connect() != null) {
            connect(g, l.connect());
        }
        if (l.idle() != null) {
            idle(g, l.idle());
        }
        if (l.writeFanoutSaturation()) {
            fanoutSaturation(g, l.fanoutSaturation());
        }
    }

    /** A point's every-copy latency, completion and churn, those it has. */
    static void point(JsonGenerator g, PointResult p) throws IOException {
        if (p.fanout() != null) { // all-copies points only
            latency(g, "fanout_ms", p.fanout());
        }
        if (p.completion() != null) {
            completion(g, p.completion());
        }
        if (p.churn() != null) {
            churn(g, p.churn());
        }
    }

    private static void connect(JsonGenerator g, ConnectRecord c) throws IOException {
        g.writeObjectFieldStart("connect");
        nullableNumber(g, "rate_per_s", c.ratePerS());
        nullableNumber(g, "achieved_per_s", c.achievedPerS());
        counts(g, "failures", c.failures());
        g.writeEndObject();
    }

    private static void idle(JsonGenerator g, IdleRecord i) throws IOException {
        g.writeObjectFieldStart("idle");
        g.writeNumberField("hold_s", round(i.holdS()));
        g.writeNumberField("connections_lost", i.connectionsLost());
        g.writeNumberField("heartbeats", i.heartbeats());
        nullableNumber(g, "server_cpu_pct", i.serverCpuPct());
        nullableLong(g, "server_rss_bytes", i.serverRssBytes());
        nullableLong(g, "server_rss_baseline_bytes", i.serverRssBaselineBytes());
        nullableNumber(g, "server_bytes_per_session", i.serverBytesPerSession());
        nullableLong(g, "client_rss_bytes", i.clientRssBytes());
        nullableLong(g, "client_rss_baseline_bytes", i.clientRssBaselineBytes());
        nullableNumber(g, "client_bytes_per_session", i.clientBytesPerSession());
        counts(g, "lost_reasons", i.lostReasons());
        g.writeEndObject();
    }

    private static void fanoutSaturation(JsonGenerator g, FanoutSaturation f) throws IOException {
        if (f == null) {
            g.writeNullField("fanout_saturation");
            return;
        }
        g.writeObjectFieldStart("fanout_saturation");
        g.writeNumberField("copies_per_s", round(f.copiesPerS()));
        g.writeNumberField("target_rate", round(f.targetRate()));
        nullableNumber(g, "p99_ms", f.p99Ms());
        g.writeEndObject();
    }

    private static void completion(JsonGenerator g, CompletionSummary c) throws IOException {
        g.writeObjectFieldStart("completion_ms");
        g.writeNumberField("count", c.count());
        g.writeNumberField("incomplete", c.incomplete());
        nullableNumber(g, "p50", c.p50());
        nullableNumber(g, "p90", c.p90());
        nullableNumber(g, "p99", c.p99());
        nullableNumber(g, "max", c.max());
        g.writeEndObject();
    }

    private static void churn(JsonGenerator g, ChurnRecord c) throws IOException {
        g.writeObjectFieldStart("churn");
        g.writeNumberField("pool", c.pool());
        g.writeNumberField("closes", c.closes());
        g.writeNumberField("reconnects", c.reconnects());
        g.writeNumberField("connects_per_s", round(c.connectsPerS()));
        counts(g, "failures", c.failures());
        LatencySummary r = c.reconnectMs();
        g.writeObjectFieldStart("reconnect_ms");
        g.writeNumberField("count", r.count());
        nullableNumber(g, "p50", r.p50());
        nullableNumber(g, "p90", r.p90());
        nullableNumber(g, "p99", r.p99());
        nullableNumber(g, "max", r.max());
        g.writeEndObject();
        g.writeEndObject();
    }
}
