package sockbench.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sockbench.client.http.HttpReceiveTransport.EVENTSOURCE;
import static sockbench.client.http.HttpReceiveTransport.XHR_POLLING;
import static sockbench.client.http.HttpReceiveTransport.XHR_STREAMING;
import static sockbench.client.http.WireSamples.H_PRELUDE;
import static sockbench.client.http.WireSamples.LAST_CHUNK;
import static sockbench.client.http.WireSamples.NODE_EVENTSOURCE_HEAD;
import static sockbench.client.http.WireSamples.NODE_STREAMING_HEAD;
import static sockbench.client.http.WireSamples.TORNADO_STREAMING_HEAD;
import static sockbench.client.http.WireSamples.bytes;
import static sockbench.client.http.WireSamples.chunk;
import static sockbench.client.http.WireSamples.esFrame;
import static sockbench.client.http.WireSamples.message;
import static sockbench.client.http.WireSamples.nodePoll;
import static sockbench.client.http.WireSamples.tornadoPoll;
import static sockbench.client.http.WireSamples.xhrFrame;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Whole receive paths, decoder then framer, on connections as the servers fill them: every
 * stream fed in one read, one byte per read, and in two reads split at every byte position (the
 * 128 KiB one at every position near a line feed and every 487th elsewhere) gives the same frames
 * and ends.
 */
class HttpTransportsWireTest {

    private static List<String> receiveAllWays(String wire, HttpReceiveTransport t) {
        byte[] b = bytes(wire);
        List<String> expected = WireRecorder.whole(b, t);
        WireRecorder.assertSameAllWays(b, t, expected, WireRecorder.positions(b));
        return expected;
    }

    @Test
    void nodeXhrStreamingFramesAreDeliveredAndTheNextResponseStartsWithItsOwnPrelude() {
        String wire = NODE_STREAMING_HEAD + chunk(H_PRELUDE) + chunk(xhrFrame("o")) + chunk(xhrFrame("h"))
                + chunk(xhrFrame("a[\"m1\"]")) + chunk(xhrFrame("a[\"m2\",\"m3\"]")) + LAST_CHUNK
                + NODE_STREAMING_HEAD + chunk(H_PRELUDE) + chunk(xhrFrame("a[\"m4\"]")) + chunk(xhrFrame("c[3000,\"Go away!\"]"))
                + LAST_CHUNK;
        assertEquals(List.of("head 200", "frame o", "frame h", "frame a[\"m1\"]", "frame a[\"m2\",\"m3\"]", "end keep-alive",
                "head 200", "frame a[\"m4\"]", "frame c[3000,\"Go away!\"]", "end keep-alive", "eof true"),
                receiveAllWays(wire, XHR_STREAMING));
    }

    @Test
    void framesStraddlingChunkBoundariesAreDeliveredWhole() {
        // a server that chunks independently of frames (a proxy re-chunking, or writes coalesced and cut)
        String body = H_PRELUDE + "o\n" + "a[\"hello\"]\n" + "h\n" + "a[\"world\"]\n";
        String wire = TORNADO_STREAMING_HEAD + chunk(body.substring(0, 2000)) + chunk(body.substring(2000, 2052))
                + chunk(body.substring(2052, 2056)) + chunk(body.substring(2056, 2057)) + chunk(body.substring(2057))
                + LAST_CHUNK;
        assertEquals(List.of("head 200", "frame o", "frame a[\"hello\"]", "frame h", "frame a[\"world\"]", "end keep-alive",
                "eof true"), receiveAllWays(wire, XHR_STREAMING));
    }

    @Test
    void xhrStreamingResponseEndsAfterTheResponseLimitAndTheNextOneFollowsOnTheSameConnection() {
        // sockjs-node ends a streaming response once the frames written reach response_limit
        // (128 KiB; the prelude does not count), with the last chunk; the client's next request
        // gets a new response on the same keep-alive connection.
        int limit = 128 * 1024;
        StringBuilder wire = new StringBuilder(NODE_STREAMING_HEAD).append(chunk(H_PRELUDE)).append(chunk(xhrFrame("o")));
        List<String> expected = new ArrayList<>(List.of("head 200", "frame o"));
        int sent = 2;
        int seq = 0;
        while (sent < limit) {
            String frame = message(seq++, 1000 + (seq % 7) * 13);
            wire.append(chunk(xhrFrame(frame)));
            expected.add("frame " + frame);
            sent += frame.length() + 1;
            if (seq % 50 == 0) {
                wire.append(chunk(xhrFrame("h")));
                expected.add("frame h");
                sent += 2;
            }
        }
        wire.append(LAST_CHUNK);
        expected.add("end keep-alive");
        wire.append(NODE_STREAMING_HEAD).append(chunk(H_PRELUDE));
        expected.add("head 200");
        for (int i = 0; i < 3; i++) {
            String frame = message(seq++, 200);
            wire.append(chunk(xhrFrame(frame)));
            expected.add("frame " + frame);
        }
        wire.append(LAST_CHUNK);
        expected.add("end keep-alive");
        expected.add("eof true");
        byte[] b = bytes(wire.toString());
        assertTrue(b.length > limit + 2048, "the first response holds the full limit: " + b.length);
        int ways = WireRecorder.assertSameAllWays(b, XHR_STREAMING, expected, WireRecorder.positions(b));
        assertTrue(ways > 1000, "tried " + ways + " ways");
        // and in the reads a socket gives: 64 KiB, 16 KiB, 1500-byte segments
        for (int size : new int[] {65536, 16384, 1500, 7}) {
            WireRecorder r = new WireRecorder(XHR_STREAMING);
            Feeds.inPiecesOf(b, size, r::feed);
            assertEquals(expected, r.eof().events, "reads of " + size);
        }
    }

