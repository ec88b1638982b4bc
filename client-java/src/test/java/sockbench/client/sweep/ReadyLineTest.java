package sockbench.client.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadyLineTest {

    /** The contract's cases, shared with the Python parser (relative to client-java/, where Maven runs tests). */
    static final Path CASES = Path.of("../docs/contract/ready-line-cases.json");

    @Test
    void parsesUrlAndKeyValues() {
        ReadyLine r = ReadyLine.parse("READY http://127.0.0.1:8080 server=sockbench-tornado runtime=pypy "
                + "runtime_version=7.3.11-py3.9.16 heartbeat=25 codec=json mode=fast tornado=6.5.2\n");
        assertEquals("http://127.0.0.1:8080", r.baseUrl());
        assertEquals("pypy", r.get("runtime"));
        assertEquals("7.3.11-py3.9.16", r.get("runtime_version"));
        assertEquals(List.of("server", "runtime", "runtime_version", "heartbeat", "codec", "mode", "tornado"),
                List.copyOf(r.values().keySet()), "order kept");
        assertEquals(0, ReadyLine.parse("READY http://x:1").values().size());
    }

    @Test
    void rejectsOtherLines() {
        assertThrows(IllegalArgumentException.class, () -> ReadyLine.parse("listening on 8080"));
        assertThrows(IllegalArgumentException.class, () -> ReadyLine.parse("READY http://x:1 novalue"));
    }

    /** The contract's cases of one group, "valid" or "invalid"; a group without cases fails the test. */
    private static JsonNode contractCases(String group) throws IOException {
        JsonNode cases = new ObjectMapper().readTree(CASES.toFile()).get(group);
        assertFalse(cases.isEmpty(), CASES + " lists " + group + " lines");
        return cases;
    }

    @Test
    void everyValidContractCaseGivesItsUrlAndFields() throws IOException {
        for (JsonNode c : contractCases("valid")) {
            String line = c.get("line").asText();
            ReadyLine r = ReadyLine.parse(line);
            assertEquals(c.get("url").asText(), r.baseUrl(), line);
            Map<String, String> fields = new LinkedHashMap<>();
            c.get("fields").fields().forEachRemaining(e -> fields.put(e.getKey(), e.getValue().asText()));
            assertEquals(fields, r.values(), line);
        }
    }

    @Test
    void everyInvalidContractCaseIsRejected() throws IOException {
        for (JsonNode c : contractCases("invalid")) {
            String line = c.get("line").asText();
            assertThrows(IllegalArgumentException.class, () -> ReadyLine.parse(line),
                    "accepted " + line + " (" + c.get("why").asText() + ")");
        }
    }
}
