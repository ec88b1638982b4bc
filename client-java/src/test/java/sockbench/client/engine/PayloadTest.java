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

    @Test
    void packedPrefixesHoldTheFieldAndItsColon() {
        byte[] b = bytes("123:4567890:xxxxxxxx");
        assertEquals(4, Payload.prefixLength(123));
        assertEquals(0, (Payload.word(b, 0) ^ Payload.prefixWord(123)) & Payload.prefixMask(4));
        assertTrue(((Payload.word(b, 0) ^ Payload.prefixWord(12)) & Payload.prefixMask(3)) != 0, "12: is not 123:");
        assertEquals(8, Payload.prefixLength(4_567_890));
        assertEquals(0, (Payload.word(b, 4) ^ Payload.prefixWord(4_567_890)) & Payload.prefixMask(8));
        assertEquals(2, Payload.prefixLength(0));
        assertEquals(0, Payload.prefixLength(12_345_678), "eight digits do not fit with the colon");
        assertEquals(-1L, Payload.prefixMask(8));
        assertEquals(0xFFL, Payload.prefixMask(1));
    }

    @Test
    void packedFieldDigitsFindsDigitsAndTheirColon() {
        assertEquals(3, Payload.packedFieldDigits(Payload.word(bytes("123:xxxx"), 0)));
        assertEquals(1, Payload.packedFieldDigits(Payload.word(bytes("0:1:2:3:"), 0)));
        assertEquals(7, Payload.packedFieldDigits(Payload.word(bytes("1234567:"), 0)));
        assertEquals(0, Payload.packedFieldDigits(Payload.word(bytes("12345678"), 0)), "no colon in reach");
        assertEquals(0, Payload.packedFieldDigits(Payload.word(bytes(":1234567"), 0)), "empty field");
        assertEquals(0, Payload.packedFieldDigits(Payload.word(bytes("12x4:xxx"), 0)));
        assertEquals(0, Payload.packedFieldDigits(Payload.word(bytes("12/:xxxx"), 0)), "'/' is just below '0'");
        assertEquals(0, Payload.packedFieldDigits(Payload.word(bytes("12;:xxxx"), 0)), "';' is just above ':'");
        byte[] high = bytes("12:xxxxx");
        high[1] = (byte) ('2' | 0x80); // a non-ASCII byte whose low seven bits are a digit
        assertEquals(0, Payload.packedFieldDigits(Payload.word(high, 0)));
        // every byte value in every position: a digit only if '0'..'9'
        for (int pos = 0; pos < 7; pos++) {
            for (int v = 0; v < 256; v++) {
                byte[] w = bytes("11111111");
                w[7] = ':';
                w[pos] = (byte) v;
                int want = v >= '0' && v <= '9' ? 7 : pos == 0 ? 0 : v == ':' ? pos : 0;
                assertEquals(want, Payload.packedFieldDigits(Payload.word(w, 0)), "byte " + v + " at " + pos);
            }
        }
    }
}
