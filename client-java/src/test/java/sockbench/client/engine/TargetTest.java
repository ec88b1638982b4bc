package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TargetTest {

    @Test
    void framedPathsHaveThreeDigitsAndAUniqueSession() {
        Target t = new Target("http://127.0.0.1:8080/broadcast", Transport.SOCKJS);
        String a = t.websocketPath(7);
        String b = t.websocketPath(7);
        assertTrue(a.matches("/broadcast/[0-9]{3}/c7-[0-9a-z]+/websocket"), a);
        assertNotEquals(a, b, "a new session id per connection");
        assertEquals("127.0.0.1:8080", t.hostHeader());
        assertEquals(8080, t.address().getPort());
    }

    @Test
    void rawPathAndTrailingSlash() {
        Target t = new Target("ws://localhost:9000/broadcast/", Transport.RAW);
        assertEquals("/broadcast/websocket", t.websocketPath(0));
    }

    @Test
    void rejectsWhatItCannotConnectTo() {
        assertThrows(IllegalArgumentException.class, () -> new Target("https://x:1/broadcast", Transport.SOCKJS));
        assertThrows(IllegalArgumentException.class, () -> new Target("not a url", Transport.SOCKJS));
        assertThrows(IllegalArgumentException.class, () -> new Target("http:///broadcast", Transport.SOCKJS));
    }
}
