package sockbench.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sockbench.client.http.HttpReceiveTransport.EVENTSOURCE;
import static sockbench.client.http.HttpReceiveTransport.XHR_POLLING;
import static sockbench.client.http.HttpReceiveTransport.XHR_STREAMING;
import static sockbench.client.http.WireSamples.H_PRELUDE;
import static sockbench.client.http.WireSamples.bytes;
import static sockbench.client.http.WireSamples.esFrame;
import static sockbench.client.http.WireSamples.xhrFrame;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SockJS body framer alone, fed body ranges as the decoder would. */
class SockJsBodyFramerTest {

    /** Records frames as strings and the arrays they came in. */
    static final class Frames implements SockJsBodyFramer.FrameSink {
        final List<String> frames = new ArrayList<>();
        final List<byte[]> arrays = new ArrayList<>();

        @Override
        public void onFrame(byte[] b, int start, int end) {
            assertTrue(start < end, "empty frame");
            frames.add(new String(b, start, end - start, StandardCharsets.UTF_8));
            arrays.add(b);
        }
    }

    /** Frames one response whose body arrives as {@code ranges}, each in a padded array of its own. */
    private static List<String> frame(HttpReceiveTransport t, String... ranges) {
        Frames sink = new Frames();
        SockJsBodyFramer f = new SockJsBodyFramer(t, sink);
        f.startResponse();
        for (String r : ranges) {
            byte[] b = bytes(r);
            Feeds.whole(b, f::body);
        }
        f.endResponse();
        assertEquals(sink.frames.size(), f.frames());
        return sink.frames;
    }

    /** The frames of one response body, after asserting every split of it and byte-by-byte ranges give the same. */
    private static List<String> frameAllWays(HttpReceiveTransport t, String body) {
        List<String> expected = frame(t, body);
        byte[] b = bytes(body);
        Frames bytewise = new Frames();
        SockJsBodyFramer f = new SockJsBodyFramer(t, bytewise);
        f.startResponse();
        Feeds.byteByByte(b, f::body);
        f.endResponse();
        assertEquals(expected, bytewise.frames, "one byte per range");
        for (int at = 0; at <= b.length; at++) {
            Frames split = new Frames();
            SockJsBodyFramer g = new SockJsBodyFramer(t, split);
            g.startResponse();
            Feeds.splitAt(b, at, g::body);
            g.endResponse();
            assertEquals(expected, split.frames, "split before byte " + at);
        }
        return expected;
    }

    private static HttpProtocolException rejects(HttpReceiveTransport t, String... ranges) {
        return assertThrows(HttpProtocolException.class, () -> frame(t, ranges));
    }

    // --- xhr-streaming ---------------------------------------------------------------------------------

    @Test
    void xhrStreamingSkipsThePreludeAndGivesOneFramePerLine() {
        String body = H_PRELUDE + xhrFrame("o") + xhrFrame("h") + xhrFrame("a[\"hello\",\"world\"]") + xhrFrame("c[3000,\"Go away!\"]");
        assertEquals(List.of("o", "h", "a[\"hello\",\"world\"]", "c[3000,\"Go away!\"]"), frameAllWays(XHR_STREAMING, body));
    }

    @Test
    void xhrStreamingTakesAnyPreludeLengthFromOneTo4096() {
        assertEquals(List.of("o"), frame(XHR_STREAMING, "h\no\n"));
        assertEquals(List.of("o"), frame(XHR_STREAMING, "h".repeat(SockJsBodyFramer.MAX_PRELUDE) + "\no\n"));
        HttpProtocolException e = rejects(XHR_STREAMING, "h".repeat(SockJsBodyFramer.MAX_PRELUDE + 1) + "\no\n");
        assertTrue(e.getMessage().startsWith("xhr-streaming prelude over 4096"), e.getMessage());
    }

    @Test
    void xhrStreamingHeartbeatIsAFrameButThePreludeIsNot() {
        assertEquals(List.of(), frame(XHR_STREAMING, H_PRELUDE));
        assertEquals(List.of("h", "h"), frame(XHR_STREAMING, H_PRELUDE, "h\n", "h\n"));
    }

