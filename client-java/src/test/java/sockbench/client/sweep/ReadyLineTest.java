package sockbench.client.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReadyLineTest {

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
}
