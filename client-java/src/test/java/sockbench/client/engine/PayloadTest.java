package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PayloadTest {

    @Test
    void roundTripsAndPads() {
        StringBuilder b = new StringBuilder();
        Payload.append(b, 7, 1234, 98765, 123_456_789_012L, 123_456_789_999L, 64);
        String text = b.toString();
        assertEquals(64, text.length());
        assertTrue(text.startsWith("7:1234:98765:123456789012:123456789999:x"));
        byte[] s = bytes(text);
        Payload.Fields f = new Payload.Fields();
        int rest = Payload.parseHeader(s, 0, s.length, f);
        assertTrue(rest > 0);
        assertEquals(7, f.epoch);
        assertEquals(1234, f.client);
        assertTrue(Payload.parseTimes(s, rest, s.length, f));
        assertEquals(98765, f.seq);
        assertEquals(123_456_789_012L, f.scheduledNs);
        assertEquals(123_456_789_999L, f.sentNs);
    }

    @Test
    void longHeadersAreNotTruncated() {
        StringBuilder b = new StringBuilder();
        Payload.append(b, 1, 2, 3, Long.MAX_VALUE / 2, Long.MAX_VALUE / 2, 8);
        assertTrue(b.length() > 8);
        assertFalse(b.toString().contains("x"));
    }

    @Test
    void parsesASliceOfALargerBuffer() {
        byte[] frame = bytes("a[\"3:4:5:6:7:xx\"]");
        Payload.Fields f = new Payload.Fields();
        int rest = Payload.parseHeader(frame, 3, frame.length - 2, f);
        assertEquals(3, f.epoch);
        assertEquals(4, f.client);
        assertTrue(Payload.parseTimes(frame, rest, frame.length - 2, f));
        assertEquals(7, f.sentNs);
    }

    @Test
    void foreignPayloadsAreRecognised() {
        Payload.Fields f = new Payload.Fields();
        assertEquals(-1, Payload.parseHeader(bytes("hello"), 0, 5, f));
        assertEquals(-1, Payload.parseHeader(bytes("1:"), 0, 2, f));
        assertEquals(-1, Payload.parseHeader(bytes(":1:"), 0, 3, f));
        assertEquals(-1, Payload.parseHeader(bytes("1:x:"), 0, 4, f));
        int rest = Payload.parseHeader(bytes("1:2:zz"), 0, 6, f);
        assertFalse(Payload.parseTimes(bytes("1:2:zz"), rest, 6, f));
        // an escaped payload (a server that escaped a character) is not ours either
        assertEquals(-1, Payload.parseHeader(bytes("\\u0031:2:"), 0, 8, f));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
