package sockbench.client.websocket;

import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Inflates the compressed messages of one permessage-deflate session (RFC 7692 §7.2.2): each
 * message's payload, then the four bytes {@code 00 00 ff ff} the sender removed, through one raw
 * (no zlib header) {@link Inflater} kept for the whole session, so the server's window carries
 * over from message to message (context takeover) unless the server said
 * {@code server_no_context_takeover}, in which case the inflater is reset after every message.
 *
 * <p><b>No copy of the input, one reused output buffer.</b> {@link #input} hands the inflater a
 * range of the read buffer and drains it before returning (the inflater keeps a reference to the
 * array only while it has input left), so fragments and frames are inflated where they lie; the
 * inflated message goes to {@link #buffer()}, which grows to the largest message seen and is
 * reused.
 *
 * <p><b>What it costs the client, per session</b> (docs/compression.md): zlib's inflate state
 * (about 7 KiB) and its 32 KiB window, native memory the JVM's heap figures do not show, created
 * at the first compressed message, plus the output buffer (the largest inflated message,
 * at least 1 KiB). At 10,000 sessions that is about 400 MiB of native memory, so the
 * {@code sessions} profile with compression needs that headroom. {@link #end()} frees it at once
 * when the session closes instead of leaving it to the garbage collector.
 *
 * <p>Not thread-safe: one per connection, used by its I/O thread.
 */
public final class MessageInflater {

    /** The empty stored block's tail a sender strips from every message (RFC 7692 §7.2.1). */
    private static final byte[] TAIL = {0x00, 0x00, (byte) 0xff, (byte) 0xff};

    private final boolean resetAfterEachMessage;
    private Inflater inflater;
    private byte[] out = new byte[1024];
    private int outLength;
    private boolean ended;
    /** Payload bytes of compressed messages (as on the wire, without frame headers) and what they inflated to. */
    private long compressedBytes;
    private long inflatedBytes;

    /** @param resetAfterEachMessage the server said {@code server_no_context_takeover} */
    public MessageInflater(boolean resetAfterEachMessage) {
        this.resetAfterEachMessage = resetAfterEachMessage;
    }

    /** Starts a compressed message (its first frame had RSV1 set). */
    void begin() {
        outLength = 0;
        if (ended) {
            return; // the session closed during this read: the rest of the read is dropped (ended())
        }
        if (inflater == null) {
            inflater = new Inflater(true);
        }
    }

    /** Inflates {@code b[start, end)}, the payload of one frame of the current message. */
    void input(byte[] b, int start, int end) {
        if (ended) {
            return;
        }
        compressedBytes += end - start;
        inflate(b, start, end - start);
    }

    /** The message's last frame was given: inflates the stripped tail; the message is then in {@link #buffer()}. */
    void finish() {
        if (ended) {
            return;
        }
        inflate(TAIL, 0, TAIL.length);
        inflatedBytes += outLength;
        if (resetAfterEachMessage || inflater.finished()) {
            // finished: the server ended its deflate stream (BFINAL), so its next message starts a new one.
            inflater.reset();
        }
    }

    /** The inflated message: {@code buffer()[0, length())}, valid until the next {@link #begin()}. */
    byte[] buffer() {
        return out;
    }

    int length() {
        return outLength;
    }

    /** Compressed payload bytes received so far (frame headers not counted). */
    public long compressedBytes() {
        return compressedBytes;
    }

    /** What {@link #compressedBytes()} inflated to. */
    public long inflatedBytes() {
        return inflatedBytes;
    }

    /**
     * True once {@link #end()} ran: the session closed, possibly in the middle of a read whose
     * later frames the decoder still walks; their compressed messages are dropped, not inflated.
     */
    boolean ended() {
        return ended;
    }

    /** Frees the native inflate state now (the session closed); later compressed messages are dropped. */
    public void end() {
        ended = true;
        if (inflater != null) {
            inflater.end();
            inflater = null;
        }
    }

    private void inflate(byte[] b, int start, int n) {
        if (inflater.finished()) {
            return; // bytes after the end of a deflate stream (a final block, then the tail) are ignored
        }
        inflater.setInput(b, start, n);
        try {
            while (true) {
                if (outLength == out.length) {
                    grow();
                }
                int produced = inflater.inflate(out, outLength, out.length - outLength);
                outLength += produced;
                if (produced == 0) {
                    if (inflater.needsDictionary()) {
                        throw new WsProtocolException("compressed message asks for a preset dictionary (not in RFC 7692)");
                    }
                    if (inflater.needsInput() || inflater.finished()) {
                        return;
                    }
                }
            }
        } catch (DataFormatException e) {
            throw new WsProtocolException("compressed message is not valid deflate data: " + e.getMessage());
        } finally {
            // Drop the reference to the read buffer: the next read reuses it.
            if (!inflater.needsInput()) {
                inflater.setInput(TAIL, 0, 0);
            }
        }
    }

    private void grow() {
        if (out.length >= WsFrameDecoder.MAX_MESSAGE_BYTES) {
            throw new WsProtocolException("compressed message inflates beyond the " + WsFrameDecoder.MAX_MESSAGE_BYTES
                    + "-byte limit");
        }
        out = Arrays.copyOf(out, (int) Math.min(WsFrameDecoder.MAX_MESSAGE_BYTES, 2L * out.length));
    }
}
