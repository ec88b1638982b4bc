package sockbench.client.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import sockbench.client.cli.Main;
import sockbench.client.sampling.MachineInfo;
import sockbench.client.testserver.BroadcastTestServer;
import sockbench.client.testserver.RedisServerProcess;

/**
 * The coordinator and real agent processes through a real redis-server, against a real SockJS
 * broadcast server: the merged sweep, an agent killed mid-point, too few agents, no Redis.
 */
class FleetSweepTest {

    @TempDir
    Path tmp;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Starts an agent JVM of run {@code runId} (this test's classpath, the 'agent' subcommand). */
    private static Process agent(String bus, String runId, Path log) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(), "agent",
                "--bus", bus, "--run-id", runId, "--io-threads", "1", "--idle-timeout", "60")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /**
     * What a fleet test runs on: a real redis-server as the bus, the in-test SockJS server, and the
     * agent JVMs the test starts; closing stops the agents, then the server, then Redis.
     */
    private static final class Fleet implements AutoCloseable {
        final RedisServerProcess redis;
        final BroadcastTestServer server;
        private final Path logDir;
        private final List<Process> agents = new ArrayList<>();

        private Fleet(RedisServerProcess redis, BroadcastTestServer server, Path logDir) {
            this.redis = redis;
            this.server = server;
            this.logDir = logDir;
        }

        /** Starts Redis and the SockJS server; agent output goes to files in {@code logDir}. */
        static Fleet start(Path logDir) throws Exception {
            RedisServerProcess redis = RedisServerProcess.start();
            try {
                return new Fleet(redis, BroadcastTestServer.startNew(0), logDir);
            } catch (Throwable t) {
                redis.close();
                throw t;
            }
        }

        /** Starts one agent of run {@code runId} on this bus, its output in {@code logName}. */
        Process agent(String runId, String logName) throws Exception {
            Process p = FleetSweepTest.agent(redis.url(), runId, logDir.resolve(logName));
            agents.add(p);
            return p;
        }

        @Override
        public void close() throws InterruptedException {
            try {
                for (Process p : agents) {
                    p.destroy();
                    if (!p.waitFor(5, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                    }
                }
            } finally {
                try {
                    server.close();
                } finally {
                    redis.close();
                }
            }
        }
    }