    @Test
    void nodeEventSourceFramesAreDelivered() {
        String wire = NODE_EVENTSOURCE_HEAD + chunk("\r\n") + chunk(esFrame("o")) + chunk(esFrame("h"))
                + chunk(esFrame("a[\"m1\",\"m2\"]")) + LAST_CHUNK
                + NODE_EVENTSOURCE_HEAD + chunk("\r\n") + chunk(esFrame("a[\"m3\"]")) + chunk(esFrame("c[3000,\"Go away!\"]"))
                + LAST_CHUNK;
        assertEquals(List.of("head 200", "frame o", "frame h", "frame a[\"m1\",\"m2\"]", "end keep-alive",
                "head 200", "frame a[\"m3\"]", "frame c[3000,\"Go away!\"]", "end keep-alive", "eof true"),
                receiveAllWays(wire, EVENTSOURCE));
    }

    @Test
    void eventSourceFrameWithEscapedLineBreaksStaysOneFrame() {
        // sockjs-node escapes CR, LF and NUL in eventsource frames as JSON \\u escapes
        String frame = "a[\"line1\\u000aline2\\u000d\"]";
        String wire = NODE_EVENTSOURCE_HEAD + chunk("\r\n" + esFrame(frame)) + LAST_CHUNK;
        assertEquals(List.of("head 200", "frame " + frame, "end keep-alive", "eof true"), receiveAllWays(wire, EVENTSOURCE));
    }

    @Test
    void pollingResponsesWithContentLengthOrChunkedGiveOneFrameEach() {
        String wire = tornadoPoll("o") + tornadoPoll("a[\"m1\",\"m2\"]") + nodePoll("h") + nodePoll("c[3000,\"Go away!\"]");
        assertEquals(List.of("head 200", "frame o", "end keep-alive", "head 200", "frame a[\"m1\",\"m2\"]", "end keep-alive",
                "head 200", "frame h", "end keep-alive", "head 200", "frame c[3000,\"Go away!\"]", "end keep-alive", "eof true"),
                receiveAllWays(wire, XHR_POLLING));
    }

    @Test
    void pollingWithNonAsciiMessageKeepsTheBytes() {
        String frame = "a[\"caf\u00e9 \u2603 \ud83d\ude00\"]";
        assertEquals(List.of("head 200", "frame " + frame, "end keep-alive", "eof true"),
                receiveAllWays(tornadoPoll(frame), XHR_POLLING));
    }

    @Test
    void xhrSendAnswersOf204And200WithoutBodyEndCleanly() {
        String wire = WireSamples.NODE_204 + WireSamples.TORNADO_204
                + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
        assertEquals(List.of("head 204", "end keep-alive", "head 204", "end keep-alive", "head 200", "end keep-alive",
                "head 200", "end keep-alive", "eof true"), receiveAllWays(wire, null));
    }

    @Test
    void closeDelimitedXhrStreamingEndsAtEof() {
        // Tornado to an HTTP/1.0 request: no chunking, no Content-Length, the body ends with the connection
        String wire = "HTTP/1.0 200 OK\r\nServer: TornadoServer/6.4.1\r\nContent-Type: application/javascript; charset=UTF-8\r\n\r\n"
                + H_PRELUDE + "o\n" + "a[\"m1\"]\n" + "h\n";
        assertEquals(List.of("head 200", "frame o", "frame a[\"m1\"]", "frame h", "end close", "eof true"),
                receiveAllWays(wire, XHR_STREAMING));
    }

    @Test
    void closeDelimitedBodyCutInsideAFrameFailsAtEof() {
        String wire = "HTTP/1.0 200 OK\r\n\r\n" + H_PRELUDE + "o\na[\"cu";
        WireRecorder r = new WireRecorder(XHR_STREAMING);
        Feeds.whole(bytes(wire), r::feed);
        HttpProtocolException e = assertThrows(HttpProtocolException.class, r::eof);
        assertTrue(e.getMessage().contains("ended inside a frame"), e.getMessage());
    }

