package sockbench.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import sockbench.client.engine.TransportMix;
import sockbench.client.plan.Profile;
import sockbench.client.plan.SweepPlan;
import sockbench.client.testserver.BroadcastTestServer;

class MainTest {

    record Outcome(int exit, String out, String err) {
    }

    static Outcome run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    @Test
    void helpDocumentsEveryFlagWithUnitAndDefault() {
        Outcome o = run("--help");
        assertEquals(0, o.exit());
        for (String flag : new String[] {"--url", "--transport", "--profile", "--out", "--levels", "--server-pid",
            "--server-ready", "--server-name", "--server-runtime", "--label", "--peer", "--connect-timeout",
            "--legacy-csv", "--legacy-flot-sent", "--legacy-flot-received", "--io-threads", "--payload-bytes"}) {
            assertTrue(o.out().contains(flag), "help mentions " + flag);
        }
        assertTrue(o.out().contains("Default: 10"), "connect timeout default shown");
        assertTrue(o.out().contains("seconds"));
    }

    @Test
    void aRunWithoutOutIsAUsageErrorBecauseTheCallerNamesTheResultFile() {
        Outcome o = run("--url", "http://127.0.0.1:1/broadcast", "--profile", "smoke");
        assertEquals(2, o.exit());
        assertTrue(o.err().contains("Missing required option: '--out=FILE'"), o.err());
        assertTrue(o.err().contains("Usage:"), o.err());
    }

    @Test
    void typosAreUsageErrorsWithExitTwo() {
        Outcome unknown = run("--urll", "http://127.0.0.1:1/broadcast");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().contains("--urll"), unknown.err());
        assertTrue(unknown.err().contains("Usage:"), unknown.err());