    /** Runs the coordinator in this JVM; returns its exit status, its stderr in {@code err}. */
    private static int coordinator(StringBuilder err, String... args) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream old = System.err;
        System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            return Main.commandLine().execute(args);
        } finally {
            System.setErr(old);
            err.append(buf.toString(StandardCharsets.UTF_8));
            old.print(buf.toString(StandardCharsets.UTF_8));
        }
    }

    private static String id(Process p) {
        return MachineInfo.read().hostname() + ":" + p.pid();
    }

    @Test
    @Timeout(90)
    void twoAgentsRunOneMergedSweep() throws Exception {
        try (Fleet fleet = Fleet.start(tmp)) {
            List<Process> agents = List.of(fleet.agent("smoke", "a1.log"), fleet.agent("smoke", "a2.log"));
            Path out = tmp.resolve("fleet.json");
            StringBuilder err = new StringBuilder();
            int exit = coordinator(err, "--url", fleet.server.url(), "--profile", "smoke", "--agents", "2",
                    "--bus", fleet.redis.url(), "--run-id", "smoke", "--out", out.toString());
            assertEquals(0, exit, err.toString());
            for (Process p : agents) {
                assertTrue(p.waitFor(10, TimeUnit.SECONDS), "an agent did not exit after the run");
                assertEquals(0, p.exitValue());
            }
            assertTrue(err.toString().contains("agents 2/2"), "progress shows agents connected/expected");

            JsonNode doc = JSON.readTree(out.toFile());
            assertEquals(sockbench.client.sweep.RunResult.SCHEMA, doc.get("schema").asText());
            JsonNode recorded = doc.get("client").get("agents");
            assertEquals(2, recorded.get("count").asInt());
            // Agents are ordered by registration, which need not be the order they were started in.
            assertEquals(java.util.Set.of(id(agents.get(0)), id(agents.get(1))),
                    java.util.Set.of(recorded.get("list").get(0).get("agent").asText(),
                            recorded.get("list").get(1).get("agent").asText()));
            assertEquals(2, recorded.get("list").get(1).get("connections_max").asInt(), "level 4: 2 clients per agent");
            int points = 0;
            for (JsonNode level : doc.get("levels")) {
                assertEquals("max_rate", level.get("end_reason").asText());
                for (JsonNode p : level.get("points")) {
                    points++;
                    JsonNode per = p.get("agents");
                    assertEquals(2, per.size());
                    long sent = 0;
                    long received = 0;
                    long samples = 0;
                    for (JsonNode a : per) {
                        sent += a.get("sent").asLong();
                        received += a.get("received").asLong();
                        samples += a.get("rtt_samples").asLong();
                        assertTrue(a.get("sent").asLong() > 0, "both agents send");
                    }
                    assertEquals(p.get("sent").asLong(), sent);
                    assertEquals(p.get("received").asLong(), received);
                    assertEquals(p.get("rtt_ms").get("count").asLong(), samples, "one merged histogram");
                    assertEquals(p.get("sent").asLong(), samples, "every own copy came back");
                    assertEquals(0, p.get("lost").asLong());
                    assertEquals(p.get("sent").asLong() * level.get("concurrency").asLong(),
                            p.get("expected_received").asLong());
                    assertTrue(List.of("ok", "saturated").contains(p.get("state").asText()), p.toString());
                }
            }
            assertEquals(6, points);
        }
    }

    @Test
    @Timeout(90)
    void twoAgentsTimeEveryCopyAndMergeEachMessagesCompletion() throws Exception {
        try (Fleet fleet = Fleet.start(tmp)) {
            List<Process> agents = List.of(fleet.agent("fanout", "f1.log"), fleet.agent("fanout", "f2.log"));
            Path out = tmp.resolve("fanout.json");
            StringBuilder err = new StringBuilder();
            String self = Long.toString(ProcessHandle.current().pid()); // the in-test server runs in this JVM
            int exit = coordinator(err, "--url", fleet.server.url(), "--profile", "smoke", "--all-copies",
                    "--idle-hold-s", "0.5", "--connect-rate", "200", "--server-pids", self, "--agents", "2",
                    "--bus", fleet.redis.url(), "--run-id", "fanout", "--out", out.toString());
            assertEquals(0, exit, err.toString());
            for (Process p : agents) {
                assertTrue(p.waitFor(10, TimeUnit.SECONDS), "an agent did not exit after the run");
            }
            JsonNode doc = JSON.readTree(out.toFile());
            assertTrue(doc.get("parameters").get("all_copies").asBoolean());
            for (JsonNode level : doc.get("levels")) {
                assertEquals(2, level.get("agents").asInt());
                assertEquals(200.0, level.get("connect").get("rate_per_s").asDouble());
                JsonNode idle = level.get("idle");
                assertEquals(0, idle.get("connections_lost").asInt(), idle.toString());
                assertTrue(idle.get("client_rss_bytes").asLong() > idle.get("server_rss_bytes").asLong(),
                        "the coordinator's RSS (this JVM, also the server) plus both agents': " + idle);
                for (JsonNode p : level.get("points")) {
                    assertEquals(0, p.get("lost").asLong(), p.toString());
                    // every copy at every agent, merged into one histogram
                    assertEquals(p.get("expected_received").asLong(), p.get("fanout_ms").get("count").asLong(),
                            p.toString());
                    // a message is complete only when both agents' sessions had it: copies summed over agents
                    assertEquals(p.get("sent").asLong(), p.get("completion_ms").get("count").asLong(), p.toString());
                    assertEquals(0, p.get("completion_ms").get("incomplete").asLong(), p.toString());
                }
            }
        }
    }

    @Test
    @Timeout(90)
    void anAgentWhoseShareExceedsItsOpenFilesLimitStopsTheRunWithOneLine() throws Exception {
        try (Fleet fleet = Fleet.start(tmp)) {
            // One agent allowed 300 open files (prlimit, util-linux): level 400 needs 464.
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process agent = new ProcessBuilder("prlimit", "--nofile=300:300", java, "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "agent", "--bus", fleet.redis.url(),
                    "--run-id", "nofile", "--io-threads", "1", "--idle-timeout", "30")
                    .redirectErrorStream(true).redirectOutput(tmp.resolve("nofile.log").toFile()).start();
            try {
                StringBuilder err = new StringBuilder();
                int exit = coordinator(err, "--url", fleet.server.url(), "--profile", "smoke", "--levels", "400",
                        "--agents", "1", "--bus", fleet.redis.url(), "--run-id", "nofile",
                        "--out", tmp.resolve("nofile.json").toString());
                assertEquals(1, exit, err.toString());
                assertTrue(err.toString().contains("its share of level 400 is 400 sessions, needing 464 open files, "
                        + "but it may hold 300 (ulimit -n)"), err.toString());
                assertFalse(err.toString().contains("\tat "), "no stack trace: " + err);
            } finally {
                agent.destroy();
                agent.waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    @Timeout(90)
    void anAgentKilledMidPointIsNamedAndTheResultKeepsWhatWasMeasured() throws Exception {
        try (Fleet fleet = Fleet.start(tmp);
             RedisBus watch = RedisBus.connect(fleet.redis.url())) {
            List<Process> agents = List.of(fleet.agent("loss", "a1.log"), fleet.agent("loss", "a2.log"));
            Path out = tmp.resolve("loss.json");
            StringBuilder err = new StringBuilder();
            Callable<Integer> run = () -> coordinator(err, "--url", fleet.server.url(), "--profile", "smoke",
                    "--levels", "4", "--step", "3", "--max-rate", "40", "--agents", "2", "--bus", fleet.redis.url(),
                    "--run-id", "loss", "--out", out.toString());
            var pool = java.util.concurrent.Executors.newSingleThreadExecutor();
            var exit = pool.submit(run);
            // Kill agent 2 during the second point's window (the first point has come back by then).
            int pointsSeen = 0;
            String last = "0-0";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            while (pointsSeen < 2 && System.nanoTime() < deadline) {
                for (RedisBus.Entry e : watch.read(Protocol.commands("loss"), last, 200)) {
                    last = e.id();
                    if (Protocol.POINT.equals(e.fields().get("type"))) {
                        pointsSeen++;
                    }
                }
            }
            assertEquals(2, pointsSeen, "the sweep never reached its second point");
            Thread.sleep(1500);
            Process victim = agents.get(1);
            String victimId = id(victim);
            victim.destroyForcibly();
            assertEquals(1, exit.get(60, TimeUnit.SECONDS), err.toString());
            pool.shutdown();

            assertTrue(err.toString().contains("agent " + victimId + " lost"), err.toString());
            JsonNode doc = JSON.readTree(out.toFile());
            JsonNode level = doc.get("levels").get(0);
            assertEquals("agent_lost", level.get("end_reason").asText());
            JsonNode points = level.get("points");
            assertEquals(2, points.size(), "the point measured before the loss is kept");
            JsonNode lostPoint = null;
            for (JsonNode p : points) {
                if (p.has("agent_lost")) {
                    lostPoint = p;
                }
            }
            assertNotNull(lostPoint);
            assertEquals(victimId, lostPoint.get("agent_lost").asText());
            assertEquals("agent_lost", lostPoint.get("state").asText(),
                    "a point missing an agent's share is no verdict on the server: " + lostPoint);
            assertEquals(1, lostPoint.get("agents").size(), "the surviving agent's part is kept");
            assertFalse(lostPoint.get("ok_strict").asBoolean());
            assertTrue(doc.get("warnings").toString().contains(victimId));
        }
    }

    @Test
    @Timeout(90)
    void anAgentLostWhileSessionsAreClosedIsNamedAsLostNotAsFailedConnectsAndItsEmptyPointIsNotOk() throws Exception {
        try (Fleet fleet = Fleet.start(tmp);
             RedisBus watch = RedisBus.connect(fleet.redis.url())) {
            List<Process> agents = List.of(fleet.agent("gone", "a1.log"), fleet.agent("gone", "a2.log"));
            Path out = tmp.resolve("gone.json");
            StringBuilder err = new StringBuilder();
            var pool = java.util.concurrent.Executors.newSingleThreadExecutor();
            var exit = pool.submit(() -> coordinator(err, "--url", fleet.server.url(), "--profile", "smoke",
                    "--agents", "2", "--bus", fleet.redis.url(), "--run-id", "gone", "--out", out.toString()));
            // Kill agent 2 as soon as the coordinator closes the first sessions (the end of level 2, or
            // a reopening for a confirm point): every session had opened, the next opening misses its share.
            boolean closing = false;
            String last = "0-0";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            while (!closing && System.nanoTime() < deadline) {
                for (RedisBus.Entry e : watch.read(Protocol.commands("gone"), last, 100)) {
                    last = e.id();
                    closing |= Protocol.CLOSE.equals(e.fields().get("type"));
                }
            }
            assertTrue(closing, "the sweep never closed its sessions");
            Process victim = agents.get(1);
            String victimId = id(victim);
            victim.destroyForcibly();
            assertEquals(1, exit.get(60, TimeUnit.SECONDS), err.toString());
            pool.shutdown();

            JsonNode doc = JSON.readTree(out.toFile());
            String warnings = doc.get("warnings").toString();
            assertTrue(warnings.contains("agent " + victimId + " ("), warnings);
            assertTrue(warnings.contains(" sessions) was lost while "), warnings);
            assertFalse(warnings.contains("failed: agent lost"), "a lost agent's share is no connect failure: " + warnings);
            assertTrue(warnings.contains("agent " + victimId + " had been lost before the point"), warnings);
            JsonNode lostPoint = null;
            for (JsonNode level : doc.get("levels")) {
                for (JsonNode p : level.get("points")) {
                    if (p.has("agent_lost")) {
                        lostPoint = p;
                    } else {
                        assertEquals(2, p.get("agents").size(), "points before the loss were measured by both: " + p);
                    }
                }
            }
            assertNotNull(lostPoint, doc.toString());
            assertEquals(victimId, lostPoint.get("agent_lost").asText());
            assertEquals("agent_lost", lostPoint.get("state").asText(), "nothing was measured, so it is not ok");
            assertEquals(0, lostPoint.get("sent").asLong());
            assertFalse(lostPoint.get("ok_strict").asBoolean());
        }
    }

    @Test
    @Timeout(60)
    void fewerAgentsThanAskedIsOneLineAndExitTwoAndAnotherRunsAgentIsIgnored() throws Exception {
        try (Fleet fleet = Fleet.start(tmp)) {
            Process stranger = fleet.agent("another-run", "a.log");
            // Wait until the stranger has registered, so the coordinator sees it.
            try (RedisBus bus = RedisBus.connect(fleet.redis.url())) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (!bus.exists(Protocol.agentKey(id(stranger))) && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
            }
            StringBuilder err = new StringBuilder();
            int exit = coordinator(err, "--url", fleet.server.url(), "--profile", "smoke", "--agents", "1",
                    "--bus", fleet.redis.url(), "--run-id", "mine", "--agent-join-timeout", "1.5",
                    "--out", tmp.resolve("none.json").toString());
            assertEquals(2, exit, err.toString());
            assertTrue(err.toString().contains("ignoring agent " + id(stranger) + ": it belongs to run another-run"),
                    err.toString());
            assertTrue(err.toString().contains("only 0 of 1 agents of run mine"), err.toString());
            assertFalse(new File(tmp.resolve("none.json").toString()).exists());
        }
    }

    @Test
    void aRedisThatDoesNotAnswerIsOneLineAndExitOne() throws Exception {
        String nowhere = "redis://127.0.0.1:" + RedisServerProcess.freePort() + "/0";
        StringBuilder err = new StringBuilder();
        int exit = coordinator(err, "--url", "http://127.0.0.1:1/broadcast", "--profile", "smoke", "--agents", "2",
                "--bus", nowhere, "--out", "unused.json");
        assertEquals(1, exit, err.toString());
        String[] lines = err.toString().strip().split("\n");
        assertEquals(1, lines.length, err.toString());
        assertTrue(lines[0].contains("Redis at " + nowhere + " does not answer"), lines[0]);
    }

    @Test
    void anAgentWithoutARedisIsOneLineAndExitOne() throws Exception {
        String nowhere = "redis://127.0.0.1:" + RedisServerProcess.freePort() + "/0";
        Path log = tmp.resolve("agent.log");
        Process p = agent(nowhere, "x", log);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        assertEquals(1, p.exitValue());
        List<String> lines = Files.readAllLines(log);
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("does not answer"), lines.get(0));
    }
}