    @Test
    void xhrStreamingWithoutAPreludeIsRejected() {
        HttpProtocolException e = rejects(XHR_STREAMING, "o\n");
        assertTrue(e.getMessage().startsWith("bad xhr-streaming prelude"), e.getMessage());
        assertTrue(e.getMessage().contains("\"o\\n\""), e.getMessage());
        assertTrue(rejects(XHR_STREAMING, "\no\n").getMessage().startsWith("bad xhr-streaming prelude"));
        assertTrue(rejects(XHR_STREAMING, "hhhhx\no\n").getMessage().startsWith("bad xhr-streaming prelude"));
    }

    @Test
    void xhrStreamingEndingInsideThePreludeIsRejected() {
        assertTrue(rejects(XHR_STREAMING).getMessage().contains("ended in its prelude"));
        assertTrue(rejects(XHR_STREAMING, "hhhh").getMessage().contains("ended in its prelude"));
    }

    @Test
    void xhrStreamingEmptyLineIsRejected() {
        assertTrue(rejects(XHR_STREAMING, H_PRELUDE + "o\n\n").getMessage().contains("empty frame"));
    }

    @Test
    void xhrStreamingKeepsACarriageReturnAsPartOfTheFrame() {
        // xhr lines end in LF only; a CR is frame content for the SockJS scanner to judge
        assertEquals(List.of("a[\"x\"]\r"), frame(XHR_STREAMING, "h\na[\"x\"]\r\n"));
    }

    // --- eventsource -------------------------------------------------------------------------------------

    @Test
    void eventSourceSkipsThePreludeAndGivesOneFramePerDataLine() {
        String body = "\r\n" + esFrame("o") + esFrame("h") + esFrame("a[\"hello\"]") + esFrame("c[3000,\"Go away!\"]");
        assertEquals(List.of("o", "h", "a[\"hello\"]", "c[3000,\"Go away!\"]"), frameAllWays(EVENTSOURCE, body));
    }

    @Test
    void eventSourceTakesBareLineFeeds() {
        assertEquals(List.of("o", "a[\"x\"]"), frameAllWays(EVENTSOURCE, "\ndata: o\n\ndata: a[\"x\"]\n\n"));
    }

    @Test
    void eventSourceLineWithoutDataPrefixIsRejected() {
        for (String line : List.of("event: message", "id: 1", "dat: o", "data:o", "Data: o", ": comment", "o")) {
            HttpProtocolException e = rejects(EVENTSOURCE, "\r\n" + esFrame("o") + line + "\r\n\r\n");
            assertTrue(e.getMessage().startsWith("eventsource line without \"data: \""), line + ": " + e.getMessage());
        }
        // split inside the prefix: the error still names the line
        HttpProtocolException e = rejects(EVENTSOURCE, "\r\nda", "ta:o\r\n\r\n");
        assertTrue(e.getMessage().startsWith("eventsource line without \"data: \""), e.getMessage());
    }

    @Test
    void eventSourceWithoutItsPreludeIsRejected() {
        assertTrue(rejects(EVENTSOURCE, esFrame("o")).getMessage().startsWith("bad eventsource prelude"));
        assertTrue(rejects(EVENTSOURCE, "\rdata: o\r\n\r\n").getMessage().startsWith("bad eventsource prelude"));
        assertTrue(rejects(EVENTSOURCE).getMessage().contains("ended in its prelude"));
    }

    @Test
    void eventSourceLoneCarriageReturnIsRejected() {
        assertTrue(rejects(EVENTSOURCE, "\r\n" + esFrame("o") + "\rdata: h\r\n\r\n").getMessage().contains("CR not followed by LF"));
    }

    @Test
    void eventSourceEmptyDataLineIsRejected() {
        assertTrue(rejects(EVENTSOURCE, "\r\ndata: \r\n\r\n").getMessage().contains("empty frame"));
    }

    @Test
    void eventSourceEndingMidLineIsRejected() {
        assertTrue(rejects(EVENTSOURCE, "\r\ndat").getMessage().contains("ended mid-line"));
        assertTrue(rejects(EVENTSOURCE, "\r\ndata: a[\"x").getMessage().contains("ended inside a frame"));
    }

