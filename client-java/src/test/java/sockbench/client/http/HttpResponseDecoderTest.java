package sockbench.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sockbench.client.http.WireSamples.LAST_CHUNK;
import static sockbench.client.http.WireSamples.NODE_204;
import static sockbench.client.http.WireSamples.NODE_STREAMING_HEAD;
import static sockbench.client.http.WireSamples.TORNADO_204;
import static sockbench.client.http.WireSamples.TORNADO_STREAMING_HEAD;
import static sockbench.client.http.WireSamples.bytes;
import static sockbench.client.http.WireSamples.chunk;
import static sockbench.client.http.WireSamples.concat;
import static sockbench.client.http.WireSamples.tornadoPoll;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The HTTP/1.1 response decoder alone: framing, keep-alive, split invariance, errors. */
class HttpResponseDecoderTest {

    /** The events of {@code wire} fed whole, after asserting every split and byte-by-byte feed gives the same. */
    private static List<String> decodeAllWays(String wire) {
        byte[] b = bytes(wire);
        List<String> expected = WireRecorder.whole(b, null);
        WireRecorder.assertSameAllWays(b, null, expected, WireRecorder.positions(b));
        return expected;
    }

    private static HttpProtocolException rejects(String wire) {
        WireRecorder r = new WireRecorder(null);
        return assertThrows(HttpProtocolException.class, () -> Feeds.whole(bytes(wire), r::feed));
    }

    /** Asserts that feeding {@code wire} whole, byte by byte, and split anywhere throws, with {@code message} in the message. */
    private static void rejectsAllWays(String wire, String message) {
        byte[] b = bytes(wire);
        List<Runnable> ways = new ArrayList<>();
        ways.add(() -> Feeds.whole(b, new WireRecorder(null)::feed));
        ways.add(() -> Feeds.byteByByte(b, new WireRecorder(null)::feed));
        for (int at = 0; at <= b.length; at++) {
            int k = at;
            ways.add(() -> Feeds.splitAt(b, k, new WireRecorder(null)::feed));
        }
        for (Runnable way : ways) {
            HttpProtocolException e = assertThrows(HttpProtocolException.class, way::run);
            assertTrue(e.getMessage().contains(message), e.getMessage());
        }
    }

    // --- real responses -------------------------------------------------------------------------------

    @Test
    void nodeChunkedStreamingResponseGivesHeadDechunkedBodyAndKeepAliveEnd() {
        String body = "h".repeat(2048) + "\n" + "o\n" + "h\n" + "a[\"hello\"]\n";
        String wire = NODE_STREAMING_HEAD + chunk("h".repeat(2048) + "\n") + chunk("o\n") + chunk("h\n")
                + chunk("a[\"hello\"]\n") + LAST_CHUNK;
        assertEquals(List.of("head 200", "body " + body, "end keep-alive", "eof true"), decodeAllWays(wire));
    }

    @Test
    void tornadoChunkedStreamingResponseWithoutConnectionHeaderKeepsAliveOnHttp11() {
        String wire = TORNADO_STREAMING_HEAD + chunk("o\n") + LAST_CHUNK;
        assertEquals(List.of("head 200", "body o\n", "end keep-alive", "eof true"), decodeAllWays(wire));
    }

    @Test
    void contentLengthPollingResponsesFollowOneAnotherOnOneConnection() {
        String wire = tornadoPoll("o") + tornadoPoll("a[\"m1\",\"m2\"]") + tornadoPoll("h");
        assertEquals(List.of("head 200", "body o\n", "end keep-alive",
                "head 200", "body a[\"m1\",\"m2\"]\n", "end keep-alive",
                "head 200", "body h\n", "end keep-alive", "eof true"), decodeAllWays(wire));
    }

    @Test
    void status204HasNoBodyAndTheNextResponseFollowsAtOnce() {
        String wire = NODE_204 + TORNADO_204 + NODE_204;
        assertEquals(List.of("head 204", "end keep-alive", "head 204", "end keep-alive", "head 204", "end keep-alive",
                "eof true"), decodeAllWays(wire));
    }

    @Test
    void sockjsGoXhrSendAnswersAre204AndA404WithContentLength() {
        String wire = WireSamples.GO_204 + WireSamples.GO_404 + WireSamples.GO_204;
        assertEquals(List.of("head 204", "end keep-alive", "head 404", "body 404 page not found\n", "end keep-alive",
                "head 204", "end keep-alive", "eof true"), decodeAllWays(wire));
    }

