package sockbench.client.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import sockbench.client.cli.Main;
import sockbench.client.testserver.RedisServerProcess;
import sockbench.client.testserver.RepoSockJsServer;

/**
 * Churn with two real agent processes through a real redis-server against the repository's real
 * SockJS server (server-python): each agent cycles its own pool members (the same id rule on the
 * global client ids) and the point's churn counters are both agents' added up.
 */
class FleetChurnTest {

    @TempDir
    Path tmp;

    private static Process agent(String bus, String runId, Path log) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(), "agent",
                "--bus", bus, "--run-id", runId, "--io-threads", "1", "--idle-timeout", "60")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** Runs the coordinator in this JVM; returns its exit status, its stderr in {@code err}. */
    private static int coordinator(StringBuilder err, String... args) {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        java.io.PrintStream old = System.err;
        System.setErr(new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            return Main.commandLine().execute(args);
        } finally {
            System.setErr(old);
            err.append(buf.toString(java.nio.charset.StandardCharsets.UTF_8));
            old.print(buf.toString(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Test
    @Timeout(120)
    void twoAgentsChurnTheirOwnPoolsAndTheirCountersMerge() throws Exception {
        List<Process> agents = new ArrayList<>();
        try (RedisServerProcess redis = RedisServerProcess.start();
             RepoSockJsServer server = RepoSockJsServer.python(25)) {
            agents.add(agent(redis.url(), "churn", tmp.resolve("a1.log")));
            agents.add(agent(redis.url(), "churn", tmp.resolve("a2.log")));
            Path out = tmp.resolve("churn.json");
            // 60 sessions at 20 %: k = 5, pool ids 4, 9, 14, ..., 59 (12 sessions); agent i holds the ids
            // i mod 2, so the pool alternates between the two agents.
            StringBuilder err = new StringBuilder();
            int exit = coordinator(err, "--url", server.url(), "--profile", "sessions",
                    "--levels", "60", "--idle-hold-s", "0", "--max-rate", "3", "--churn", "20", "--agents", "2",
                    "--bus", redis.url(), "--run-id", "churn", "--out", out.toString());
            assertEquals(0, exit, err.toString());
            for (Process p : agents) {
                assertTrue(p.waitFor(10, TimeUnit.SECONDS), "an agent did not exit after the run");
                assertEquals(0, p.exitValue());
            }
            JsonNode doc = new ObjectMapper().readTree(out.toFile());
            assertEquals(20.0, doc.get("parameters").get("churn_pct").asDouble());
            JsonNode level = doc.get("levels").get(0);
            assertEquals(2, level.get("agents").asInt());
            int points = 0;
            for (JsonNode p : level.get("points")) {
                points++;
                JsonNode churn = p.get("churn");
                assertEquals(12, churn.get("pool").asInt(), churn.toString());
                // 12 pool sessions over both agents, each once a second: the merged count is both agents'
                // (one agent's alone would be half; a window holds 6 x its seconds of each agent's cycles,
                // give or take one at either end)
                assertTrue(churn.get("connects_per_s").asDouble() >= 0.8 * 12, churn.toString());
                assertTrue(churn.get("closes").asLong() >= 12 * p.get("duration_s").asDouble() - 4, churn.toString());
                assertEquals(churn.get("reconnects").asLong(), churn.get("reconnect_ms").get("count").asLong());
                assertEquals(0, churn.get("failures").size(), churn.toString());
                // the steady 48 sessions, on both agents, are the point's copies
                JsonNode per = p.get("agents");
                assertEquals(2, per.size());
                assertEquals(48, per.get(0).get("connections").asInt() + per.get(1).get("connections").asInt());
                if (p.get("lost").asLong() == 0) {
                    assertEquals(p.get("sent").asLong() * 48, p.get("expected_received").asLong(), p.toString());
                    assertEquals(p.get("expected_received").asLong(), p.get("fanout_ms").get("count").asLong());
                }
            }
            assertTrue(points >= 2, level.toString());
        } finally {
            for (Process p : agents) {
                p.destroy();
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }
}
