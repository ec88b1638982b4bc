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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import sockbench.client.testserver.RepoSockJsServer;

/**
 * {@code --churn} against the repository's real SockJS server (server-python): a fifth of the
 * sessions close cleanly and reconnect once a second through the broadcast ramp, each point
 * records the storm, and the figures are the other sessions' alone.
 */
class ChurnRunTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    @Timeout(180)
    void aChurnRunRecordsTheStormAndCountsOnlyTheSteadySessions(@TempDir Path dir) throws Exception {
        try (RepoSockJsServer server = RepoSockJsServer.python(25)) {
            Path out = dir.resolve("churn.json");
            // 100 sessions at 20 %: k = 5, so 20 pool sessions (ids 4, 9, ... 99) cycle once a second.
            MainTest.Outcome o = MainTest.run("--url", server.url(), "--profile", "sessions", "--levels", "100",
                    "--idle-hold-s", "0", "--max-rate", "6", "--churn", "20", "--out", out.toString());
            assertEquals(0, o.exit(), o.err());
            JsonNode doc = JSON.readTree(out.toFile());

            JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(Path.of("..", "results", "schema.json").toAbsolutePath().normalize().toUri());
            Set<ValidationMessage> errors = schema.validate(doc);
            assertTrue(errors.isEmpty(), errors.toString());
            assertEquals(20.0, doc.get("parameters").get("churn_pct").asDouble());

            JsonNode level = doc.get("levels").get(0);
            assertEquals(100, level.get("connected").asInt());
            long closes = 0;
            int points = 0;
            for (JsonNode p : level.get("points")) {
                points++;
                JsonNode churn = p.get("churn");
                assertEquals(20, churn.get("pool").asInt(), churn.toString());
                assertEquals(0, churn.get("failures").size(), churn.toString());
                // every pool session cycles once a second: about 20 reconnects/s served
                assertTrue(churn.get("connects_per_s").asDouble() >= 18, churn.toString());
                assertTrue(churn.get("closes").asLong() >= 0.9 * 20 * p.get("duration_s").asDouble() - 2, churn.toString());
                assertEquals(churn.get("reconnects").asLong(), churn.get("reconnect_ms").get("count").asLong());
                assertTrue(churn.get("reconnect_ms").get("p50").asDouble() < 1000, churn.toString());
                closes += churn.get("closes").asLong();
                if (p.get("lost").asLong() == 0 && p.get("connection_errors").asLong() == 0) {
                    // the 80 steady sessions are the point's: the pool's copies are not expected nor timed
                    assertEquals(p.get("sent").asLong() * 80, p.get("expected_received").asLong(), p.toString());
                    assertEquals(p.get("expected_received").asLong(), p.get("fanout_ms").get("count").asLong(),
                            p.toString());
                    assertEquals(p.get("sent").asLong(), p.get("completion_ms").get("count").asLong(), p.toString());
                }
            }
            assertTrue(points >= 2, level.toString());
            assertFalse(doc.get("warnings").toString().contains("churn asked"), doc.get("warnings").toString());
            // The server closed first (the client waited for its FIN), so the TIME_WAITs are the server's.
            assertTrue(timeWaitsOnLocalPort(server.port()) >= closes * 9 / 10,
                    "server-side TIME_WAITs " + timeWaitsOnLocalPort(server.port()) + " for " + closes + " closes");
        }
    }

    @Test
    @Timeout(120)
    void sockjsNodeServesTheChurnAndClosesFirstToo(@TempDir Path dir) throws Exception {
        // sockjs-node (faye-websocket) answers the close on its own terms: the cycle must not depend
        // on one server's way of ending a session.
        try (RepoSockJsServer server = RepoSockJsServer.node(25)) {
            Path out = dir.resolve("node-churn.json");
            MainTest.Outcome o = MainTest.run("--url", server.url(), "--profile", "sessions", "--levels", "50",
                    "--idle-hold-s", "0", "--max-rate", "2", "--churn", "20", "--out", out.toString());
            assertEquals(0, o.exit(), o.err());
            JsonNode doc = JSON.readTree(out.toFile());
            long closes = 0;
            for (JsonNode p : doc.get("levels").get(0).get("points")) {
                JsonNode churn = p.get("churn");
                assertEquals(10, churn.get("pool").asInt(), churn.toString());
                assertEquals(0, churn.get("failures").size(), churn.toString());
                assertTrue(churn.get("connects_per_s").asDouble() >= 9, churn.toString());
                closes += churn.get("closes").asLong();
            }
            assertTrue(closes > 0);
            assertTrue(timeWaitsOnLocalPort(server.port()) >= closes * 9 / 10,
                    "server-side TIME_WAITs " + timeWaitsOnLocalPort(server.port()) + " for " + closes + " closes");
        }
    }

    @Test
    void churnWithoutTheAllCopiesVerdictIsOneLineAndExitTwo() {
        MainTest.Outcome o = MainTest.run("--url", "http://127.0.0.1:1/broadcast", "--profile", "smoke",
                "--churn", "5", "--out", "unused.json");
        assertEquals(2, o.exit(), o.err());
        assertEquals("--churn needs the all-copies verdict (PROFILE=sessions or --all-copies)", o.err().strip());
    }

    @Test
    void churnOutsideItsRangeIsAUsageError() {
        for (String pct : new String[] {"80", "-1"}) {
            MainTest.Outcome o = MainTest.run("--url", "http://127.0.0.1:1/broadcast", "--profile", "sessions",
                    "--churn", pct, "--out", "unused.json");
            assertEquals(2, o.exit(), o.err());
            assertTrue(o.err().contains("--churn must be 0 < PCT <= 50"), o.err());
        }
    }

    /** TCP sockets in TIME_WAIT whose local port is {@code port} (/proc/net/tcp, state 06). */
    private static long timeWaitsOnLocalPort(int port) throws IOException {
        String hexPort = String.format(":%04X", port);
        long n = 0;
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            Path p = Path.of(table);
            if (!Files.exists(p)) {
                continue;
            }
            for (String line : Files.readAllLines(p)) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 3 && f[1].endsWith(hexPort) && f[3].equals("06")) {
                    n++;
                }
            }
        }
        return n;
    }
}
