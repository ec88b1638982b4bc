package sockbench.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * The sessions profile end to end against the repository's real SockJS server (server-python,
 * heartbeats every 0.25 s): each level opens paced, is held idle (heartbeats counted, server and
 * client memory sampled), and its points are timed by every copy, with completion per message.
 */
class SessionsRunTest {

    @Test
    @Timeout(180)
    void aSessionsRunRecordsConnectIdleFanoutAndCompletion(@TempDir Path dir) throws Exception {
        try (RepoSockJsServer server = RepoSockJsServer.python(0.25)) {
            Path out = dir.resolve("sessions.json");
            String pid = Long.toString(server.pid());
            // --max-rate keeps the climb to six points a level (the profile then records 'custom').
            MainTest.Outcome o = MainTest.run("--url", server.url(), "--profile", "sessions", "--levels", "20,40",
                    "--idle-hold-s", "1", "--max-rate", "32", "--out", out.toString(),
                    "--server-pid", pid, "--server-pids", pid, "--server-ready", server.readyLine());
            assertEquals(0, o.exit(), o.err());
            JsonNode r = new ObjectMapper().readTree(out.toFile());

            JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(Path.of("..", "results", "schema.json").toAbsolutePath().normalize().toUri());
            Set<ValidationMessage> errors = schema.validate(r);
            assertTrue(errors.isEmpty(), errors.toString());

            JsonNode params = r.get("parameters");
            assertEquals(sockbench.client.sweep.RunResult.SCHEMA, r.get("schema").asText());
            assertTrue(params.get("all_copies").asBoolean());
            assertEquals("all_copies_p99", params.get("verdict").asText());
            assertEquals(1.0, params.get("idle_hold_s").asDouble());
            assertEquals(2000.0, params.get("connect_rate_per_s").asDouble());

            for (JsonNode level : r.get("levels")) {
                int n = level.get("concurrency").asInt();
                assertEquals(n, level.get("connected").asInt());
                JsonNode connect = level.get("connect");
                assertEquals(2000.0, connect.get("rate_per_s").asDouble());
                assertTrue(connect.get("achieved_per_s").asDouble() > 0, connect.toString());
                assertEquals(0, connect.get("failures").size(), connect.toString());

                JsonNode idle = level.get("idle");
                assertTrue(idle.get("hold_s").asDouble() >= 1.0, idle.toString());
                assertEquals(0, idle.get("connections_lost").asInt(), idle.toString());
                // 0.25 s heartbeats over a 1 s hold: about 4 per session; at least one each.
                assertTrue(idle.get("heartbeats").asLong() >= n, idle.toString());
                assertTrue(idle.get("server_rss_bytes").asLong() > 1_000_000, idle.toString());
                assertTrue(idle.get("server_rss_baseline_bytes").asLong() > 1_000_000, idle.toString());
                assertTrue(idle.get("server_cpu_pct").isNumber(), idle.toString());
                assertTrue(idle.get("server_bytes_per_session").isNumber(), idle.toString());
                assertTrue(idle.get("client_rss_bytes").asLong() > 1_000_000, idle.toString());
                assertTrue(idle.get("client_bytes_per_session").isNumber(), idle.toString());

                for (JsonNode p : level.get("points")) {
                    JsonNode fanout = p.get("fanout_ms");
                    JsonNode completion = p.get("completion_ms");
                    if (p.get("lost").asLong() == 0 && p.get("connection_errors").asLong() == 0) {
                        // every copy of every measured message was timed, and every message completed
                        assertEquals(p.get("expected_received").asLong(), fanout.get("count").asLong(), p.toString());
                        assertEquals(p.get("sent").asLong(), completion.get("count").asLong(), p.toString());
                        assertEquals(0, completion.get("incomplete").asLong(), p.toString());
                        // the last copy of a message arrives no earlier than the median copy
                        assertTrue(completion.get("max").asDouble() >= fanout.get("p50").asDouble(), p.toString());
                        assertTrue(fanout.get("max").asDouble() >= p.get("rtt_ms").get("min").asDouble(), p.toString());
                    }
                }
                JsonNode sat = level.get("fanout_saturation");
                assertTrue(sat.isNull() || sat.get("copies_per_s").asDouble() > 0, sat.toString());
            }
        }
    }

