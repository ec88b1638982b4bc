package sockbench.client.websocket;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Where the upgrade response ends: just past its blank line, found the same however the reads
 * split the bytes, and never at a lone CR LF or inside a longer run of CRs.
 */
class UpgradeResponseEndTest {

    private static final String RESPONSE = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";
    /** The response with the first frames after it in the same bytes: {@code o}, then {@code a["x"]}. */
    private static final byte[] STREAM = (RESPONSE + "\u0081\u0001o\u0081\u0005a[\"x\"]").getBytes(StandardCharsets.ISO_8859_1);

    /** The end found when {@code b} arrives in reads that break at {@code cuts}, as an index into {@code b}. */
    static int endIn(byte[] b, int... cuts) {
        UpgradeResponseEnd end = new UpgradeResponseEnd();
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : b.length;
            int found = end.find(b, from, to);
            if (found >= 0) {
                return found;
            }
            from = to;
        }
        return -1;
    }

    @Test
    void theEndIsJustPastTheBlankLineWhereverOneReadBreaks() {
        int expected = RESPONSE.length();
        assertEquals(expected, endIn(STREAM));
        for (int cut = 0; cut <= STREAM.length; cut++) {
            assertEquals(expected, endIn(STREAM, cut), "read split at " + cut);
        }
    }

    @Test
    void theEndIsFoundWhenEveryByteIsARead() {
        int[] cuts = new int[STREAM.length - 1];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = i + 1;
        }
        assertEquals(RESPONSE.length(), endIn(STREAM, cuts));
    }

    @Test
    void noEndBeforeTheBlankLine() {
        byte[] headers = "HTTP/1.1 101 OK\r\nA: b\r\n\r".getBytes(StandardCharsets.US_ASCII);
        assertEquals(-1, endIn(headers));
        assertEquals(-1, endIn("\n\r\n\n\r\r\n".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void aRunOfCarriageReturnsStillEndsAtTheirLastPair() {
        byte[] b = "HTTP/1.1 101 OK\r\r\n\r\nrest".getBytes(StandardCharsets.US_ASCII);
        assertEquals(b.length - 4, endIn(b));
        assertEquals(b.length - 4, endIn(b, 16, 17));
    }
}