    @Test
    void status204IgnoresAContentLengthItShouldNotHave() {
        String wire = "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n" + NODE_204;
        assertEquals(List.of("head 204", "end keep-alive", "head 204", "end keep-alive", "eof true"), decodeAllWays(wire));
    }

    @Test
    void status304HasNoBody() {
        String wire = "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\nETag: \"x\"\r\n\r\n" + tornadoPoll("o");
        assertEquals(List.of("head 304", "end keep-alive", "head 200", "body o\n", "end keep-alive", "eof true"),
                decodeAllWays(wire));
    }

    @Test
    void contentLengthZeroIsAnEmptyBody() {
        String wire = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n" + NODE_204;
        assertEquals(List.of("head 200", "end keep-alive", "head 204", "end keep-alive", "eof true"), decodeAllWays(wire));
    }

    @Test
    void closeDelimitedBodyEndsAtEofWithoutKeepAlive() {
        // Tornado answering an HTTP/1.0 xhr_streaming request: no chunking, the body ends with the connection.
        String wire = "HTTP/1.0 200 OK\r\nServer: TornadoServer/6.4.1\r\nContent-Type: application/javascript; charset=UTF-8\r\n\r\n"
                + "hhhh\no\nh\n";
        assertEquals(List.of("head 200", "body hhhh\no\nh\n", "end close", "eof true"), decodeAllWays(wire));
    }

    @Test
    void http11ResponseWithNeitherLengthNorChunkingIsCloseDelimitedToo() {
        String wire = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nabc";
        assertEquals(List.of("head 200", "body abc", "end close", "eof true"), decodeAllWays(wire));
    }

    @Test
    void connectionCloseEndsWithoutKeepAliveAndIgnoresLaterBytes() {
        String wire = "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok" + "garbage that is no response";
        assertEquals(List.of("head 200", "body ok", "end close", "eof true"), decodeAllWays(wire));
    }

    @Test
    void connectionHeaderTokensAreCaseInsensitiveAndListed() {
        String wire = "HTTP/1.1 200 OK\r\nconnection: Upgrade, CLOSE\r\ncontent-length: 1\r\n\r\nx";
        assertEquals(List.of("head 200", "body x", "end close", "eof true"), decodeAllWays(wire));
    }

    @Test
    void http10WithoutKeepAliveEndsTheConnection() {
        String wire = "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\no\n";
        assertEquals(List.of("head 200", "body o\n", "end close", "eof true"), decodeAllWays(wire));
    }

    @Test
    void http10WithKeepAliveKeepsTheConnection() {
        String wire = "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\no\n" + tornadoPoll("h");
        assertEquals(List.of("head 200", "body o\n", "end keep-alive", "head 200", "body h\n", "end keep-alive", "eof true"),
                decodeAllWays(wire));
    }

    @Test
    void headerNamesAreCaseInsensitive() {
        String wire = "HTTP/1.1 200 OK\r\nTRANSFER-ENCODING: Chunked\r\n\r\n" + chunk("abc") + LAST_CHUNK
                + "HTTP/1.1 200 OK\r\ncOnTeNt-LeNgTh:   3  \r\n\r\nxyz";
        assertEquals(List.of("head 200", "body abc", "end keep-alive", "head 200", "body xyz", "end keep-alive", "eof true"),
                decodeAllWays(wire));
    }

    @Test
    void chunkExtensionsUpperCaseHexAndTrailersAreTolerated() {
        String wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;name=value;other\r\nhello\r\n"
                + "1A \t; ext=\"quoted;\"\r\n" + "abcdefghijklmnopqrstuvwxyz" + "\r\n"
                + "0\r\nExpires: never\r\nX-Trailer: 1\r\n\r\n"
                + NODE_204;
        assertEquals(List.of("head 200", "body helloabcdefghijklmnopqrstuvwxyz", "end keep-alive",
                "head 204", "end keep-alive", "eof true"), decodeAllWays(wire));
    }

    @Test
    void bareLineFeedsAreTakenAsLineEnds() {
        String wire = "HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\nok\n0\n\n" + "HTTP/1.1 204 No Content\n\n";
        assertEquals(List.of("head 200", "body ok", "end keep-alive", "head 204", "end keep-alive", "eof true"),
                decodeAllWays(wire));
    }

