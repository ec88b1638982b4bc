package sockbench.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A connection's receive path as the engine wires it: bytes → {@link HttpResponseDecoder} →
 * (for a 200 with a transport given) {@link SockJsBodyFramer} → frames, every event recorded as
 * one readable line ("head 200", "body hello", "frame o", "end keep-alive", "eof true").
 * Consecutive body ranges are merged, so the record does not depend on how the bytes were split.
 */
final class WireRecorder implements HttpResponseDecoder.Listener, SockJsBodyFramer.FrameSink {

    final List<String> events = new ArrayList<>();
    final HttpResponseDecoder decoder = new HttpResponseDecoder(this);
    /** Null: bodies are recorded as bytes, not framed. */
    final SockJsBodyFramer framer;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private boolean framing;

    /** @param transport the receive transport to frame 200 bodies for, or null to record raw bodies */
    WireRecorder(HttpReceiveTransport transport) {
        this.framer = transport == null ? null : new SockJsBodyFramer(transport, this);
    }

    void feed(byte[] b, int start, int end) {
        decoder.feed(b, start, end);
    }

    /** The peer closes: records what {@link HttpResponseDecoder#eof} answered. */
    WireRecorder eof() {
        boolean clean = decoder.eof();
        flushBody();
        events.add("eof " + clean);
        return this;
    }

    @Override
    public void onHead(int status) {
        flushBody();
        events.add("head " + status);
        if (framer != null && status == 200) {
            framing = true;
            framer.startResponse();
        }
    }

    @Override
    public void onBody(byte[] b, int start, int end) {
        if (start >= end) {
            throw new AssertionError("empty body range " + start + ".." + end);
        }
        if (framing) {
            framer.body(b, start, end);
        } else {
            body.write(b, start, end - start);
        }
    }

    @Override
    public void onEnd(boolean keepAlive) {
        if (framing) {
            framing = false;
            framer.endResponse();
        }
        flushBody();
        events.add(keepAlive ? "end keep-alive" : "end close");
    }

    @Override
    public void onFrame(byte[] b, int start, int end) {
        if (start >= end) {
            throw new AssertionError("empty frame " + start + ".." + end);
        }
        events.add("frame " + new String(b, start, end - start, StandardCharsets.UTF_8));
    }

    private void flushBody() {
        if (body.size() > 0) {
            events.add("body " + body.toString(StandardCharsets.UTF_8));
            body.reset();
        }
    }

    // --- split invariance ---------------------------------------------------------------------------

    /** The events of {@code stream} fed in one read, then the peer closing. */
    static List<String> whole(byte[] stream, HttpReceiveTransport t) {
        WireRecorder r = new WireRecorder(t);
        Feeds.whole(stream, r::feed);
        return r.eof().events;
    }

    /**
     * Feeds {@code stream} in one read, one byte per read, and in two reads split at each of
     * {@code positions}, each time into a fresh decoder (and framer), and asserts every way gives
     * the same events, {@code expected}.
     *
     * @return how many ways were tried
     */
    static int assertSameAllWays(byte[] stream, HttpReceiveTransport t, List<String> expected, int[] positions) {
        assertEquals(expected, whole(stream, t), "one read");
        WireRecorder r = new WireRecorder(t);
        Feeds.byteByByte(stream, r::feed);
        assertEquals(expected, r.eof().events, "one byte per read");
        for (int at : positions) {
            WireRecorder s = new WireRecorder(t);
            Feeds.splitAt(stream, at, s::feed);
            List<String> got = s.eof().events;
            if (!expected.equals(got)) {
                assertEquals(expected, got, "split before byte " + at);
            }
        }
        return positions.length + 2;
    }

    /** Every split position of a stream up to 16 KiB; the interesting ones of a longer stream. */
    static int[] positions(byte[] stream) {
        return Feeds.positions(stream, 16 * 1024, 3, 487, new byte[] {'\n'});
    }
}
