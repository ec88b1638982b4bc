package sockbench.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
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
                    "--legacy-flot-received", received.toString());
            assertEquals(0, o.exit(), o.err());
            JsonNode r = new ObjectMapper().readTree(out.toFile());
            assertEquals("smoke", r.get("parameters").get("profile").asText());
            assertEquals("test-broadcast", r.get("server").get("name").asText());
            assertEquals("jackson", r.get("server").get("codec").asText());
            assertTrue(r.get("server").get("mode").isNull());
            assertEquals("17", r.get("server").get("ready").get("runtime_version").asText());
            assertTrue(r.get("run_id").asText().endsWith("-test-broadcast-java-jackson-na"), r.get("run_id").asText());
            assertEquals(2, r.get("levels").size());
            assertTrue(Files.readAllLines(csv).size() >= 2);
            assertTrue(Files.readString(sent).startsWith("[[\"2\""));
            assertTrue(Files.exists(received));
            assertTrue(r.get("warnings").toString().contains("overlap"), "same process: shared CPUs warned");
        }
    }
}
