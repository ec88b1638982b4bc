package sockbench.client.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import sockbench.client.sweep.ClientInfo;
import sockbench.client.sweep.LocalLoadEngine;
import sockbench.client.sweep.RunResult;
import sockbench.client.sweep.ServerInfo;
import sockbench.client.sweep.Sweep;
import sockbench.client.sweep.SweepSettings;
import sockbench.client.engine.Engine;
import sockbench.client.engine.Target;
import sockbench.client.engine.Transport;
import sockbench.client.plan.Profile;
import sockbench.client.plan.Ramp;
import sockbench.client.plan.SweepPlan;
import sockbench.client.sampling.MachineInfo;
import sockbench.client.sampling.ProcFiles;
import sockbench.client.sampling.ProcessSampler;
import sockbench.client.stats.LatencySummary;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.PointResult;
import sockbench.client.stats.PointState;
import sockbench.client.stats.Phase;
import sockbench.client.stats.SaturationPoint;
import sockbench.client.stats.Thresholds;
import sockbench.client.testserver.BroadcastTestServer;

class ResultWritersTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** results/schema.json, the one source of truth, from the repository (tests run in client-java/). */
    static Set<ValidationMessage> validate(String json) throws Exception {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        // Loaded from its file URI: the schema's relative $id then resolves against that location.
        JsonSchema schema = factory.getSchema(Path.of("..", "results", "schema.json").toAbsolutePath().normalize().toUri());
        return schema.validate(MAPPER.readTree(json));
    }

    static String json(RunResult r) throws Exception {
        StringWriter w = new StringWriter();
        new JsonResultWriter().write(r, w);
        return w.toString();
    }

    static RunResult result(SweepSettings settings, List<LevelResult> levels, Long pid, List<Integer> serverCpus,
                            List<String> warnings) {
        Map<String, String> ready = new LinkedHashMap<>();
        ready.put("server", "test-broadcast");
        ready.put("runtime", "java");
        ServerInfo server = new ServerInfo("test-broadcast", false, "java", "17", null, null,
                "http://127.0.0.1:1/broadcast", pid, serverCpus, ready);
        ClientInfo client = new ClientInfo(ClientInfo.NAME, ClientInfo.VERSION, "17", "test", "sockjs",
                ProcFiles.allowedCpus("self"), 2, Runtime.getRuntime().maxMemory());
        Instant start = Instant.parse("2026-11-22T12:30:00Z");
        return new RunResult("20261122T123000Z-test-broadcast-java-na-na", "test", start, start.plusSeconds(42),
                MachineInfo.read(), client, server, settings, levels, warnings);
    }

    @Test
    @Timeout(60)
    void aRealSweepWritesAValidResult() throws Exception {
        SweepPlan plan = SweepPlan.builder("smoke").levels(List.of(2, 3)).geometric(2)
                .startRate(20).stepS(0.4).settleS(0.1).warmupS(0.1).maxRate(40).build();
        SweepSettings settings = SweepSettings.builder(plan)
                .connectTimeoutS(5).payloadBytes(64).clientCores(2).build();
        List<String> warnings = new ArrayList<>();
        List<LevelResult> levels;
        long pid = ProcessHandle.current().pid(); // the in-process server lives in this JVM
        try (BroadcastTestServer server = BroadcastTestServer.startNew(0);
             Engine engine = Engine.builder(new Target(server.url(), Transport.SOCKJS)).ioThreads(1)
                     .connectTimeoutNs(5_000_000_000L).connectConcurrency(10).start();
             ProcessSampler sampler = new ProcessSampler(Long.toString(pid), 50)) {
            levels = new Sweep(LocalLoadEngine.forThisProcess(engine), settings, sampler, new Progress(System.err), warnings, l -> { }).run();
        }
        String text = json(result(settings, levels, pid, ProcFiles.allowedCpus("self"), warnings));
        Set<ValidationMessage> errors = validate(text);
        assertTrue(errors.isEmpty(), errors + "\n" + text);

        JsonNode root = MAPPER.readTree(text);
        assertEquals(sockbench.client.sweep.RunResult.SCHEMA, root.get("schema").asText());
        assertEquals(2, root.get("levels").size());
        JsonNode p = root.get("levels").get(0).get("points").get(0);
        assertEquals(20.0, p.get("target_rate").asDouble());
        assertTrue(p.get("server_cpu_pct").isNumber(), "sampled from /proc/PID/stat");
        assertTrue(p.get("server_rss_bytes").asLong() > 0, "sampled from /proc/PID/statm");
        assertTrue(p.get("rtt_ms").get("p999").isNumber());
        assertTrue(root.get("pinning").get("shared").asBoolean(), "same process: CPUs overlap");
    }

    static PointResult emptyPoint() {
        LatencySummary none = LatencySummary.of(LatencySummary.newHistogram());
        return PointResult.builder().targetRate(1).durationS(3).rtt(none).rttUncorrected(none).clientCpuPct(1.5)
                .state(PointState.OK).clientBoundReasons(List.of("send_rate")).phase(Phase.RAMP).build();
    }

    static PointResult point(double rate, long samples, double meanMs) {
        Histogram h = LatencySummary.newHistogram();
        for (int i = 0; i < samples; i++) {
            h.recordValue((long) (meanMs * 1000));
        }
        LatencySummary l = LatencySummary.of(h);
        return PointResult.builder().targetRate(rate).durationS(3).sent(samples).sentPerS(samples / 3.0)
                .received(samples * 25).receivedPerS(samples * 25 / 3.0).expectedReceived(samples * 25)
                .rtt(l).rttUncorrected(l).clientCpuPct(20).serverCpuPct(55.5).serverRssBytes(123456789L)
                .state(PointState.OK).phase(Phase.REFINE).order(2).deliveredPct(100.0)
                .rttFirstHalfMeanMs(meanMs).rttSecondHalfMeanMs(meanMs).okStrict(true).stealPct(0.4).build();
    }

    @Test
    void nullsWhereNothingWasMeasuredAreValid() throws Exception {
        SweepSettings settings = SweepSettings.builder(Profile.LEGACY.plan())
                .connectTimeoutS(10).payloadBytes(64).clientCores(1).build();
        List<LevelResult> levels = List.of(
                new LevelResult(25, 25, 0, 0.2, List.of(emptyPoint()), null, null, "aborted"),
                new LevelResult(50, 0, 50, 10.0, List.of(), null, null, "connect_failed"));
        String text = json(result(settings, levels, null, List.of(), List.of("a warning")));
        Set<ValidationMessage> errors = validate(text);
        assertTrue(errors.isEmpty(), errors + "\n" + text);
        JsonNode root = MAPPER.readTree(text);
        assertTrue(root.get("server").get("pid").isNull());
        assertTrue(root.get("parameters").get("rate_factor").isNull());
        assertEquals("max(1, 1000/N)", root.get("parameters").get("rate_step").asText());
        JsonNode p = root.get("levels").get(0).get("points").get(0);
        assertTrue(p.get("rtt_ms").get("mean").isNull());
        assertTrue(p.get("server_cpu_pct").isNull());
        assertEquals("send_rate", p.get("client_bound_reasons").get(0).asText());
        assertTrue(p.get("client_bound").asBoolean());
    }

    @Test
    void aLevelEndedByTheClientCeilingRecordsItAndIsValid() throws Exception {
        SweepSettings settings = SweepSettings.builder(Profile.SMOKE.plan())
                .connectTimeoutS(10).payloadBytes(64).clientCores(1).build();
        List<PointResult> points = List.of(point(20, 60, 2.5), point(40, 120, 3));
        List<LevelResult> levels = List.of(
                new LevelResult(2, 2, 0, 0.1, points, SaturationPoint.of(points), SaturationPoint.strict(points),
                        "client_ceiling", 20.0, 18_822_311.0),
                new LevelResult(4, 4, 0, 0.1, points, SaturationPoint.of(points), SaturationPoint.strict(points),
                        "max_rate", 20.0));
        String text = json(result(settings, levels, null, List.of(), List.of()));
        Set<ValidationMessage> errors = validate(text);
        assertTrue(errors.isEmpty(), errors + "\n" + text);
        JsonNode root = MAPPER.readTree(text);
        assertEquals("client_ceiling", root.get("levels").get(0).get("end_reason").asText());
        assertEquals(18_822_311.0, root.get("levels").get(0).get("client_ceiling_per_s").asDouble());
        assertTrue(root.get("levels").get(1).get("client_ceiling_per_s").isNull(), "not known: null");
        String unknown = text.replace("\"client_ceiling\"", "\"client_roof\"");
        assertTrue(!unknown.equals(text) && !validate(unknown).isEmpty(), "an unknown end reason is refused");
    }

    @Test
    void aCompressedRunRecordsItAndEachPointsBytesAndIsValid() throws Exception {
        SweepSettings settings = SweepSettings.builder(Profile.SMOKE.plan()).connectTimeoutS(10).payloadBytes(64)
                .clientCores(1).compression(sockbench.client.websocket.Compression.PERMESSAGE_DEFLATE).build();
        PointResult p = point(20, 60, 2.5);
        PointResult compressed = PointResult.builder().targetRate(p.targetRate()).durationS(p.durationS()).sent(p.sent())
                .sentPerS(p.sentPerS()).received(p.received()).receivedPerS(p.receivedPerS())
                .expectedReceived(p.expectedReceived()).rtt(p.rtt()).rttUncorrected(p.rttUncorrected())
                .clientCpuPct(p.clientCpuPct()).state(p.state()).phase(p.phase())
                .compression(new sockbench.client.stats.CompressionBytes(12_345, 98_765)).build();
        List<LevelResult> levels = List.of(new LevelResult(2, 2, 0, 0.1, List.of(compressed), null, null, "max_rate"));
        String text = json(result(settings, levels, null, List.of(), List.of()));
        Set<ValidationMessage> errors = validate(text);
        assertTrue(errors.isEmpty(), errors + "\n" + text);
        JsonNode root = MAPPER.readTree(text);
        assertEquals("permessage-deflate", root.get("parameters").get("compression").asText());
        JsonNode bytes = root.get("levels").get(0).get("points").get(0).get("compression");
        assertEquals(12_345, bytes.get("bytes_read").asLong());
        assertEquals(98_765, bytes.get("bytes_inflated").asLong());
        String unknown = text.replace("\"permessage-deflate\"", "\"gzip\"");
        assertTrue(!unknown.equals(text) && !validate(unknown).isEmpty(), "an unknown compression is refused");
    }

    @Test
    void theSchemaCatchesABrokenResult() throws Exception {
        SweepSettings settings = SweepSettings.builder(Profile.SMOKE.plan())
                .connectTimeoutS(10).payloadBytes(64).clientCores(1).build();
        String text = json(result(settings, List.of(), null, List.of(), List.of()));
        String broken = text.replace("\"schema\" : \"" + sockbench.client.sweep.RunResult.SCHEMA + "\"", "\"schema\" : \"other\"");
        assertTrue(!broken.equals(text) && !validate(broken).isEmpty(), "validation must be able to fail");
    }

    @Test
    void legacyCsvAndFlot(@TempDir Path dir) throws Exception {
        SweepSettings settings = SweepSettings.builder(Profile.SMOKE.plan())
                .connectTimeoutS(10).payloadBytes(64).clientCores(1).build();
        List<PointResult> points = List.of(point(20, 60, 2.5), point(40, 120, 3));
        List<LevelResult> levels = List.of(new LevelResult(25, 25, 0, 0.1, points, SaturationPoint.of(points), SaturationPoint.strict(points), "max_rate"),
                new LevelResult(50, 50, 0, 0.1, List.of(emptyPoint()), null, null, "overloaded"));
        RunResult r = result(settings, levels, null, List.of(), List.of());

        Path csv = dir.resolve("out.csv");
        new LegacyCsvWriter().writeFile(r, csv);
        List<String> rows = Files.readAllLines(csv);
        assertEquals(3, rows.size());
        String[] first = rows.get(0).split(",", -1);
        assertEquals(List.of("25", "20", "60"), List.of(first[0], first[1], first[2]));
        for (int i = 3; i <= 5; i++) {
            assertEquals(2.5, Double.parseDouble(first[i]), 0.01, "min/mean/max within HdrHistogram precision");
        }
        assertEquals(0.0, Double.parseDouble(first[6]), 0.01);
        assertTrue(rows.get(1).startsWith("25,40,120,3"), rows.get(1));
        assertEquals("50,1,0,,,,", rows.get(2), "no samples: empty latency fields");

        Path flot = dir.resolve("received.json");
        new LegacyFlotWriter(LegacyFlotWriter.Series.RECEIVED).writeFile(r, flot);
        JsonNode f = MAPPER.readTree(flot.toFile());
        assertEquals("25", f.get(0).get(0).asText());
        assertEquals(20.0, f.get(0).get(1).get(0).get(0).asDouble());
        assertEquals(500.0, f.get(0).get(1).get(0).get(1).asDouble());
        StringWriter sent = new StringWriter();
        new LegacyFlotWriter(LegacyFlotWriter.Series.SENT).write(r, sent);
        assertEquals("[[\"25\",[[20.0,20.0],[40.0,40.0]]],[\"50\",[[1.0,0.0]]]]", sent.toString().trim());
    }
}
