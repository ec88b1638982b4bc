package sockbench.client.sockjs;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The --validate mode catches what the hot path deliberately does not check. */
class FrameValidatorTest {

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void validFramesPass() {
        FrameValidator v = new FrameValidator(true);
        for (String ok : new String[] {"o", "h", "a[\"x\",\"\\u00e9\\\"\"]", "a[\"\u00e9\u4e2d\"]", "c[3000,\"Go away!\"]"}) {
            byte[] b = utf8(ok);
            assertDoesNotThrow(() -> v.check(b, 0, b.length), ok);
        }
    }

    @Test
    void invalidUtf8IsRejectedThoughTheHotPathWouldPassIt() {
        byte[] bad = {'a', '[', '"', (byte) 0xC3, (byte) 0x28, '"', ']'};  // 0xC3 0x28: broken 2-byte sequence
        SockJsByteScanner.scan(bad, 0, bad.length, new SockJsEventRecorder()); // hot path: fine
        assertThrows(SockJsProtocolException.class, () -> new FrameValidator(true).check(bad, 0, bad.length));
        assertThrows(SockJsProtocolException.class, () -> new FrameValidator(false).check(bad, 0, bad.length), "raw too");
    }

    @Test
    void badEscapesAndControlCharactersAreRejectedThoughTheHotPathWouldPassThem() {
        for (String s : new String[] {"a[\"\\q\"]", "a[\"\\u12\"]", "a[\"tab\there\"]"}) {
            byte[] b = utf8(s);
            SockJsByteScanner.scan(b, 0, b.length, new SockJsEventRecorder());
            assertThrows(SockJsProtocolException.class, () -> new FrameValidator(true).check(b, 0, b.length), s);
        }
    }
}