        Outcome missing = run("--profile", "smoke");
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("--url"), missing.err());

        Outcome badProfile = run("--url", "http://127.0.0.1:1/broadcast", "--profile", "fast");
        assertEquals(2, badProfile.exit());
        assertTrue(badProfile.err().contains("--profile"), badProfile.err());

        Outcome badTransport = run("--url", "http://127.0.0.1:1/broadcast", "--transport", "xhr");
        assertEquals(2, badTransport.exit());

        Outcome badNumber = run("--url", "http://127.0.0.1:1/broadcast", "--levels", "5,x");
        assertEquals(2, badNumber.exit());
    }

    @Test
    void listProfilesPrintsOneJsonDocumentWithEveryProfileAndKey() throws Exception {
        Outcome o = run("--list-profiles");
        assertEquals(0, o.exit(), o.err());
        assertEquals("", o.err());
        JsonNode doc = new ObjectMapper().readTree(o.out());
        assertEquals("sockbench.profiles/1", doc.get("schema").asText());
        assertEquals(sockbench.client.sweep.ClientInfo.VERSION, doc.get("client_version").asText());
        List<String> features = new ArrayList<>();
        doc.get("features").forEach(f -> features.add(f.asText()));
        assertTrue(features.containsAll(List.of("level-start-rates", "adaptive-level-start", "client-ceilings")),
                features.toString());
        List<String> names = new ArrayList<>();
        doc.get("profiles").forEach(p -> names.add(p.get("name").asText()));
        assertEquals(List.of("smoke", "quick", "standard", "legacy", "full", "warmup", "sessions"), names);
        List<String> keys = List.of("name", "description", "levels", "ramp", "rate_factor", "rate_step", "start_rate",
                "max_rate", "step_s", "settle_s", "warmup_s", "confirm", "refine_steps", "next_level_start_fraction",
                "later_repetition_start_fraction", "all_copies", "idle_hold_s", "connect_rate_per_s");
        for (JsonNode p : doc.get("profiles")) {
            List<String> got = new ArrayList<>();
            p.fieldNames().forEachRemaining(got::add);
            assertEquals(keys, got, p.get("name").asText());
            assertTrue(p.get("description").asText().length() > 10);
        }
        // The values are the table in Profile.java, not a copy.
        JsonNode standard = doc.get("profiles").get(2);
        SweepPlan plan = Profile.STANDARD.plan();
        assertEquals(plan.levels().toString(), standard.get("levels").toString().replace(",", ", "));
        assertEquals(plan.rateFactor(), standard.get("rate_factor").asDouble());
        assertTrue(standard.get("rate_step").isNull());
        assertEquals(plan.stepS(), standard.get("step_s").asDouble());
        assertEquals(plan.nextLevelStartFraction(), standard.get("next_level_start_fraction").asDouble());
        assertEquals(Profile.STANDARD.refineSteps(), standard.get("refine_steps").asInt());
        assertEquals(Profile.STANDARD.laterRepetitionStartFraction(),
                standard.get("later_repetition_start_fraction").asDouble());
        JsonNode legacy = doc.get("profiles").get(3);
        assertEquals("additive", legacy.get("ramp").asText());
        assertTrue(legacy.get("rate_factor").isNull());
        assertEquals("max(1, 1000/N)", legacy.get("rate_step").asText());
        assertTrue(legacy.get("next_level_start_fraction").isNull(), "legacy keeps the original schedule");
        assertEquals(false, legacy.get("all_copies").asBoolean());
        JsonNode sessions = doc.get("profiles").get(6);
        assertEquals(true, sessions.get("all_copies").asBoolean());
        assertEquals(30.0, sessions.get("idle_hold_s").asDouble());
        assertEquals(2000.0, sessions.get("connect_rate_per_s").asDouble());
    }

    @Test
    void aLevelBeyondTheOpenFilesLimitIsRefusedInOneLineWithExitTwo() {
        Outcome o = run("--url", "http://127.0.0.1:1/broadcast", "--profile", "sessions", "--levels", "2000000000",
                "--out", "/dev/null");
        assertEquals(2, o.exit(), o.err());
        // The refusal goes to System.err (not picocli's writer): nothing of a usage text or a stack trace here.
        assertEquals("", o.err());
        assertTrue(RunCommand.openFilesRefusal(Profile.SESSIONS.plan().withLevels(List.of(2_000_000_000)),
                TransportMix.WEBSOCKET_ONLY)
                .startsWith("sockbench: level 2000000000 needs 2000000064 open files in one client process"));
    }

    @Test
    void anHttpSessionCountsTwoOpenFiles() {
        // 10,000 sessions, half of them xhr-polling: 15,000 sockets. Whether that fits depends on this
        // process's limit, so the check is against the count the refusal names.
        String why = RunCommand.openFilesRefusal(Profile.SESSIONS.plan().withLevels(List.of(1_000_000_000)),
                TransportMix.parse("websocket:1,xhr-polling:1"));
        assertTrue(why.startsWith("sockbench: level 1000000000 with --transports websocket:1,xhr-polling:1 needs "
                + "1500000064 open files (500000000 HTTP sessions hold two sockets each)"), why);
    }

    @Test
    void aBadTransportMixIsAUsageErrorAndCheckTransportsPrintsTheCanonicalForm() {
        Outcome bad = run("--check-transports", "--transports", "websocket:80,jsonp-polling:20");
        assertEquals(2, bad.exit(), bad.err());
        assertTrue(bad.err().contains("--transports: unknown transport 'jsonp-polling'"), bad.err());
        Outcome raw = run("--check-transports", "--transport", "raw", "--transports", "xhr-streaming");
        assertEquals(2, raw.exit(), raw.err());
        assertTrue(raw.err().contains("need --transport sockjs"), raw.err());
        Outcome ok = run("--check-transports", "--transports", "websocket:80,xhr-streaming:10,eventsource:5,xhr-polling:5");
        assertEquals(0, ok.exit(), ok.err());
        assertEquals("websocket:16,xhr-streaming:2,eventsource:1,xhr-polling:1", ok.out().strip());
    }

    @Test
    void sessionOptionsOutsideTheirRangesAreUsageErrors() {
        String url = "http://127.0.0.1:1/broadcast";
        for (String[] bad : new String[][] {{"--idle-hold-s", "-1"}, {"--idle-hold-s", "3601"},
            {"--connect-rate", "-5"}, {"--connect-rate", "2e6"}, {"--server-pids", "1,x"}, {"--server-pids", "0"}}) {
            Outcome o = run("--url", url, "--profile", "sessions", "--levels", "2", "--out", "/dev/null", bad[0], bad[1]);
            assertEquals(2, o.exit(), String.join(" ", bad) + ": " + o.err());
            assertTrue(o.err().contains("Usage:"), o.err());
        }
        Outcome help = run("--help");
        for (String flag : new String[] {"--idle-hold-s", "--connect-rate", "--[no-]all-copies", "--server-pids"}) {
            assertTrue(help.out().contains(flag), "help mentions " + flag);
        }
    }

    @Test
    void listProfilesWithAnyOtherOptionIsAUsageError() {
        Outcome o = run("--list-profiles", "--profile", "quick");
        assertEquals(2, o.exit());
        assertTrue(o.err().contains("--list-profiles takes no other option"), o.err());
        assertEquals("", o.out());
        assertEquals(2, run("--list-profiles", "--url", "http://127.0.0.1:1/broadcast").exit());
    }

    @Test
    void badLevelStartRatesAreUsageErrors() {
        String url = "http://127.0.0.1:1/broadcast";
        for (String bad : new String[] {"100", "100:x", "30:50", "100:0", "100:1e9", "100:5,100:6"}) {
            Outcome o = run("--url", url, "--profile", "standard", "--level-start-rates", bad);
            assertEquals(2, o.exit(), bad);
            assertTrue(o.err().contains("--level-start-rates"), o.err());
            assertTrue(o.err().contains("Usage:"), o.err());
        }
        Outcome notALevel = run("--url", url, "--levels", "5,10", "--level-start-rates", "25:100");
        assertEquals(2, notALevel.exit());
        assertTrue(notALevel.err().contains("not one of the sweep's levels [5, 10]"), notALevel.err());
    }

    @Test
    @Timeout(60)
    void smokeRunWritesEveryRequestedFile(@TempDir Path dir) throws Exception {
        try (BroadcastTestServer server = BroadcastTestServer.startNew(0)) {
            Path out = dir.resolve("r.json");
            Path csv = dir.resolve("r.csv");
            Path sent = dir.resolve("sent.json");
            Path received = dir.resolve("received.json");
            Outcome o = run("--url", server.url(), "--profile", "smoke", "--out", out.toString(),
                    "--server-pid", Long.toString(ProcessHandle.current().pid()),
                    "--server-ready", "READY http://127.0.0.1:1 server=test-broadcast runtime=java runtime_version=17 heartbeat=25 codec=jackson",
                    "--legacy-csv", csv.toString(), "--legacy-flot-sent", sent.toString(),
                    "--legacy-flot-received", received.toString(), "--level-start-rates", "4:40");
            assertEquals(0, o.exit(), o.err());
            JsonNode r = new ObjectMapper().readTree(out.toFile());
            assertEquals("smoke", r.get("parameters").get("profile").asText());
            assertEquals("test-broadcast", r.get("server").get("name").asText());
            assertEquals("jackson", r.get("server").get("codec").asText());
            assertTrue(r.get("server").get("mode").isNull());
            assertEquals("17", r.get("server").get("ready").get("runtime_version").asText());
            assertTrue(r.get("run_id").asText().endsWith("-test-broadcast-java-jackson-na"), r.get("run_id").asText());
            assertEquals(2, r.get("levels").size());
            assertEquals(20.0, r.get("levels").get(0).get("start_rate").asDouble(), "the first level starts at start_rate");
            assertEquals(40.0, r.get("levels").get(1).get("start_rate").asDouble(), "--level-start-rates 4:40");
            assertTrue(Files.readAllLines(csv).size() >= 2);
            assertTrue(Files.readString(sent).startsWith("[[\"2\""));
            assertTrue(Files.exists(received));
            assertTrue(r.get("warnings").toString().contains("overlap"), "same process: shared CPUs warned");
        }
    }
}