    // --- xhr-polling ---------------------------------------------------------------------------------------

    @Test
    void xhrPollingGivesTheResponsesOneFrame() {
        assertEquals(List.of("o"), frameAllWays(XHR_POLLING, "o\n"));
        assertEquals(List.of("a[\"m1\",\"m2\"]"), frameAllWays(XHR_POLLING, "a[\"m1\",\"m2\"]\n"));
        assertEquals(List.of("c[3000,\"Go away!\"]"), frameAllWays(XHR_POLLING, "c[3000,\"Go away!\"]\n"));
    }

    @Test
    void xhrPollingResponseWithTwoFramesIsRejected() {
        HttpProtocolException e = rejects(XHR_POLLING, "o\nh\n");
        assertTrue(e.getMessage().startsWith("xhr-polling response with more than one frame"), e.getMessage());
        assertTrue(rejects(XHR_POLLING, "o\n", "h").getMessage().startsWith("xhr-polling response with more than one frame"));
    }

    @Test
    void xhrPollingResponseWithoutAFrameIsRejected() {
        assertTrue(rejects(XHR_POLLING).getMessage().contains("without a frame"));
        assertTrue(rejects(XHR_POLLING, "a[\"x\"]").getMessage().contains("ended inside a frame"));
    }

    @Test
    void successiveResponsesEachStartWithTheirOwnPrelude() {
        Frames sink = new Frames();
        SockJsBodyFramer f = new SockJsBodyFramer(XHR_STREAMING, sink);
        for (int r = 0; r < 3; r++) {
            f.startResponse();
            Feeds.whole(bytes(H_PRELUDE + "a[\"r" + r + "\"]\n"), f::body);
            f.endResponse();
        }
        assertEquals(List.of("a[\"r0\"]", "a[\"r1\"]", "a[\"r2\"]"), sink.frames);
        assertEquals(3, f.frames());
    }

    // --- straddling, copies, caps ------------------------------------------------------------------------------

    @Test
    void frameStraddlingRangesIsAssembledWhole() {
        assertEquals(List.of("a[\"hello\"]", "h"), frame(XHR_STREAMING, H_PRELUDE + "a[\"hel", "lo\"", "]\nh", "\n"));
        assertEquals(List.of("a[\"hello\"]"), frame(EVENTSOURCE, "\r\ndata: a[\"hel", "lo\"]\r", "\n\r\n"));
    }

    @Test
    void frameInsideOneRangeIsPassedWithoutCopying() {
        Frames sink = new Frames();
        SockJsBodyFramer f = new SockJsBodyFramer(XHR_STREAMING, sink);
        f.startResponse();
        byte[] one = bytes(H_PRELUDE + "o\na[\"x\"]\n");
        f.body(one, 0, one.length);
        byte[] es = bytes("\r\ndata: a[\"y\"]\r\n\r\n");
        Frames esSink = new Frames();
        SockJsBodyFramer g = new SockJsBodyFramer(EVENTSOURCE, esSink);
        g.startResponse();
        g.body(es, 0, es.length);
        assertEquals(List.of("o", "a[\"x\"]"), sink.frames);
        assertSame(one, sink.arrays.get(0));
        assertSame(one, sink.arrays.get(1));
        assertSame(es, esSink.arrays.get(0));
        // one that straddles two ranges comes from the framer's own buffer, which is reused
        byte[] a = bytes("a[\"lo");
        byte[] b = bytes("ng\"]\n");
        f.body(a, 0, a.length);
        f.body(b, 0, b.length);
        f.body(a, 0, a.length);
        f.body(b, 0, b.length);
        assertEquals("a[\"long\"]", sink.frames.get(2));
        assertNotSame(a, sink.arrays.get(2));
        assertNotSame(b, sink.arrays.get(2));
        assertSame(sink.arrays.get(2), sink.arrays.get(3), "the assembly buffer is reused");
    }

