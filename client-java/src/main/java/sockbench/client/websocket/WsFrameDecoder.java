package sockbench.client.websocket;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decodes the server-to-client half of an RFC 6455 connection straight from the bytes the
 * socket read returned, for one connection.
 *
 * <p><b>Why this exists.</b> Java-WebSocket's receive path builds a frame object and a
 * payload copy per frame, validates the payload as UTF-8 and decodes it into a String before
 * the application sees it; profiled against a coalescing server that was 80 % of the client's
 * CPU (client-java/README.md, "The receive path"). Here a complete frame is handed to the sink
 * as a range of the read buffer itself: no object, no copy, no charset work. Only a frame that
 * straddles two reads is copied (into {@link #carry}), and only a fragmented message is
 * reassembled (into {@link #message}); both buffers are reused.
 *
 * <p><b>permessage-deflate</b> (RFC 7692, {@code --compression}): once the upgrade accepted it,
 * {@link #inflateWith} gives the session's {@link MessageInflater}, and a message whose first
 * frame has RSV1 set is inflated, frame by frame and straight from the read buffer, into the
 * inflater's reused buffer, which the sink then sees; a message without RSV1 is passed on as
 * before. docs/compression.md.
 *
 * <p>What it checks, because a client must (RFC 6455 §5.1–§5.5, RFC 7692 §6.1): frames from the
 * server are not masked; no RSV2/RSV3 bits, and RSV1 only on the first frame of a data message
 * of a session that negotiated permessage-deflate; control frames are final and at most
 * 125 bytes; continuation frames only inside a fragmented message and no new data frame inside
 * one; binary messages are refused (the SockJS protocol is text). It does not check UTF-8:
 * the payloads are ASCII by construction and the {@code --validate} mode does that check
 * (see {@link sockbench.client.sockjs.FrameValidator}).
 *
 * <p>Not thread-safe: one instance per connection, used by its I/O thread.
 */
public final class WsFrameDecoder {

    /** Largest frame payload or reassembled message accepted, bytes (a broken length field must not allocate gigabytes). */
    public static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

    private static final int OP_CONTINUATION = 0x0;
    private static final int OP_TEXT = 0x1;
    private static final int OP_BINARY = 0x2;
    private static final int OP_CLOSE = 0x8;
    private static final int OP_PING = 0x9;
    private static final int OP_PONG = 0xA;

    private final WsFrameSink sink;
    /** Bytes of a frame that began in an earlier read and is not complete yet. */
    private byte[] carry = new byte[0];
    private int carryLength;
    /** Fragments of a message in progress (fragmented messages only). */
    private byte[] message = new byte[0];
    private int messageLength;
    private boolean inFragmentedMessage;
    /** The fragmented message in progress is compressed: its fragments go to {@link #inflater}. */
    private boolean compressedMessage;
    /** The session's inflater once permessage-deflate was negotiated; null = RSV1 is a protocol error. */
    private MessageInflater inflater;
    private boolean closed;

    public WsFrameDecoder(WsFrameSink sink) {
        this.sink = sink;
    }

    /**
     * From now on, messages whose first frame has RSV1 set are inflated by {@code inflater}: the
     * upgrade answer accepted permessage-deflate. Called before any frame after the upgrade is fed.
     */
    public void inflateWith(MessageInflater inflater) {
        this.inflater = inflater;
    }

    /** True once a close frame was decoded: nothing after it is decoded. */
    public boolean closed() {
        return closed;
    }

    /** Bytes held back waiting for the rest of their frame (diagnostics and tests). */
    public int pendingBytes() {
        return carryLength;
    }

    /**
     * Decodes every complete frame in {@code buf[start, end)} and keeps the incomplete tail for the
     * next call.
     *
     * @throws WsProtocolException on a frame a client must reject (the connection must then be closed)
     */
    public void feed(byte[] buf, int start, int end) {
        int i = start;
        if (carryLength > 0) {
            i = completeCarriedFrame(buf, i, end);
            if (carryLength > 0) {
                return; // still incomplete: everything was consumed into the carry
            }
        }
        while (i < end && !closed) {
            long frameLength = frameLength(buf, i, end - i);
            if (frameLength < 0 || i + frameLength > end) {
                appendCarry(buf, i, end - i);
                return;
            }
            frame(buf, i);
            i += (int) frameLength;
        }
    }

    /** Adds bytes to the carried frame until it is complete (or the input ends); returns the next input index. */
    private int completeCarriedFrame(byte[] buf, int i, int end) {
        while (i < end) {
            long known = frameLength(carry, 0, carryLength);
            int want;
            if (known < 0) {
                want = headerBytesNeeded(carry, carryLength) - carryLength;
            } else {
                want = (int) (known - carryLength);
            }
            int take = Math.min(want, end - i);
            appendCarry(buf, i, take);
            i += take;
            if (known >= 0 && carryLength == known) {
                carryLength = 0; // reset first: the frame's sink call may feed nothing back, but be safe
                frame(carry, 0);
                return i;
            }
        }
        return i;
    }

    private void appendCarry(byte[] buf, int from, int n) {
        if (carryLength + n > carry.length) {
            carry = Arrays.copyOf(carry, Math.max(carryLength + n, Math.max(256, carry.length * 2)));
        }
        System.arraycopy(buf, from, carry, carryLength, n);
        carryLength += n;
    }

    /**
     * Header bytes needed to know the frame's length, given the first {@code have} bytes: 2 until
     * the length byte is known, then 2, 4 or 10.
     */
    private static int headerBytesNeeded(byte[] b, int have) {
        if (have < 2) {
            return 2;
        }
        int len7 = b[1] & 0x7F;
        return len7 == 126 ? 4 : len7 == 127 ? 10 : 2;
    }

    /**
     * Total length (header + payload) of the frame starting at {@code b[at]}, or -1 if fewer than
     * the header's bytes are available. Rejects masked frames and absurd lengths.
     */
    private static long frameLength(byte[] b, int at, int available) {
        if (available < 2) {
            return -1;
        }
        int second = b[at + 1] & 0xFF;
        if ((second & 0x80) != 0) {
            throw new WsProtocolException("masked frame from the server (RFC 6455 §5.1)");
        }
        int len7 = second & 0x7F;
        long payload;
        int header;
        if (len7 < 126) {
            payload = len7;
            header = 2;
        } else if (len7 == 126) {
            if (available < 4) {
                return -1;
            }
            payload = ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
            header = 4;
        } else {
            if (available < 10) {
                return -1;
            }
            payload = 0;
            for (int k = 2; k < 10; k++) {
                payload = (payload << 8) | (b[at + k] & 0xFF);
            }
            if (payload < 0) {
                throw new WsProtocolException("64-bit frame length with the top bit set (RFC 6455 §5.2)");
            }
            header = 10;
        }
        if (payload > MAX_MESSAGE_BYTES) {
            throw new WsProtocolException("frame of " + payload + " bytes exceeds the " + MAX_MESSAGE_BYTES + "-byte limit");
        }
        return header + payload;
    }

    /** Handles the complete frame at {@code b[at]}. */
    private void frame(byte[] b, int at) {
        int first = b[at] & 0xFF;
        boolean fin = (first & 0x80) != 0;
        int opcode = first & 0x0F;
        boolean rsv1 = (first & 0x40) != 0;
        if ((first & 0x30) != 0 || rsv1 && inflater == null) {
            throw new WsProtocolException("RSV bits set but no extension was negotiated (RFC 6455 §5.2)");
        }
        if (rsv1 && (opcode == OP_CONTINUATION || (opcode & 0x8) != 0)) {
            // Control frames are never compressed, and RSV1 marks a message's first frame only (RFC 7692 §6.1).
            throw new WsProtocolException("RSV1 on a " + (opcode == OP_CONTINUATION ? "continuation" : "control")
                    + " frame (RFC 7692 §6.1)");
        }
        int len7 = b[at + 1] & 0x7F;
        int header = len7 < 126 ? 2 : len7 == 126 ? 4 : 10;
        // frameLength already accepted this header (and bounded the length to an int).
        int payload = len7 < 126 ? len7 : len7 == 126 ? ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF)
                : (int) (((long) (b[at + 6] & 0xFF) << 24) | ((b[at + 7] & 0xFF) << 16)
                        | ((b[at + 8] & 0xFF) << 8) | (b[at + 9] & 0xFF));
        int start = at + header;
        int end = start + payload;
        switch (opcode) {
            case OP_TEXT -> {
                if (inFragmentedMessage) {
                    throw new WsProtocolException("new text frame inside a fragmented message (RFC 6455 §5.4)");
                }
                if (rsv1) {
                    inflater.begin();
                    inflater.input(b, start, end);
                    if (fin) {
                        inflated();
                    } else {
                        inFragmentedMessage = true;
                        compressedMessage = true;
                    }
                } else if (fin) {
                    sink.onText(b, start, end);
                } else {
                    inFragmentedMessage = true;
                    messageLength = 0;
                    appendMessage(b, start, payload);
                }
            }
            case OP_CONTINUATION -> {
                if (!inFragmentedMessage) {
                    throw new WsProtocolException("continuation frame outside a fragmented message (RFC 6455 §5.4)");
                }
                if (compressedMessage) {
                    inflater.input(b, start, end);
                    if (fin) {
                        inFragmentedMessage = false;
                        compressedMessage = false;
                        inflated();
                    }
                    return;
                }
                appendMessage(b, start, payload);
                if (fin) {
                    inFragmentedMessage = false;
                    sink.onText(message, 0, messageLength);
                }
            }
            case OP_BINARY -> throw new WsProtocolException("unexpected binary message");
            case OP_CLOSE, OP_PING, OP_PONG -> {
                if (!fin || payload > 125) {
                    throw new WsProtocolException("control frame fragmented or longer than 125 bytes (RFC 6455 §5.5)");
                }
                if (opcode == OP_PING) {
                    sink.onPing(b, start, end);
                } else if (opcode == OP_CLOSE) {
                    closed = true;
                    if (payload == 1) {
                        throw new WsProtocolException("close frame with a 1-byte body (RFC 6455 §5.5.1)");
                    }
                    int code = payload == 0 ? 1005 : ((b[start] & 0xFF) << 8) | (b[start + 1] & 0xFF);
                    String reason = payload <= 2 ? "" : new String(b, start + 2, payload - 2, StandardCharsets.UTF_8);
                    sink.onCloseFrame(code, reason);
                }
                // pong: unsolicited pongs are allowed and ignored (RFC 6455 §5.5.3)
            }
            default -> throw new WsProtocolException("reserved opcode 0x" + Integer.toHexString(opcode) + " (RFC 6455 §5.2)");
        }
    }

    /** The compressed message's last frame was fed: inflate the tail and hand the message on. */
    private void inflated() {
        inflater.finish();
        if (!inflater.ended()) { // ended: the session closed earlier in this read, nothing more is delivered
            sink.onText(inflater.buffer(), 0, inflater.length());
        }
    }

    private void appendMessage(byte[] b, int from, int n) {
        if ((long) messageLength + n > MAX_MESSAGE_BYTES) {
            throw new WsProtocolException("fragmented message exceeds the " + MAX_MESSAGE_BYTES + "-byte limit");
        }
        if (messageLength + n > message.length) {
            message = Arrays.copyOf(message, Math.max(messageLength + n, Math.max(256, message.length * 2)));
        }
        System.arraycopy(b, from, message, messageLength, n);
        messageLength += n;
    }
}
