package sockbench.client.websocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/**
 * The permessage-deflate receive path (RFC 7692): {@link WsFrameDecoder} with a
 * {@link MessageInflater}. Compressed frames are made here with {@link Deflater} as a server
 * makes them (raw deflate, a sync flush per message, the {@code 00 00 ff ff} tail stripped).
 */
class WsFrameDecoderDeflateTest {

    /** A server's compressor: one per session, its window kept across messages unless {@code fresh}. */
    static final class ServerDeflater {
        private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        private final boolean fresh;

        ServerDeflater(boolean noContextTakeover) {
            this.fresh = noContextTakeover;
        }

        /** One message's compressed payload, tail stripped (RFC 7692 §7.2.1). */
        byte[] compress(String message) {
            deflater.setInput(message.getBytes(StandardCharsets.UTF_8));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[256];
            int n;
            do {
                n = deflater.deflate(chunk, 0, chunk.length, Deflater.SYNC_FLUSH);
                out.write(chunk, 0, n);
            } while (n == chunk.length);
            byte[] all = out.toByteArray();
            if (all.length == 0) {
                // zlib makes no new block for nothing after a flush: an empty message is one 0x00 (RFC 7692 §7.2.3.6)
                return new byte[] {0x00};
            }
            assertTrue(all.length >= 4 && all[all.length - 4] == 0 && all[all.length - 1] == (byte) 0xff,
                    "a sync flush ends with 00 00 ff ff");
            if (fresh) {
                deflater.reset();
            }
            return Arrays.copyOf(all, all.length - 4);
        }
    }

    /** A frame with RSV1 set (a compressed message's first frame). */
    static byte[] compressedFrame(int opcode, boolean fin, byte[] payload) {
        byte[] f = WsFrameDecoderTest.frame(opcode, fin, payload);
        f[0] |= 0x40;
        return f;
    }

    static List<String> decode(byte[] stream, boolean noContextTakeover) {
        WsFrameDecoderTest.Recorder r = new WsFrameDecoderTest.Recorder();
        WsFrameDecoder d = new WsFrameDecoder(r);
        d.inflateWith(new MessageInflater(noContextTakeover));
        d.feed(stream, 0, stream.length);
        return r.events;
    }

    /**
     * A session's bytes: compressed and plain messages, a long one (16-bit length), a compressed
     * message in three fragments with a ping between them, and the empty message.
     */
    static byte[] session(ServerDeflater server, String big) {
        // Compressed in the order they are sent: with context takeover each refers back to the ones before.
        byte[] open = server.compress("o");
        byte[] first = server.compress("a[\"1:2:3\"]");
        byte[] large = server.compress(big);
        byte[] fragmented = server.compress("a[\"fragmented, then inflated\"]");
        byte[] again = server.compress("a[\"1:2:3\"]");
        byte[] empty = server.compress("");
        int third = fragmented.length / 3;
        return WsFrameDecoderTest.concat(
                compressedFrame(1, true, open),
                compressedFrame(1, true, first),
                WsFrameDecoderTest.text("h"), // RFC 7692 §6: a message may go uncompressed
                compressedFrame(1, true, large),
                compressedFrame(1, false, Arrays.copyOfRange(fragmented, 0, third)),
                WsFrameDecoderTest.frame(9, true, "p".getBytes(StandardCharsets.US_ASCII)),
                WsFrameDecoderTest.frame(0, false, Arrays.copyOfRange(fragmented, third, 2 * third)),
                WsFrameDecoderTest.frame(0, true, Arrays.copyOfRange(fragmented, 2 * third, fragmented.length)),
                compressedFrame(1, true, again),
                compressedFrame(1, true, empty));
    }

    static final String BIG = "a[" + "\"0123456789abcdef\",".repeat(300) + "\"end\"]";
    static final List<String> EXPECTED = List.of("text:o", "text:a[\"1:2:3\"]", "text:h", "text:" + BIG, "ping:p",
            "text:a[\"fragmented, then inflated\"]", "text:a[\"1:2:3\"]", "text:");

    @Test
    void compressedMessagesInflateWithTheWindowKeptAcrossMessages() {
        byte[] stream = session(new ServerDeflater(false), BIG);
        assertEquals(EXPECTED, decode(stream, false));
    }

    @Test
    void contextTakeoverMattersTheRepeatedMessageRefersBack() {
        ServerDeflater server = new ServerDeflater(false);
        byte[] first = server.compress("a[\"the same message, sent twice\"]");
        byte[] second = server.compress("a[\"the same message, sent twice\"]");
        assertTrue(second.length < first.length / 2, "the second copy is mostly a back-reference: " + second.length);
        byte[] stream = WsFrameDecoderTest.concat(compressedFrame(1, true, first), compressedFrame(1, true, second));
        assertEquals(List.of("text:a[\"the same message, sent twice\"]", "text:a[\"the same message, sent twice\"]"),
                decode(stream, false));
        // An inflater reset after each message (what server_no_context_takeover asks for) cannot read it.
        assertThrows(WsProtocolException.class, () -> decode(stream, true));
    }

    @Test
    void serverNoContextTakeoverResetsAfterEachMessage() {
        byte[] stream = session(new ServerDeflater(true), BIG);
        assertEquals(EXPECTED, decode(stream, true));
    }