    @Test
    void frameOverTheCapIsRejected() {
        Frames sink = new Frames();
        SockJsBodyFramer f = new SockJsBodyFramer(XHR_STREAMING, sink);
        f.startResponse();
        f.body(bytes("h\n"), 0, 2);
        byte[] mib = new byte[1024 * 1024];
        java.util.Arrays.fill(mib, (byte) 'x');
        for (int i = 0; i < 16; i++) {
            f.body(mib, 0, mib.length); // exactly 16 MiB gathered: still taken
        }
        HttpProtocolException e = assertThrows(HttpProtocolException.class, () -> f.body(mib, 0, 1));
        assertTrue(e.getMessage().startsWith("SockJS frame over 16777216 bytes"), e.getMessage());
    }

    @Test
    void frameOfExactlyTheCapIsTaken() {
        Frames sink = new Frames();
        SockJsBodyFramer f = new SockJsBodyFramer(XHR_POLLING, sink);
        f.startResponse();
        byte[] b = new byte[SockJsBodyFramer.MAX_FRAME + 1];
        java.util.Arrays.fill(b, (byte) 'x');
        b[b.length - 1] = '\n';
        f.body(b, 0, b.length);
        f.endResponse();
        assertEquals(1, sink.frames.size());
        assertEquals(SockJsBodyFramer.MAX_FRAME, sink.frames.get(0).length());
        SockJsBodyFramer g = new SockJsBodyFramer(XHR_POLLING, sink);
        g.startResponse();
        byte[] over = new byte[SockJsBodyFramer.MAX_FRAME + 2];
        java.util.Arrays.fill(over, (byte) 'x');
        over[over.length - 1] = '\n';
        assertThrows(HttpProtocolException.class, () -> g.body(over, 0, over.length));
    }

    @Test
    void responseEndingInsideAFrameIsRejected() {
        HttpProtocolException e = rejects(XHR_STREAMING, H_PRELUDE + "o\na[\"cut");
        assertTrue(e.getMessage().startsWith("xhr-streaming response ended inside a frame"), e.getMessage());
        assertTrue(e.getMessage().contains("a[\\\"cut"), e.getMessage());
    }

    @Test
    void startResponseDiscardsAPartialFrameOfAnUnendedResponse() {
        Frames sink = new Frames();
        SockJsBodyFramer f = new SockJsBodyFramer(XHR_STREAMING, sink);
        f.startResponse();
        f.body(bytes("h\na[\"cu"), 0, 7);
        f.startResponse();
        f.body(bytes("h\no\n"), 0, 4);
        f.endResponse();
        assertEquals(List.of("o"), sink.frames);
    }

    @Test
    void bodyOrEndWithoutAStartedResponseIsAnError() {
        SockJsBodyFramer f = new SockJsBodyFramer(XHR_STREAMING, new Frames());
        assertThrows(IllegalStateException.class, () -> f.body(new byte[] {'o'}, 0, 1));
        assertThrows(IllegalStateException.class, f::endResponse);
        f.startResponse();
        f.body(bytes("h\n"), 0, 2);
        f.endResponse();
        assertThrows(IllegalStateException.class, f::endResponse);
    }

    @Test
    void bodyRangeOutsideTheArrayIsRefused() {
        SockJsBodyFramer f = new SockJsBodyFramer(XHR_POLLING, new Frames());
        f.startResponse();
        byte[] b = new byte[4];
        assertThrows(IndexOutOfBoundsException.class, () -> f.body(b, -1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> f.body(b, 3, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> f.body(b, 0, 5));
        f.body(b, 2, 2); // empty: nothing happens
        assertEquals(0, f.frames());
    }

    @Test
    void nullArgumentsAreRefused() {
        assertThrows(NullPointerException.class, () -> new SockJsBodyFramer(null, new Frames()));
        assertThrows(NullPointerException.class, () -> new SockJsBodyFramer(XHR_POLLING, null));
    }

    @Test
    void frameAssemblyGrowsAndRefusesPastItsCap() {
        FrameAssembly a = new FrameAssembly(1000);
        byte[] b = new byte[300];
        a.append(b, 0, 300);
        a.append(b, 0, 300);
        a.append(b, 0, 300);
        a.append(b, 0, 100);
        assertEquals(1000, a.length());
        assertThrows(HttpProtocolException.class, () -> a.append(b, 0, 1));
        a.clear();
        assertEquals(0, a.length());
        a.append(b, 0, 1);
        assertEquals(1, a.length());
    }
}
