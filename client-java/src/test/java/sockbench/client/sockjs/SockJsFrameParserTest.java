package sockbench.client.sockjs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SockJsFrameParserTest {

    private final SockJsFrameParser parser = new SockJsFrameParser();

    private List<String> parse(String frame) {
        SockJsEventRecorder r = new SockJsEventRecorder();
        parser.parse(frame, r);
        return r.events;
    }

    @Test
    void openAndHeartbeat() {
        assertEquals(List.of("open"), parse("o"));
        assertEquals(List.of("heartbeat"), parse("h"));
    }

    @Test
    void oneMessage() {
        assertEquals(List.of("msg:hello"), parse("a[\"hello\"]"));
    }

    @Test
    void severalMessagesInOneFrameInOrder() {
        assertEquals(List.of("msg:1:2:3", "msg:", "msg:third"), parse("a[\"1:2:3\",\"\",\"third\"]"));
    }

    @Test
    void whitespaceBetweenTokensIsAllowed() {
        assertEquals(List.of("msg:a", "msg:b"), parse("a[ \"a\" ,\n\t\"b\" ] "));
        assertEquals(List.of(), parse("a[]"));
    }

    @Test
    void escapesAreUnescaped() {
        assertEquals(List.of("msg:q\"b\\s/n\nt\tr\rb\bf\f"),
                parse("a[\"q\\\"b\\\\s\\/n\\nt\\tr\\rb\\bf\\f\"]"));
    }

    @Test
    void unicodeEscapesIncludingSurrogatePairs() {
        assertEquals(List.of("msg:caf\u00e9 \u2603 \uD83D\uDE00", "msg:plain"),
                parse("a[\"caf\\u00e9 \\u2603 \\ud83d\\uDE00\",\"plain\"]"));
    }

    @Test
    void escapedAndPlainMessagesMixInOneFrame() {
        assertEquals(List.of("msg:x\"y", "msg:z", "msg:\u0041B"), parse("a[\"x\\\"y\",\"z\",\"\\u0041B\"]"));
    }

    @Test
    void nonAsciiCharactersPassThrough() {
        assertEquals(List.of("msg:ünïcødé ☃"), parse("a[\"ünïcødé ☃\"]"));
    }

    @Test
    void closeFrame() {
        assertEquals(List.of("close:3000:Go away!"), parse("c[3000,\"Go away!\"]"));
        assertEquals(List.of("close:2010:Another connection still open"),
                parse("c[2010, \"Another connection still open\"]"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "x", "oo", "h1", "a", "a[", "a[\"x\"", "a[\"x\",]", "a[\"x\" \"y\"]", "a[1]",
        "a[\"x\"]junk", "a[\"bad \\q escape\"]", "a[\"\\u12\"]", "a[\"\\u12G4\"]", "a[\"unterminated]",
        "a[\"ctl\u0001\"]", "c[]", "c[3000]", "c[\"3000\",\"x\"]", "c[3000,\"x\"", "m\"x\""})
    void malformedFramesAreRejected(String frame) {
        assertThrows(SockJsProtocolException.class, () -> parse(frame));
    }

    @Test
    void theParserIsReusableAfterAnError() {
        assertThrows(SockJsProtocolException.class, () -> parse("a[\"\\"));
        assertEquals(List.of("msg:ok\n"), parse("a[\"ok\\n\"]"));
    }
}