    @Test
    void secondReceivingRequestOnALiveSessionGetsCloseFrame2010AndTheResponseEnds() {
        // sockjs-node 0.3.24 (Session.register) and server-python answer a second receiving
        // request on a session that has a receiver with the prelude, c[2010,...] and the end of
        // that response; the first receiver carries on.
        String node = NODE_STREAMING_HEAD + chunk(H_PRELUDE) + chunk(xhrFrame("c[2010,\"Another connection still open\"]"))
                + LAST_CHUNK;
        assertEquals(List.of("head 200", "frame c[2010,\"Another connection still open\"]", "end keep-alive", "eof true"),
                receiveAllWays(node, XHR_STREAMING));
        String poll = tornadoPoll("c[2010,\"Another connection still open\"]");
        assertEquals(List.of("head 200", "frame c[2010,\"Another connection still open\"]", "end keep-alive", "eof true"),
                receiveAllWays(poll, XHR_POLLING));
    }

    @Test
    void closedSessionAnswersWithItsCloseFrameAndEndsTheResponse() {
        // after c[3000,"Go away!"] both servers end the streaming response; a request to the
        // closing session gets the close frame again until disconnect_delay has passed
        String wire = NODE_EVENTSOURCE_HEAD + chunk("\r\n") + chunk(esFrame("o")) + chunk(esFrame("c[3000,\"Go away!\"]"))
                + LAST_CHUNK + NODE_EVENTSOURCE_HEAD + chunk("\r\n") + chunk(esFrame("c[3000,\"Go away!\"]")) + LAST_CHUNK;
        assertEquals(List.of("head 200", "frame o", "frame c[3000,\"Go away!\"]", "end keep-alive",
                "head 200", "frame c[3000,\"Go away!\"]", "end keep-alive", "eof true"), receiveAllWays(wire, EVENTSOURCE));
    }

    @Test
    void truncatedStreamingResponseIsReportedByEof() {
        String wire = NODE_STREAMING_HEAD + chunk(H_PRELUDE) + chunk(xhrFrame("o")) + "a\r\na[\"cut";
        assertEquals(List.of("head 200", "frame o", "eof false"), receiveAllWays(wire, XHR_STREAMING));
    }

    @Test
    void errorStatusIsReportedWithoutFraming() {
        String wire = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=UTF-8\r\nRetry-After: 1\r\n"
                + "Content-Length: 20\r\n\r\nsession limit reache";
        assertEquals(List.of("head 503", "body session limit reache", "end keep-alive", "eof true"),
                receiveAllWays(wire, XHR_STREAMING));
    }

    // --- malformed bodies through the decoder ------------------------------------------------------------------

    /** Asserts that {@code wire} fails with {@code message} in one read, byte by byte and split anywhere. */
    private static void failsAllWays(String wire, HttpReceiveTransport t, String message) {
        byte[] b = bytes(wire);
        for (int at = -1; at <= b.length; at++) {
            WireRecorder r = new WireRecorder(t);
            int k = at;
            HttpProtocolException e = assertThrows(HttpProtocolException.class, () -> {
                if (k < 0) {
                    Feeds.byteByByte(b, r::feed);
                } else {
                    Feeds.splitAt(b, k, r::feed);
                }
            }, "split at " + k);
            assertTrue(e.getMessage().contains(message), e.getMessage());
        }
    }

    @Test
    void pollingResponseWithTwoFramesFailsHoweverItIsSplit() {
        failsAllWays("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\no\nh\n", XHR_POLLING, "more than one frame");
    }

    @Test
    void eventSourceLineWithoutDataFailsHoweverItIsSplit() {
        failsAllWays(NODE_EVENTSOURCE_HEAD + chunk("\r\n") + chunk("event: x\r\n\r\n") + LAST_CHUNK, EVENTSOURCE,
                "eventsource line without \"data: \"");
    }

    @Test
    void badPreludeFailsHoweverItIsSplit() {
        failsAllWays(NODE_STREAMING_HEAD + chunk("o\n") + LAST_CHUNK, XHR_STREAMING, "bad xhr-streaming prelude");
    }

    @Test
    void frameOfAStreamingResponseIsPassedAsASliceOfTheReadBuffer() {
        byte[] read = bytes(NODE_STREAMING_HEAD + chunk(H_PRELUDE) + chunk(xhrFrame("o")) + chunk(xhrFrame("a[\"x\"]")));
        List<byte[]> arrays = new ArrayList<>();
        List<String> frames = new ArrayList<>();
        SockJsBodyFramer framer = new SockJsBodyFramer(XHR_STREAMING, (b, s, e) -> {
            arrays.add(b);
            frames.add(new String(b, s, e - s, StandardCharsets.UTF_8));
        });
        HttpResponseDecoder d = new HttpResponseDecoder(new HttpResponseDecoder.Listener() {
            @Override
            public void onHead(int status) {
                framer.startResponse();
            }

            @Override
            public void onBody(byte[] b, int start, int end) {
                framer.body(b, start, end);
            }

            @Override
            public void onEnd(boolean keepAlive) {
                framer.endResponse();
            }
        });
        d.feed(read, 0, read.length);
        assertEquals(List.of("o", "a[\"x\"]"), frames);
        assertTrue(arrays.stream().allMatch(a -> a == read), "the read buffer itself, no copy");
    }
}