    @Test
    void emptyLinesBetweenResponsesAreSkipped() {
        String wire = "\r\n" + tornadoPoll("o") + "\r\n\r\n" + tornadoPoll("h");
        assertEquals(List.of("head 200", "body o\n", "end keep-alive", "head 200", "body h\n", "end keep-alive", "eof true"),
                decodeAllWays(wire));
    }

    @Test
    void interim100ContinueIsConsumedAndOnlyTheFinalResponseReported() {
        String wire = "HTTP/1.1 100 Continue\r\n\r\n" + "HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n" + NODE_204;
        assertEquals(List.of("head 204", "end keep-alive", "eof true"), decodeAllWays(wire));
    }

    @Test
    void notFoundAndServerErrorResponsesAreReportedWithTheirBodies() {
        // sockjs-node's 404 for xhr_send to an unknown session, then its 500s for an empty and a broken body
        String wire = WireSamples.nodeError(404, "Not Found", "") + WireSamples.nodeError(500, "Internal Server Error", "Payload expected.")
                + WireSamples.nodeError(500, "Internal Server Error", "Broken JSON encoding.");
        assertEquals(List.of("head 404", "end keep-alive", "head 500", "body Payload expected.", "end keep-alive",
                "head 500", "body Broken JSON encoding.", "end keep-alive", "eof true"), decodeAllWays(wire));
    }

    @Test
    void statusLineWithoutReasonPhraseIsTaken() {
        assertEquals(List.of("head 204", "end keep-alive", "eof true"), decodeAllWays("HTTP/1.1 204\r\n\r\n"));
        assertEquals(List.of("head 204", "end keep-alive", "eof true"), decodeAllWays("HTTP/1.1 204 \r\n\r\n"));
    }

    @Test
    void foldedUnrelatedHeaderIsIgnored() {
        String wire = "HTTP/1.1 200 OK\r\nX-Long: a\r\n  b\r\nContent-Length: 1\r\n\r\nz";
        assertEquals(List.of("head 200", "body z", "end keep-alive", "eof true"), decodeAllWays(wire));
    }

    @Test
    void repeatedEqualContentLengthsAreTaken() {
        String wire = "HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nok";
        assertEquals(List.of("head 200", "body ok", "end keep-alive", "eof true"), decodeAllWays(wire));
    }

    // --- Transfer-Encoding and Content-Length together (RFC 9112 6.3 rule 3) -----------------------------

    @Test
    void chunkedWinsOverContentLengthAndTheConnectionIsNotReused() {
        String wire = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n"
                + chunk("abc") + LAST_CHUNK + "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nsmuggled";
        assertEquals(List.of("head 200", "body abc", "end close", "eof true"), decodeAllWays(wire));
    }

    @Test
    void transferEncodingOtherThanChunkedIsRefused() {
        assertTrue(rejects("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n").getMessage().contains("unsupported Transfer-Encoding"));
        assertTrue(rejects("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n").getMessage().contains("unsupported"));
        assertTrue(rejects("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\n\r\n").getMessage().contains("twice"));
        assertTrue(rejects("HTTP/1.1 200 OK\r\nTransfer-Encoding: \r\n\r\n").getMessage().contains("empty Transfer-Encoding"));
    }

    @Test
    void transferEncodingInAnHttp10ResponseIsRefused() {
        assertTrue(rejects("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n").getMessage().contains("HTTP/1.0"));
    }

    // --- eof -----------------------------------------------------------------------------------------------

    @Test
    void eofBetweenResponsesIsClean() {
        WireRecorder r = new WireRecorder(null);
        assertTrue(r.decoder.eof(), "a fresh connection closed");
        r = new WireRecorder(null);
        Feeds.whole(bytes(tornadoPoll("o") + "\r\n"), r::feed);
        assertFalse(r.decoder.inResponse());
        assertTrue(r.decoder.eof(), "closed after a complete response and a stray CRLF");
    }

    @Test
    void eofInsideAHeadIsATruncatedResponse() {
        assertTruncatedAtEveryByte(bytes(NODE_204), 1);
    }

    @Test
    void eofInsideAChunkedBodyIsATruncatedResponse() {
        // cut anywhere from the first byte to just before the last byte of the terminating CRLF
        assertTruncatedAtEveryByte(bytes(NODE_STREAMING_HEAD + chunk("o\n") + chunk("a[\"x\"]\n") + LAST_CHUNK), 1);
    }