    @Test
    void splitAtEveryBytePositionIncludingInsideFrameHeadersDecodesTheSame() {
        byte[] stream = session(new ServerDeflater(false), "a[" + "\"x\",".repeat(60) + "\"y\"]");
        List<String> whole = decode(stream, false);
        for (int cut = 0; cut <= stream.length; cut++) {
            WsFrameDecoderTest.Recorder r = new WsFrameDecoderTest.Recorder();
            WsFrameDecoder d = new WsFrameDecoder(r);
            MessageInflater inflater = new MessageInflater(false);
            d.inflateWith(inflater);
            byte[] reused = stream.clone();
            d.feed(reused, 0, cut);
            Arrays.fill(reused, 0, cut, (byte) 0x55); // the read buffer is reused: nothing may point into it later
            d.feed(reused, cut, stream.length);
            assertEquals(whole, r.events, "split at byte " + cut);
            assertEquals(0, d.pendingBytes());
            inflater.end();
        }
        // and one byte per read
        WsFrameDecoderTest.Recorder r = new WsFrameDecoderTest.Recorder();
        WsFrameDecoder d = new WsFrameDecoder(r);
        d.inflateWith(new MessageInflater(false));
        byte[] one = new byte[1];
        for (byte b : stream) {
            one[0] = b;
            d.feed(one, 0, 1);
        }
        assertEquals(whole, r.events);
    }

    @Test
    void theInflaterCountsCompressedAgainstInflatedBytes() {
        ServerDeflater server = new ServerDeflater(false);
        byte[] a = server.compress(BIG);
        byte[] b = server.compress(BIG);
        WsFrameDecoderTest.Recorder r = new WsFrameDecoderTest.Recorder();
        WsFrameDecoder d = new WsFrameDecoder(r);
        MessageInflater inflater = new MessageInflater(false);
        d.inflateWith(inflater);
        byte[] stream = WsFrameDecoderTest.concat(compressedFrame(1, true, a), compressedFrame(1, true, b),
                WsFrameDecoderTest.text("h"));
        d.feed(stream, 0, stream.length);
        assertEquals(a.length + b.length, inflater.compressedBytes());
        assertEquals(2L * BIG.length(), inflater.inflatedBytes(), "uncompressed messages are not counted");
    }

    @Test
    void whatAClientMustRejectIsRejected() {
        ServerDeflater server = new ServerDeflater(false);
        byte[] c = server.compress("x");
        // RSV1 without a negotiated extension
        WsFrameDecoder plain = new WsFrameDecoder(new WsFrameDecoderTest.Recorder());
        byte[] f = compressedFrame(1, true, c);
        assertThrows(WsProtocolException.class, () -> plain.feed(f, 0, f.length));
        // RSV1 on a control frame, on a continuation, RSV2 and RSV3
        for (byte[] bad : new byte[][] {
                compressedFrame(9, true, new byte[0]),
                WsFrameDecoderTest.concat(compressedFrame(1, false, c), compressedFrame(0, true, new byte[0])),
                rsv(WsFrameDecoderTest.text("x"), 0x20), rsv(WsFrameDecoderTest.text("x"), 0x10)}) {
            WsProtocolException e = assertThrows(WsProtocolException.class, () -> decode(bad, false));
            assertTrue(e.getMessage().contains("RSV"), e.getMessage());
        }
        // not deflate data at all
        byte[] junk = compressedFrame(1, true, new byte[] {(byte) 0xff, (byte) 0xff, 0x01, 0x02});
        assertTrue(assertThrows(WsProtocolException.class, () -> decode(junk, false)).getMessage().contains("deflate"));
    }

    @Test
    void messagesAfterTheSessionClosedInTheSameReadAreDroppedNotErrors() {
        // The session can close inside a read (a c[...] frame, then more frames): the inflater's
        // native memory is freed at once, and what follows must neither touch it nor count as malformed.
        ServerDeflater server = new ServerDeflater(false);
        byte[] first = compressedFrame(1, true, server.compress("c[3000,\"Go away!\"]"));
        byte[] second = compressedFrame(1, true, server.compress("a[\"late\"]"));
        byte[] stream = WsFrameDecoderTest.concat(first, second, WsFrameDecoderTest.text("h"));
        MessageInflater inflater = new MessageInflater(false);
        java.util.List<String> seen = new java.util.ArrayList<>();
        WsFrameDecoder d = new WsFrameDecoder(new WsFrameSink() {
            @Override
            public void onText(byte[] buf, int start, int end) {
                seen.add(new String(buf, start, end - start, StandardCharsets.UTF_8));
                inflater.end(); // what WsConnection.closeSockets does when the session ends
            }

            @Override
            public void onPing(byte[] buf, int start, int end) {
            }

            @Override
            public void onCloseFrame(int code, String reason) {
            }
        });
        d.inflateWith(inflater);
        d.feed(stream, 0, stream.length);
        assertEquals(List.of("c[3000,\"Go away!\"]", "h"), seen, "the compressed message after the close is dropped");
    }

    private static byte[] rsv(byte[] frame, int bit) {
        frame[0] |= (byte) bit;
        return frame;
    }
}
