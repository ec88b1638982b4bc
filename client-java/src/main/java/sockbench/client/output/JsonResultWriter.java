package sockbench.client.output;

import static sockbench.client.output.JsonFields.ints;
import static sockbench.client.output.JsonFields.latency;
import static sockbench.client.output.JsonFields.nullableNumber;
import static sockbench.client.output.JsonFields.nullableString;
import static sockbench.client.output.JsonFields.round;
import static sockbench.client.output.JsonFields.strings;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import sockbench.client.sweep.AgentRecord;
import sockbench.client.sweep.ClientInfo;
import sockbench.client.sweep.RunResult;
import sockbench.client.sweep.SweepSettings;
import sockbench.client.stats.AgentPointResult;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.MessagesPerFrame;
import sockbench.client.stats.PointResult;
import sockbench.client.stats.SaturationPoint;
import sockbench.client.stats.TransportPointResult;

/**
 * The result file, schema {@link RunResult#SCHEMA} (results/schema.json, results/README.md): the run,
 * its machine, client, server, parameters, levels, points and warnings. The many-session fields are
 * {@link SessionsFieldsWriter}'s.
 */
public final class JsonResultWriter implements ResultWriter {

    /** Shared with the flot writer; the generator must not close the caller's writer. */
    static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(com.fasterxml.jackson.core.StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    @Override
    public void write(RunResult r, Writer out) throws IOException {
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("schema", RunResult.SCHEMA);
            g.writeStringField("run_id", r.runId());
            g.writeStringField("label", r.label());
            g.writeStringField("started_at", iso(r.startedAt()));
            g.writeStringField("finished_at", iso(r.finishedAt()));
            g.writeNumberField("duration_s", round(Duration.between(r.startedAt(), r.finishedAt()).toMillis() / 1000.0));

            var m = r.machine();
            g.writeObjectFieldStart("machine");
            g.writeStringField("hostname", m.hostname());
            g.writeStringField("cpu_model", m.cpuModel());
            g.writeNumberField("cores", m.cores());
            g.writeStringField("kernel", m.kernel());
            g.writeNumberField("memory_bytes", m.memoryBytes());
            g.writeStringField("os", m.os());
            g.writeEndObject();

            var c = r.client();
            g.writeObjectFieldStart("client");
            g.writeStringField("name", c.name());
            g.writeStringField("version", c.version());
            g.writeStringField("jvm_version", c.jvmVersion());
            g.writeStringField("jvm_vendor", c.jvmVendor());
            g.writeStringField("transport", c.transport());
            ints(g, "cpus", c.cpus());
            g.writeNumberField("io_threads", c.ioThreads());
            g.writeNumberField("max_heap_bytes", c.maxHeapBytes());
            if (c.fleetRunId() != null) {
                agents(g, c);
            }
            g.writeEndObject();

            var s = r.server();
            g.writeObjectFieldStart("server");
            g.writeStringField("name", s.name());
            g.writeBooleanField("peer", s.peer());
            g.writeStringField("runtime", s.runtime());
            g.writeStringField("runtime_version", s.runtimeVersion());
            nullableString(g, "codec", s.codec());
            nullableString(g, "mode", s.mode());
            g.writeStringField("url", s.url());
            if (s.pid() == null) {
                g.writeNullField("pid");
            } else {
                g.writeNumberField("pid", s.pid());
            }
            ints(g, "cpus", s.cpus());
            g.writeObjectFieldStart("ready");
            for (Map.Entry<String, String> e : s.ready().entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();

            g.writeObjectFieldStart("pinning");
            ints(g, "server_cpus", s.cpus());
            ints(g, "client_cpus", c.cpus());
            g.writeBooleanField("shared", r.sharedCpus());
            g.writeEndObject();

            parameters(g, r.settings());

            g.writeArrayFieldStart("levels");
            for (LevelResult l : r.levels()) {
                level(g, l);
            }
            g.writeEndArray();

            g.writeArrayFieldStart("warnings");
            for (String w : r.warnings()) {
                g.writeString(w);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        out.write('\n');
    }

    private static void parameters(JsonGenerator g, SweepSettings st) throws IOException {
        var p = st.plan();
        var t = st.thresholds();
        g.writeObjectFieldStart("parameters");
        g.writeStringField("profile", p.profile());
        ints(g, "levels", p.levels());
        g.writeStringField("ramp", p.ramp().jsonName());
        if (p.ramp() == sockbench.client.plan.Ramp.GEOMETRIC) {
            g.writeNumberField("rate_factor", p.rateFactor());
        } else {
            g.writeNullField("rate_factor");
        }
        nullableString(g, "rate_step", p.rateStepRule());
        g.writeNumberField("start_rate", p.startRate());
        g.writeNumberField("step_s", p.stepS());
        g.writeNumberField("settle_s", p.settleS());
        g.writeNumberField("warmup_s", p.warmupS());
        g.writeNumberField("max_rate", p.maxRate());
        g.writeNumberField("ok_mean_ms", t.okMeanMs());
        g.writeNumberField("overload_mean_ms", t.overloadMeanMs());
        g.writeNumberField("overload_timeout_ms", t.overloadTimeoutMs());
        g.writeNumberField("connect_timeout_s", st.connectTimeoutS());
        g.writeNumberField("client_bound_rate_ratio", t.clientBoundRateRatio());
        g.writeNumberField("client_bound_cpu_ratio", t.clientBoundCpuRatio());
        g.writeNumberField("payload_bytes", st.payloadBytes());
        var s = st.search();
        g.writeBooleanField("confirm", s.confirm());
        g.writeNumberField("refine_steps", s.refineSteps());
        g.writeNumberField("backlog_min_ms", s.backlogMinMs());
        g.writeNumberField("backlog_ratio", s.backlogRatio());
        g.writeNumberField("strict_delivered_pct", s.strictDeliveredPct());
        g.writeNumberField("steal_warn_pct", s.stealWarnPct());
        g.writeStringField("transports", st.transports().spec());
        g.writeStringField("compression", st.compression().userName());
        SessionsFieldsWriter.parameters(g, p);
        SlowClientsWriter.parameters(g, st.slowReaders());
        g.writeEndObject();
    }

    private static void level(JsonGenerator g, LevelResult l) throws IOException {
        g.writeStartObject();
        g.writeNumberField("concurrency", l.concurrency());
        g.writeNumberField("connected", l.connected());
        g.writeNumberField("connect_errors", l.connectErrors());
        g.writeNumberField("connect_s", round(l.connectS()));
        if (l.startRate() != null) { // optional: absent when the level never measured
            g.writeNumberField("start_rate", round(l.startRate()));
        }
        // The client's ceiling for the level (LevelCap); null = not known, the plan's max rate capped it.
        if (l.clientCeilingPerS() == null) {
            g.writeNullField("client_ceiling_per_s");
        } else {
            g.writeNumberField("client_ceiling_per_s", round(l.clientCeilingPerS()));
        }
        g.writeArrayFieldStart("points");
        for (PointResult p : l.points()) {
            point(g, p);
        }
        g.writeEndArray();
        saturation(g, "saturation", l.saturation());
        saturation(g, "saturation_strict", l.saturationStrict());
        g.writeStringField("end_reason", l.endReason());
        SessionsFieldsWriter.level(g, l);
        if (l.agents() != null) {
            g.writeNumberField("agents", l.agents());
        }
        g.writeEndObject();
    }

    private static void saturation(JsonGenerator g, String name, SaturationPoint sat) throws IOException {
        if (sat == null) {
            g.writeNullField(name);
            return;
        }
        g.writeObjectFieldStart(name);
        g.writeNumberField("target_rate", round(sat.targetRate()));
        g.writeNumberField("received_per_s", round(sat.receivedPerS()));
        g.writeNumberField("sent_per_s", round(sat.sentPerS()));
        g.writeNumberField("rtt_mean_ms", round(sat.rttMeanMs()));
        g.writeBooleanField("client_bound", sat.clientBound());
        nullableNumber(g, "upper_target_rate", sat.upperTargetRate());
        nullableNumber(g, "grid_error_pct", sat.gridErrorPct());
        nullableNumber(g, "server_cpu_pct", sat.serverCpuPct());
        nullableNumber(g, "client_cpu_pct", sat.clientCpuPct());
        g.writeEndObject();
    }

    private static void point(JsonGenerator g, PointResult p) throws IOException {
        g.writeStartObject();
        g.writeNumberField("target_rate", round(p.targetRate()));
        g.writeNumberField("duration_s", round(p.durationS()));
        g.writeNumberField("sent", p.sent());
        g.writeNumberField("sent_per_s", round(p.sentPerS()));
        g.writeNumberField("received", p.received());
        g.writeNumberField("received_per_s", round(p.receivedPerS()));
        g.writeNumberField("expected_received", p.expectedReceived());
        g.writeNumberField("lost", p.lost());
        g.writeNumberField("connection_errors", p.connectionErrors());
        latency(g, "rtt_ms", p.rtt());
        latency(g, "rtt_uncorrected_ms", p.rttUncorrected());
        g.writeNumberField("client_cpu_pct", round(p.clientCpuPct()));
        nullableNumber(g, "server_cpu_pct", p.serverCpuPct());
        if (p.serverRssBytes() == null) {
            g.writeNullField("server_rss_bytes");
        } else {
            g.writeNumberField("server_rss_bytes", p.serverRssBytes());
        }
        g.writeStringField("state", p.state().jsonName());
        g.writeBooleanField("client_bound", p.clientBound());
        g.writeArrayFieldStart("client_bound_reasons");
        for (String reason : p.clientBoundReasons()) {
            g.writeString(reason);
        }
        g.writeEndArray();
        g.writeStringField("phase", p.phase().jsonName());
        g.writeNumberField("order", p.order());
        nullableNumber(g, "delivered_pct", p.deliveredPct());
        nullableNumber(g, "rtt_first_half_mean_ms", p.rttFirstHalfMeanMs());
        nullableNumber(g, "rtt_second_half_mean_ms", p.rttSecondHalfMeanMs());
        g.writeBooleanField("backlog_growing", p.backlogGrowing());
        g.writeBooleanField("ok_strict", p.okStrict());
        nullableNumber(g, "steal_pct", p.stealPct());
        if (p.messagesPerFrame() != null) { // optional: absent when no data frame arrived in the window
            messagesPerFrame(g, p.messagesPerFrame());
        }
        SessionsFieldsWriter.point(g, p);
        if (p.compression() != null) { // optional: only with --compression permessage-deflate
            g.writeObjectFieldStart("compression");
            g.writeNumberField("bytes_read", p.compression().bytesRead());
            g.writeNumberField("bytes_inflated", p.compression().bytesInflated());
            g.writeEndObject();
        }
        if (!p.transports().isEmpty()) { // optional: only a mix of transports has a breakdown
            transports(g, p.transports());
        }
        SlowClientsWriter.point(g, p.slowClients());
        if (!p.agents().isEmpty()) {
            g.writeArrayFieldStart("agents");
            for (AgentPointResult a : p.agents()) {
                g.writeStartObject();
                g.writeStringField("agent", a.agent());
                g.writeNumberField("connections", a.connections());
                g.writeNumberField("sent", a.sent());
                g.writeNumberField("received", a.received());
                g.writeNumberField("lost", a.lost());
                g.writeNumberField("rtt_samples", a.rttSamples());
                g.writeNumberField("cpu_pct", round(a.cpuPct()));
                nullableNumber(g, "steal_pct", a.stealPct());
                strings(g, "client_bound_reasons", a.clientBoundReasons());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        if (p.agentLost() != null) {
            g.writeStringField("agent_lost", p.agentLost());
        }
        g.writeEndObject();
    }

    private static void transports(JsonGenerator g, List<TransportPointResult> parts) throws IOException {
        g.writeArrayFieldStart("transports");
        for (TransportPointResult t : parts) {
            g.writeStartObject();
            g.writeStringField("transport", t.transport());
            g.writeNumberField("sessions", t.sessions());
            g.writeNumberField("sent", t.sent());
            g.writeNumberField("received", t.received());
            g.writeNumberField("expected_received", t.expectedReceived());
            g.writeNumberField("lost", t.lost());
            g.writeNumberField("connection_errors", t.connectionErrors());
            nullableNumber(g, "delivered_pct", t.deliveredPct());
            latency(g, "rtt_ms", t.rtt());
            if (t.fanout() != null) {
                latency(g, "fanout_ms", t.fanout());
            }
            if (t.messagesPerFrame() != null) {
                messagesPerFrame(g, t.messagesPerFrame());
            }
            g.writeStringField("state", t.state().jsonName());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void messagesPerFrame(JsonGenerator g, MessagesPerFrame f) throws IOException {
        g.writeObjectFieldStart("messages_per_frame");
        g.writeNumberField("frames", f.frames());
        g.writeNumberField("messages", f.messages());
        g.writeNumberField("mean", round(f.mean()));
        g.writeNumberField("p50", f.p50());
        g.writeNumberField("p90", f.p90());
        g.writeNumberField("p99", f.p99());
        g.writeNumberField("max", f.max());
        g.writeObjectFieldStart("per_connection");
        g.writeNumberField("min", f.perConnectionMin());
        g.writeNumberField("p50", f.perConnectionP50());
        g.writeNumberField("max", f.perConnectionMax());
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void agents(JsonGenerator g, ClientInfo c) throws IOException {
        g.writeObjectFieldStart("agents");
        g.writeNumberField("count", c.agents().size());
        g.writeStringField("run_id", c.fleetRunId());
        g.writeArrayFieldStart("list");
        for (AgentRecord a : c.agents()) {
            g.writeStartObject();
            g.writeStringField("agent", a.agent());
            g.writeStringField("host", a.host());
            g.writeNumberField("pid", a.pid());
            ints(g, "cpus", a.cpus());
            g.writeNumberField("io_threads", a.ioThreads());
            strings(g, "source_addresses", a.sourceAddresses());
            g.writeNumberField("connections_max", a.connectionsMax());
            g.writeNumberField("clock_offset_us", a.clockOffsetMicros());
            g.writeNumberField("clock_rtt_us", a.clockRttMicros());
            g.writeNumberField("client_bound_points", a.clientBoundPoints());
            strings(g, "client_bound_reasons", a.clientBoundReasons());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    static String iso(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
