package sockbench.client.websocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class WsFrameDecoderTest {

    /** Records every event as a readable line. */
    static final class Recorder implements WsFrameSink {
        final List<String> events = new ArrayList<>();

        @Override
        public void onText(byte[] buf, int start, int end) {
            events.add("text:" + new String(buf, start, end - start, StandardCharsets.UTF_8));
        }

        @Override
        public void onPing(byte[] buf, int start, int end) {
            events.add("ping:" + new String(buf, start, end - start, StandardCharsets.UTF_8));
        }

        @Override
        public void onCloseFrame(int code, String reason) {
            events.add("close:" + code + ":" + reason);
        }
    }

    static byte[] frame(int opcode, boolean fin, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write((fin ? 0x80 : 0) | opcode);
        int n = payload.length;
        if (n < 126) {
            out.write(n);
        } else if (n < 65536) {
            out.write(126);
            out.write(n >>> 8);
            out.write(n & 0xFF);
        } else {
            out.write(127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) ((long) n >>> shift) & 0xFF);
            }
        }
        out.writeBytes(payload);
        return out.toByteArray();
    }

    static byte[] text(String s) {
        return frame(1, true, s.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static List<String> decode(byte[] stream) {
        Recorder r = new Recorder();
        new WsFrameDecoder(r).feed(stream, 0, stream.length);
        return r.events;
    }

    @Test
    void everyLengthFormDecodes() {
        String small = "a".repeat(125);       // 7-bit length
        String medium = "b".repeat(126);      // 16-bit length, smallest
        String large = "c".repeat(65535);     // 16-bit length, largest
        String huge = "d".repeat(65536);      // 64-bit length
        byte[] stream = concat(text(""), text(small), text(medium), text(large), text(huge));
        assertEquals(List.of("text:", "text:" + small, "text:" + medium, "text:" + large, "text:" + huge), decode(stream));
    }

    @Test
    void aFrameSplitAcrossReadsAtEveryBytePositionDecodesTheSame() {
        byte[] stream = concat(text("o"), text("a[\"x\"]"), frame(9, true, "p".getBytes(StandardCharsets.US_ASCII)),
                text("m".repeat(300)), frame(1, false, "ab".getBytes(StandardCharsets.US_ASCII)),
                frame(0, true, "cd".getBytes(StandardCharsets.US_ASCII)));
        List<String> whole = decode(stream);
        assertEquals(List.of("text:o", "text:a[\"x\"]", "ping:p", "text:" + "m".repeat(300), "text:abcd"), whole);
        for (int cut = 0; cut <= stream.length; cut++) {
            Recorder r = new Recorder();
            WsFrameDecoder d = new WsFrameDecoder(r);
            d.feed(stream, 0, cut);
            d.feed(stream, cut, stream.length);
            assertEquals(whole, r.events, "split at byte " + cut);
            assertEquals(0, d.pendingBytes());
        }
        // and one byte per read, through a buffer that is reused (and scribbled over) between reads
        Recorder r = new Recorder();
        WsFrameDecoder d = new WsFrameDecoder(r);
        byte[] reused = new byte[1];
        for (byte b : stream) {
            reused[0] = b;
            d.feed(reused, 0, 1);
            reused[0] = 0x55;
        }
        assertEquals(whole, r.events);
    }

    @Test
    void fragmentedMessagesAreReassembledAroundControlFrames() {
        byte[] stream = concat(
                frame(1, false, "a[\"he".getBytes(StandardCharsets.US_ASCII)),
                frame(9, true, "ping-in-between".getBytes(StandardCharsets.US_ASCII)),
                frame(0, false, "llo\",".getBytes(StandardCharsets.US_ASCII)),
                frame(10, true, new byte[0]), // unsolicited pong: ignored
                frame(0, true, "\"w\"]".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(List.of("ping:ping-in-between", "text:a[\"hello\",\"w\"]"), decode(stream));
    }

    @Test
    void closeFramesCarryCodeAndReasonAndEndDecoding() {
        byte[] body = concat(new byte[] {0x03, (byte) 0xE8}, "bye".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("close:1000:bye"), decode(concat(frame(8, true, body), text("after"))));
        assertEquals(List.of("close:1005:"), decode(frame(8, true, new byte[0])));
    }

    @Test
    void framesAClientMustRejectAreRejected() {
        byte[] masked = text("x");
        masked[1] |= (byte) 0x80;
        assertThrows(WsProtocolException.class, () -> decode(masked));
        byte[] rsv = text("x");
        rsv[0] |= 0x40;
        assertThrows(WsProtocolException.class, () -> decode(rsv));
        assertThrows(WsProtocolException.class, () -> decode(frame(2, true, new byte[] {1})), "binary");
        assertThrows(WsProtocolException.class, () -> decode(frame(0, true, new byte[] {'x'})), "stray continuation");
        assertThrows(WsProtocolException.class, () -> decode(concat(frame(1, false, new byte[] {'x'}), text("y"))),
                "text inside a fragmented message");
        assertThrows(WsProtocolException.class, () -> decode(frame(9, false, new byte[0])), "fragmented control frame");
        assertThrows(WsProtocolException.class, () -> decode(frame(9, true, new byte[126])), "long control frame");
        assertThrows(WsProtocolException.class, () -> decode(frame(3, true, new byte[0])), "reserved opcode");
        byte[] absurd = new byte[10];
        absurd[0] = (byte) 0x81;
        absurd[1] = 127;
        absurd[2] = 0x7F;
        Arrays.fill(absurd, 3, 10, (byte) 0xFF);
        assertThrows(WsProtocolException.class, () -> decode(absurd), "64 MiB limit");
    }

    @Test
    void anIncompleteTailIsKeptNotLost() {
        byte[] f = text("hello");
        Recorder r = new Recorder();
        WsFrameDecoder d = new WsFrameDecoder(r);
        d.feed(f, 0, f.length - 1);
        assertTrue(r.events.isEmpty());
        assertEquals(f.length - 1, d.pendingBytes());
        d.feed(f, f.length - 1, f.length);
        assertEquals(List.of("text:hello"), r.events);
    }
}
