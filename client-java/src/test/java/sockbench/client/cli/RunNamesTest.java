package sockbench.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import sockbench.client.sweep.ServerInfo;

class RunNamesTest {

    static ServerInfo server(String codec, String mode) {
        return ServerInfo.builder().name("sockbench-tornado").runtime("pypy").runtimeVersion("7.3").codec(codec).mode(mode)
                .url("http://127.0.0.1:1/broadcast").build();
    }

    @Test
    void runIdIsTheCompactUtcStartThenTheServer() {
        Instant t = Instant.parse("2026-11-25T21:24:13.5Z");
        assertEquals("20261125T212413Z-sockbench-tornado-pypy-json-fast", RunNames.runId(t, server("json", "fast")));
    }

    @Test
    void theDefaultResultFileIsDatedUnderResultsWithNaForMissingParts() {
        Instant t = Instant.parse("2026-11-25T23:59:59Z");
        assertEquals(Path.of("results", "2026-11-25-sockbench-tornado-pypy-na-na.json"),
                RunNames.defaultResultFile(t, server(null, null)));
    }
}
