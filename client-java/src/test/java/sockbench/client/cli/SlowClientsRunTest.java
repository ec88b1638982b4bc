package sockbench.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import sockbench.client.testserver.RepoSockJsServer;

/**
 * {@code --slow-clients}: bad values and combinations are refused with exit status 2 before anything
 * starts, and against the repository's real server (server-python) slow readers fall behind and
 * are cut off at the server's per-session cap while the healthy sessions lose nothing, with the
 * slow ones' figures kept apart from the point's.
 */
class SlowClientsRunTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String URL = "http://127.0.0.1:1/broadcast";

    @Test
    void badValuesAndCombinationsAreRefusedWithExitTwo() {
        for (String bad : new String[] {"0%:64", "51%:64", "10%:0", "10%:1000001", "10", "10%:64KiB", "x%:64", ""}) {
            MainTest.Outcome o = MainTest.run("--url", URL, "--profile", "smoke", "--out", "/dev/null",
                    "--slow-clients", bad);
            assertEquals(2, o.exit(), bad + ": " + o.err());
            assertTrue(o.err().contains("--slow-clients"), o.err());
        }
        String[][] refused = {
            {"--profile", "sessions", "--levels", "10", "--churn", "10", "--slow-clients", "10%:64"},
            {"--profile", "smoke", "--transports", "websocket:80,xhr-streaming:20", "--slow-clients", "10%:64"},
            {"--profile", "smoke", "--levels", "1,4", "--slow-clients", "10%:64"},
            {"--profile", "smoke", "--agents", "2", "--bus", "redis://127.0.0.1:1/0", "--slow-clients", "10%:64"},
        };
        String[] because = {"--churn together", "websocket sessions only", "at least 2 sessions", "a fleet"};
        for (int i = 0; i < refused.length; i++) {
            String[] args = new String[refused[i].length + 4];
            args[0] = "--url";
            args[1] = URL;
            args[2] = "--out";
            args[3] = "/dev/null";
            System.arraycopy(refused[i], 0, args, 4, refused[i].length);
            MainTest.Outcome o = MainTest.run(args);
            assertEquals(2, o.exit(), String.join(" ", refused[i]) + ": " + o.err());
            assertTrue(o.err().contains(because[i]), o.err());
            assertEquals(1, o.err().strip().lines().count(), "one line: " + o.err());
        }
    }

    @Test
    void checkSlowClientsPrintsTheCanonicalForm() {
        MainTest.Outcome ok = MainTest.run("--check-slow-clients", "--slow-clients", "12.50:64");
        assertEquals(0, ok.exit(), ok.err());
        assertEquals("12.5%:64", ok.out().strip());
        MainTest.Outcome none = MainTest.run("--check-slow-clients");
        assertEquals(2, none.exit(), none.err());
        MainTest.Outcome mix = MainTest.run("--check-slow-clients", "--slow-clients", "10%:64", "--transports",
                "xhr-polling");
        assertEquals(2, mix.exit(), mix.err());
        assertTrue(mix.err().contains("websocket sessions only"), mix.err());
        assertTrue(MainTest.run("--help").out().contains("--slow-clients"));
    }

    @Test
    @Timeout(120)
    void slowReadersThatKeepUpReceiveEverythingApartFromThePoint(@TempDir Path dir) throws Exception {
        try (RepoSockJsServer server = RepoSockJsServer.python(25)) {
            Path out = dir.resolve("slow.json");
            // smoke: levels 2 and 4 at 20-80 msgs/s, 64-byte payloads: a few KiB/s a session, well under 64 KiB/s
            MainTest.Outcome o = MainTest.run("--url", server.url(), "--profile", "smoke", "--slow-clients", "10%:64",
                    "--out", out.toString());
            assertEquals(0, o.exit(), o.err());
            JsonNode doc = valid(out);
            assertEquals(10.0, doc.get("parameters").get("slow_clients").get("pct").asDouble());
            assertEquals(64, doc.get("parameters").get("slow_clients").get("kib_per_s").asInt());
            assertTrue(doc.get("label").asText().endsWith(" · slow 10%:64"), doc.get("label").asText());
            for (JsonNode level : doc.get("levels")) {
                int n = level.get("concurrency").asInt();
                assertEquals(n, level.get("connected").asInt());
                for (JsonNode p : level.get("points")) {
                    JsonNode slow = p.get("slow_clients");
                    assertEquals(1, slow.get("sessions").asInt(), p.toString()); // id 0 at both levels
                    assertEquals(0, slow.get("lost_sessions").asInt(), p.toString());
                    // every message goes to the n - 1 healthy sessions and the slow one
                    assertEquals(p.get("sent").asLong() * (n - 1), p.get("expected_received").asLong(), p.toString());
                    assertEquals(p.get("sent").asLong(), slow.get("expected_received").asLong(), p.toString());
                    assertEquals(0, p.get("lost").asLong(), p.toString());
                    // the slow reader kept up: it timed every copy it read while the point ran (warm-up
                    // included; the drain waits for the healthy sessions only, so its last may land after)
                    long timed = slow.get("fanout_ms").get("count").asLong();
                    assertTrue(timed >= p.get("sent").asLong() - 2, p.toString());
                    assertTrue(slow.get("fanout_ms").get("max").asDouble() < 1000, p.toString());
                }
            }
        }
    }

    @Test
    @Timeout(180)
    void slowReadersAreCutOffAtTheServersCapWhileTheHealthySessionsLoseNothing(@TempDir Path dir) throws Exception {
        // A 4 KiB cap, 8 KiB payloads at 200 then 400 msgs/s: each session is sent 1.6-3.3 MB/s, the
        // two slow readers (ids 0 and 5 of 10 at 20 %) read 64 KiB/s, so once the kernel's buffers are
        // full (~4 MB on loopback, 1-3 s) the server passes its cap and closes them: it sends its close
        // and drops the socket 5 s later (Tornado waits that long for the client's close), and the
        // probe sees it within a second. So the points are 1 + 10 s long.
        try (RepoSockJsServer server = RepoSockJsServer.python(25, "--max-session-buffer", "4096")) {
            Path out = dir.resolve("cut.json");
            MainTest.Outcome o = MainTest.run("--url", server.url(), "--profile", "smoke", "--levels", "10",
                    "--start-rate", "200", "--rate-factor", "2", "--max-rate", "400", "--warmup", "1", "--step", "10",
                    "--settle", "0.5", "--payload-bytes", "8192", "--slow-clients", "20%:64",
                    "--server-pid", Long.toString(server.pid()), "--out", out.toString());
            assertEquals(0, o.exit(), o.err());
            JsonNode doc = valid(out);
            JsonNode level = doc.get("levels").get(0);
            assertEquals(10, level.get("connected").asInt());
            assertTrue(level.get("points").size() >= 2, level.toString());
            for (JsonNode p : level.get("points")) {
                JsonNode slow = p.get("slow_clients");
                // both slow readers at every point: the second reopened the two the first saw cut off
                assertEquals(2, slow.get("sessions").asInt(), p.toString());
                assertEquals(2, slow.get("lost_sessions").asInt(), "both slow readers cut off: " + p);
                assertEquals(2, slow.get("cut_off_reasons").properties().stream().mapToInt(e -> e.getValue().asInt())
                        .sum(), p.toString());
                assertTrue(slow.get("received").asLong() < slow.get("expected_received").asLong(), p.toString());
                // what they read was old: seconds behind its scheduled send time, the healthy ones milliseconds
                assertTrue(slow.get("fanout_ms").get("count").asLong() > 0, p.toString());
                assertTrue(slow.get("fanout_ms").get("max").asDouble() > 1000, p.toString());
                // held to 64 KiB/s each: at most the window's worth plus a burst, in 8 KiB messages
                double cap = 2 * (65_536 * p.get("duration_s").asDouble() + 65_536) / 8192;
                assertTrue(slow.get("received").asLong() <= cap, slow.get("received") + " > " + cap + ": " + p);
                // The healthy sessions: all 8 got every copy, none was lost, the cut-offs are not the point's.
                assertEquals(0, p.get("lost").asLong(), p.toString());
                assertEquals(0, p.get("connection_errors").asLong(), p.toString());
                assertEquals(p.get("sent").asLong() * 8, p.get("expected_received").asLong(), p.toString());
                assertEquals(p.get("sent").asLong(), p.get("rtt_ms").get("count").asLong(), p.toString());
                assertFalse("overloaded".equals(p.get("state").asText()), p.toString());
                assertTrue(p.get("server_rss_bytes").asLong() > 0, p.toString());
            }
        }
    }

    private static JsonNode valid(Path out) throws Exception {
        JsonNode doc = JSON.readTree(out.toFile());
        JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(Path.of("..", "results", "schema.json").toAbsolutePath().normalize().toUri());
        Set<ValidationMessage> errors = schema.validate(doc);
        assertTrue(errors.isEmpty(), errors.toString());
        return doc;
    }
}
