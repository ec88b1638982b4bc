package sockbench.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sockbench.client.sweep.ServerInfo;

class RunNamesTest {

    static ServerInfo server(String codec, String mode) {
        return new ServerInfo("sockbench-tornado", false, "pypy", "7.3", codec, mode, "http://127.0.0.1:1/broadcast",
                null, List.of(), Map.of());
    }

    @Test
    void runIdIsTheCompactUtcStartThenTheServer() {
        Instant t = Instant.parse("2026-11-25T21:24:13.5Z");
        assertEquals("20261125T212413Z-sockbench-tornado-pypy-json-fast", RunNames.runId(t, server("json", "fast")));
    }
}