    @Test
    void eofInsideAContentLengthBodyIsATruncatedResponse() {
        assertTruncatedAtEveryByte(bytes(tornadoPoll("a[\"hello\"]")), 1);
    }

    /** Every prefix of {@code complete} from {@code from} bytes up to one byte short: eof() says false. */
    private static void assertTruncatedAtEveryByte(byte[] complete, int from) {
        for (int n = from; n < complete.length; n++) {
            WireRecorder r = new WireRecorder(null);
            Feeds.piece(complete, 0, n, r::feed);
            assertTrue(r.decoder.inResponse(), "in a response after " + n + " bytes");
            assertFalse(r.decoder.eof(), "eof after " + n + " of " + complete.length + " bytes");
            assertFalse(r.decoder.inResponse(), "after eof");
            assertFalse(r.events.contains("end keep-alive"), "no end after " + n + " bytes");
        }
        WireRecorder r = new WireRecorder(null);
        Feeds.whole(complete, r::feed);
        assertFalse(r.decoder.inResponse());
        assertTrue(r.decoder.eof(), "the complete response");
    }

    @Test
    void inResponseFollowsHeadBodyAndEnd() {
        WireRecorder r = new WireRecorder(null);
        HttpResponseDecoder d = r.decoder;
        assertFalse(d.inResponse());
        byte[] b = bytes(NODE_STREAMING_HEAD + chunk("o\n") + LAST_CHUNK);
        Feeds.piece(b, 0, 4, r::feed);
        assertTrue(d.inResponse(), "in the head");
        Feeds.piece(b, 4, NODE_STREAMING_HEAD.length() + 2, r::feed);
        assertTrue(d.inResponse(), "in the body");
        Feeds.piece(b, NODE_STREAMING_HEAD.length() + 2, b.length, r::feed);
        assertFalse(d.inResponse(), "after the end");
    }

    @Test
    void bytesAfterEofAreIgnored() {
        WireRecorder r = new WireRecorder(null);
        assertTrue(r.decoder.eof());
        Feeds.whole(bytes(tornadoPoll("o")), r::feed);
        assertEquals(List.of(), r.events);
    }

    // --- no copy --------------------------------------------------------------------------------------------

    @Test
    void bodyRangesAreSlicesOfTheFedArray() {
        byte[] b = concat(NODE_STREAMING_HEAD, chunk("o\n"), chunk("a[\"x\"]\n"), LAST_CHUNK, tornadoPoll("h"));
        List<byte[]> arrays = new ArrayList<>();
        List<String> ranges = new ArrayList<>();
        HttpResponseDecoder d = new HttpResponseDecoder(new HttpResponseDecoder.Listener() {
            @Override
            public void onHead(int status) {
            }

            @Override
            public void onBody(byte[] a, int start, int end) {
                arrays.add(a);
                ranges.add(new String(a, start, end - start, java.nio.charset.StandardCharsets.UTF_8));
            }

            @Override
            public void onEnd(boolean keepAlive) {
            }
        });
        d.feed(b, 0, b.length);
        assertEquals(List.of("o\n", "a[\"x\"]\n", "h\n"), ranges, "one range per chunk, none merged or copied");
        for (byte[] a : arrays) {
            assertSame(b, a);
        }
    }

    @Test
    void aChunkSplitAcrossReadsBecomesOneRangePerRead() {
        byte[] b = bytes(NODE_STREAMING_HEAD + chunk("abcdefgh") + LAST_CHUNK);
        int mid1 = NODE_STREAMING_HEAD.length() + 3 + 3; // "8\r\n" then "abc"
        int mid2 = mid1 + 2;
        List<String> ranges = new ArrayList<>();
        HttpResponseDecoder d = new HttpResponseDecoder(new HttpResponseDecoder.Listener() {
            @Override
            public void onHead(int status) {
            }

            @Override
            public void onBody(byte[] a, int start, int end) {
                ranges.add(new String(a, start, end - start, java.nio.charset.StandardCharsets.UTF_8));
            }

            @Override
            public void onEnd(boolean keepAlive) {
                ranges.add("end");
            }
        });
        d.feed(b, 0, mid1);
        d.feed(b, mid1, mid2);
        d.feed(b, mid2, b.length);
        assertEquals(List.of("abc", "de", "fgh", "end"), ranges);
    }

