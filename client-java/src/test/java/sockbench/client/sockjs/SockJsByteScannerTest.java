package sockbench.client.sockjs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SockJsByteScannerTest {

    static List<String> scan(String frame) {
        // Padded on both sides: the scanner must respect the slice it is given.
        byte[] b = ("XX" + frame + "\"YY").getBytes(StandardCharsets.UTF_8);
        int len = frame.getBytes(StandardCharsets.UTF_8).length;
        SockJsEventRecorder r = new SockJsEventRecorder();
        SockJsByteScanner.scan(b, 2, 2 + len, r);
        return r.events;
    }

    @Test
    void frameTypes() {
        assertEquals(List.of("open"), scan("o"));
        assertEquals(List.of("heartbeat"), scan("h"));
        assertEquals(List.of(), scan("a[]"));
        assertEquals(List.of("msg:1:2:3:4:5:xxx", "msg:b"), scan("a[\"1:2:3:4:5:xxx\",\"b\"]"));
        assertEquals(List.of("close:3000:Go away!"), scan("c[3000,\"Go away!\"]"));
    }

    @Test
    void escapedQuotesAndUnicodeEscapesDoNotSplitOrEndMessages() {
        // Messages are passed still escaped; what matters is where each one ends and how many there are.
        assertEquals(List.of("msg:say \\\"hi\\\"", "msg:\\\\", "msg:\\u00e9\\u0022x", "msg:\u00e9"),
                scan("a[\"say \\\"hi\\\"\",\"\\\\\",\"\\u00e9\\u0022x\",\"\u00e9\"]"));
        // A long message with an escaped quote past the first eight bytes (the SWAR path).
        String longOne = "0123456789abcdef\\\"0123456789abcdef\\\\";
        assertEquals(List.of("msg:" + longOne, "msg:z"), scan("a[\"" + longOne + "\",\"z\"]"));
    }

    @Test
    void whitespaceBetweenTokensIsAllowed() {
        assertEquals(List.of("msg:a", "msg:b"), scan("a [ \"a\" ,\n\"b\" ] "));
    }

    @Test
    void theClosingQuoteIsFoundAtEveryOffset() {
        for (int len = 0; len < 40; len++) {
            String m = "x".repeat(len);
            assertEquals(List.of("msg:" + m, "msg:" + m), scan("a[\"" + m + "\",\"" + m + "\"]"), "length " + len);
        }
    }

    @Test
    void brokenFramesAreRejected() {
        for (String bad : new String[] {"", "x", "oo", "h1", "a", "a[", "a[\"x\"", "a[\"x\\\"]", "a[\"x\" \"y\"]",
                "a[1]", "a[\"x\"]z", "a[\"x\",]", "c[x,\"r\"]"}) {
            assertThrows(SockJsProtocolException.class, () -> scan(bad), bad);
        }
    }
}
