package sockbench.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded random connections: random frames (ASCII and multi-byte UTF-8, escaped quotes), cut
 * into random chunks (with extensions now and then) or sent with a Content-Length, then cut
 * into 1–12 random reads. Whatever the cuts, the frames and ends come out as they went in. A
 * failure names its seed, so it can be replayed.
 */
class RandomWireTest {

    private static final String[] WORDS = {"x", "hello", "caf\u00e9", "\\\"q\\\"", "\\u000a", "\u2603", "\ud83d\ude00", "{\\\"seq\\\":12}"};

    private static String randomFrame(Random r) {
        int kind = r.nextInt(10);
        if (kind == 0) {
            return "h";
        }
        if (kind == 1) {
            return "c[3000,\"Go away!\"]";
        }
        StringBuilder s = new StringBuilder("a[");
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                s.append(',');
            }
            s.append('"');
            int words = r.nextInt(6);
            for (int w = 0; w < words; w++) {
                s.append(WORDS[r.nextInt(WORDS.length)]);
            }
            if (r.nextInt(8) == 0) {
                s.append("y".repeat(r.nextInt(5000)));
            }
            s.append('"');
        }
        return s.append(']').toString();
    }

    /** A chunked body cut at random places, sometimes with chunk extensions and a trailer. */
    private static byte[] randomChunks(Random r, String body) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < b.length) {
            int n = Math.min(b.length - i, 1 + r.nextInt(r.nextBoolean() ? 8 : 3000));
            String size = Integer.toHexString(n);
            out.writeBytes((r.nextInt(5) == 0 ? size.toUpperCase() + ";ext=" + r.nextInt(9) : size).getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(new byte[] {'\r', '\n'});
            out.write(b, i, n);
            out.writeBytes(new byte[] {'\r', '\n'});
            i += n;
        }
        out.writeBytes((r.nextInt(4) == 0 ? "0\r\nX-Trailer: t\r\n\r\n" : "0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    @Test
    void randomFramesChunkingsAndReadsGiveTheFramesBack() {
        for (long seed = 1; seed <= 400; seed++) {
            Random r = new Random(seed);
            HttpReceiveTransport t = HttpReceiveTransport.values()[r.nextInt(3)];
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            List<String> expected = new ArrayList<>();
            int responses = 1 + r.nextInt(3);
            for (int k = 0; k < responses; k++) {
                int frames = t == HttpReceiveTransport.XHR_POLLING ? 1 : r.nextInt(12);
                StringBuilder body = new StringBuilder();
                if (t == HttpReceiveTransport.XHR_STREAMING) {
                    body.append(WireSamples.H_PRELUDE);
                } else if (t == HttpReceiveTransport.EVENTSOURCE) {
                    body.append("\r\n");
                }
                expected.add("head 200");
                for (int f = 0; f < frames; f++) {
                    String frame = k == 0 && f == 0 ? "o" : randomFrame(r);
                    body.append(t == HttpReceiveTransport.EVENTSOURCE ? WireSamples.esFrame(frame) : WireSamples.xhrFrame(frame));
                    expected.add("frame " + frame);
                }
                expected.add("end keep-alive");
                if (t == HttpReceiveTransport.XHR_POLLING && r.nextBoolean()) {
                    wire.writeBytes(WireSamples.bytes(WireSamples.tornadoPoll(expected.get(expected.size() - 2).substring("frame ".length()))));
                } else {
                    wire.writeBytes(WireSamples.bytes(t == HttpReceiveTransport.EVENTSOURCE
                            ? WireSamples.NODE_EVENTSOURCE_HEAD : WireSamples.NODE_STREAMING_HEAD));
                    wire.writeBytes(randomChunks(r, body.toString()));
                }
            }
            expected.add("eof true");
            byte[] b = wire.toByteArray();
            int reads = 1 + r.nextInt(12);
            int[] cuts = r.ints(reads - 1, 0, b.length + 1).sorted().toArray();
            WireRecorder rec = new WireRecorder(t);
            int from = 0;
            for (int cut : cuts) {
                Feeds.piece(b, from, cut, rec::feed);
                from = cut;
            }
            Feeds.piece(b, from, b.length, rec::feed);
            assertEquals(expected, rec.eof().events, "seed " + seed + " (" + t + ", " + reads + " reads)");
        }
    }
}