    // --- malformed responses -----------------------------------------------------------------------------------

    @Test
    void badStatusLinesAreRejectedWithAnExcerpt() {
        for (String line : List.of("HTTP/1.1 2OO OK", "HTTX/1.1 200 OK", "HTTP/2 200 OK", "HTTP/1.1  200 OK", "HTTP/1.1 200OK",
                "http/1.1 200 OK", "HTTP/1.1 20", "garbage", "HTTP/1.1 099 Low", "HTTP/1.1 600 High")) {
            HttpProtocolException e = rejects(line + "\r\nContent-Length: 0\r\n\r\n");
            assertTrue(e.getMessage().startsWith("bad status"), e.getMessage());
            assertTrue(e.getMessage().contains(HttpProtocolException.excerpt(bytes(line), 0, line.length())), e.getMessage());
        }
    }

    @Test
    void badStatusLineIsRejectedHoweverTheBytesAreSplit() {
        rejectsAllWays("HTTP/1.1 2x0 OK\r\n\r\n", "bad status line");
    }

    @Test
    void badHeaderLinesAreRejected() {
        assertTrue(rejects("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n").getMessage().startsWith("bad header line"));
        assertTrue(rejects("HTTP/1.1 200 OK\r\n: empty name\r\n\r\n").getMessage().startsWith("bad header line"));
        assertTrue(rejects("HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\n").getMessage().startsWith("bad header line"));
    }

    @Test
    void badContentLengthsAreRejected() {
        assertTrue(rejects("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n").getMessage().startsWith("bad Content-Length"));
        assertTrue(rejects("HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n").getMessage().startsWith("bad Content-Length"));
        assertTrue(rejects("HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n").getMessage().startsWith("bad Content-Length"));
        assertTrue(rejects("HTTP/1.1 200 OK\r\nContent-Length: 1 2\r\n\r\n").getMessage().startsWith("bad Content-Length"));
        assertTrue(rejects("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n").getMessage()
                .startsWith("Content-Length overflows"));
        assertTrue(rejects("HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\n").getMessage().startsWith("conflicting Content-Length"));
        assertTrue(rejects("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n").getMessage()
                .startsWith("conflicting Content-Length"));
    }

    @Test
    void foldedFramingHeaderIsRejected() {
        assertTrue(rejects("HTTP/1.1 200 OK\r\nContent-Length:\r\n 5\r\n\r\n").getMessage().startsWith("bad Content-Length"));
        assertTrue(rejects("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\tchunked\r\n\r\n").getMessage()
                .startsWith("folded transfer-encoding header"));
    }

    @Test
    void badChunkSizesAreRejected() {
        for (String size : List.of("zz", "-5", "", " 5", "5 6", "0x10", "+1", ";ext")) {
            String wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + size + "\r\nhello\r\n0\r\n\r\n";
            HttpProtocolException e = rejects(wire);
            assertTrue(e.getMessage().startsWith("bad chunk size"), size + ": " + e.getMessage());
        }
    }

    @Test
    void badChunkSizeIsRejectedHoweverTheBytesAreSplit() {
        rejectsAllWays("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\no\n\r\nq\r\n", "bad chunk size");
    }

    @Test
    void overflowingChunkSizeIsRejected() {
        String wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + "8000000000000000\r\n";
        assertTrue(rejects(wire).getMessage().startsWith("chunk size overflows"));
        // leading zeros are not an overflow
        assertEquals(List.of("head 200", "body ok", "end keep-alive", "eof true"),
                decodeAllWays("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000000002\r\nok\r\n0\r\n\r\n"));
    }

    @Test
    void chunkDataNotFollowedByCrlfIsRejected() {
        rejectsAllWays("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n0\r\n\r\n", "chunk data not followed by CRLF");
        rejectsAllWays("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\rX\n0\r\n\r\n", "chunk data not followed by CRLF");
    }

    @Test
    void overlongChunkSizeLineIsRejected() {
        String wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;" + "x".repeat(HttpResponseDecoder.MAX_CHUNK_LINE) + "\r\n";
        assertTrue(rejects(wire).getMessage().startsWith("chunk-size line over"));
    }