    @Test
    @Timeout(120)
    void websocketPingsCountAsHeartbeatsOfTheIdleHold(@TempDir Path dir) throws Exception {
        // sockjs-node keeps websocket sessions alive with websocket pings, not SockJS "h" frames:
        // both are the server's heartbeat, and a hold that counted only one kind would read 0 here.
        try (RepoSockJsServer server = RepoSockJsServer.node(0.25)) {
            Path out = dir.resolve("node.json");
            MainTest.Outcome o = MainTest.run("--url", server.url(), "--profile", "sessions", "--levels", "10",
                    "--idle-hold-s", "1", "--max-rate", "2", "--out", out.toString());
            assertEquals(0, o.exit(), o.err());
            JsonNode idle = new ObjectMapper().readTree(out.toFile()).get("levels").get(0).get("idle");
            assertTrue(idle.get("heartbeats").asLong() >= 10, idle.toString());
        }
    }

    @Test
    @Timeout(120)
    void sessionsLostDuringTheIdleHoldAreCountedByReason(@TempDir Path dir) throws Exception {
        // The server dies (SIGKILL) in the middle of the hold: every session sees its TCP connection
        // close without a close frame, so the hold records 10 lost, all for "EOF", and says so.
        RepoSockJsServer server = RepoSockJsServer.python(25);
        try {
            Path out = dir.resolve("lost.json");
            var pool = java.util.concurrent.Executors.newSingleThreadExecutor();
            var run = pool.submit(() -> MainTest.run("--url", server.url(), "--profile", "sessions", "--levels", "10",
                    "--idle-hold-s", "4", "--max-rate", "1", "--connect-timeout", "1", "--out", out.toString()));
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (server.establishedSessions() < 10 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            Thread.sleep(1000); // the hold has started: its first sample counts 10 sessions
            server.kill();
            MainTest.Outcome o = run.get(90, java.util.concurrent.TimeUnit.SECONDS);
            pool.shutdown();
            assertEquals(0, o.exit(), o.err());
            JsonNode doc = new ObjectMapper().readTree(out.toFile());
            JsonNode idle = doc.get("levels").get(0).get("idle");
            assertEquals(10, idle.get("connections_lost").asInt(), idle.toString());
            assertEquals(1, idle.get("lost_reasons").size(), idle.toString());
            assertEquals(10, idle.get("lost_reasons").get("EOF").asInt(), idle.toString());
            assertTrue(doc.get("warnings").toString().contains(
                    "level 10: 10 of 10 sessions closed during the 4 s idle hold: EOF (10)"), doc.get("warnings").toString());
        } finally {
            server.close();
        }
    }

    @Test
    @Timeout(120)
    void aSessionsLevelThatCannotOpenAllItsSessionsRunsNoPointsAndSaysWhy(@TempDir Path dir) throws Exception {
        // The server's budget turns away half the level (HTTP 503): a ramp over 5 sessions would be
        // reported as level 10's figure, so the level ends connect_failed with its failures counted.
        try (RepoSockJsServer server = RepoSockJsServer.python(25, "--max-sessions", "5")) {
            Path out = dir.resolve("partial.json");
            MainTest.Outcome o = MainTest.run("--url", server.url(), "--profile", "sessions", "--levels", "10",
                    "--idle-hold-s", "0", "--out", out.toString());
            assertEquals(0, o.exit(), o.err());
            JsonNode doc = new ObjectMapper().readTree(out.toFile());
            JsonNode level = doc.get("levels").get(0);
            assertEquals(5, level.get("connected").asInt(), level.toString());
            assertEquals("connect_failed", level.get("end_reason").asText());
            assertEquals(0, level.get("points").size());
            long failed = 0;
            for (JsonNode count : level.get("connect").get("failures")) {
                failed += count.asLong();
            }
            assertEquals(5, failed, level.get("connect").toString());
            boolean said = false;
            for (JsonNode w : doc.get("warnings")) {
                said |= w.asText().startsWith("level 10: only 5 of 10 sessions opened");
            }
            assertTrue(said, doc.get("warnings").toString());
        }
    }
}