    @Test
    void headOver16KiBIsRejected() {
        String start = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n";
        String filler = "X-Filler: " + "f".repeat(100) + "\r\n";
        StringBuilder s = new StringBuilder(start);
        while (s.length() + filler.length() + 2 <= HttpResponseDecoder.MAX_HEAD) {
            s.append(filler);
        }
        // pad to exactly MAX_HEAD bytes with the final empty line: taken
        int missing = HttpResponseDecoder.MAX_HEAD - s.length() - 2;
        if (missing > 0) {
            s.append("X: ").append("y".repeat(Math.max(0, missing - 5))).append("\r\n");
        }
        String exact = s + "\r\n";
        assertEquals(HttpResponseDecoder.MAX_HEAD, exact.length());
        assertEquals(List.of("head 200", "end keep-alive", "eof true"), WireRecorder.whole(bytes(exact), null));
        // one byte more: refused, whether it comes at once or a byte at a time
        String over = exact.replace("Content-Length: 0\r\n", "Content-Length: 00\r\n");
        assertEquals(HttpResponseDecoder.MAX_HEAD + 1, over.length());
        HttpProtocolException e = rejects(over);
        assertTrue(e.getMessage().startsWith("response head over 16384 bytes"), e.getMessage());
        assertThrows(HttpProtocolException.class, () -> Feeds.byteByByte(bytes(over), new WireRecorder(null)::feed));
        // a head that never ends: refused at the cap, not buffered further
        HttpProtocolException endless = rejects("HTTP/1.1 200 OK\r\nX: " + "z".repeat(20000));
        assertTrue(endless.getMessage().startsWith("response head over 16384 bytes"));
    }

    @Test
    void overlongTrailerIsRejected() {
        String wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: " + "t".repeat(HttpResponseDecoder.MAX_HEAD) + "\r\n\r\n";
        assertTrue(rejects(wire).getMessage().startsWith("chunked trailer over"));
    }

    @Test
    void switchingProtocolsIsRejected() {
        assertTrue(rejects("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n").getMessage().contains("101"));
    }

    @Test
    void aFailedDecoderRefusesFurtherBytes() {
        WireRecorder r = new WireRecorder(null);
        assertThrows(HttpProtocolException.class, () -> Feeds.whole(bytes("nonsense\r\n\r\n"), r::feed));
        assertThrows(IllegalStateException.class, () -> Feeds.whole(bytes(NODE_204), r::feed));
        assertFalse(r.decoder.eof(), "a failed connection did not end cleanly");
    }

    @Test
    void aListenerThatThrowsFailsTheDecoder() {
        HttpResponseDecoder d = new HttpResponseDecoder(new HttpResponseDecoder.Listener() {
            @Override
            public void onHead(int status) {
            }

            @Override
            public void onBody(byte[] b, int start, int end) {
                throw new HttpProtocolException("framer says no");
            }

            @Override
            public void onEnd(boolean keepAlive) {
            }
        });
        byte[] b = bytes(tornadoPoll("o"));
        assertThrows(HttpProtocolException.class, () -> d.feed(b, 0, b.length));
        assertThrows(IllegalStateException.class, () -> d.feed(b, 0, b.length));
    }

    @Test
    void feedRangeOutsideTheArrayIsRefused() {
        HttpResponseDecoder d = new WireRecorder(null).decoder;
        byte[] b = new byte[4];
        assertThrows(IndexOutOfBoundsException.class, () -> d.feed(b, -1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> d.feed(b, 3, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> d.feed(b, 0, 5));
        d.feed(b, 2, 2); // empty: nothing happens
        assertFalse(d.inResponse());
    }

    @Test
    void listenerCanCallEofAtTheEndOfAResponse() {
        // the engine's onEnd may re-open the connection; the decoder's state must be settled by then
        List<String> seen = new ArrayList<>();
        HttpResponseDecoder[] self = new HttpResponseDecoder[1];
        self[0] = new HttpResponseDecoder(new HttpResponseDecoder.Listener() {
            @Override
            public void onHead(int status) {
            }

            @Override
            public void onBody(byte[] b, int start, int end) {
            }

            @Override
            public void onEnd(boolean keepAlive) {
                seen.add("end " + keepAlive + " inResponse=" + self[0].inResponse());
            }
        });
        byte[] b = bytes(tornadoPoll("o") + "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx");
        self[0].feed(b, 0, b.length);
        assertEquals(List.of("end true inResponse=false", "end false inResponse=false"), seen);
    }
}
