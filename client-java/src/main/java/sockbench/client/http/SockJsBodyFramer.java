package sockbench.client.http;

/**
 * Splits the response bodies of one SockJS HTTP receive transport into frames ({@code o},
 * {@code h}, {@code a[...]}, {@code c[...]}), without parsing them: that is the job of the
 * engine's SockJS scanner.
 *
 * <ul>
 *   <li><b>xhr-streaming</b>: a prelude line of {@code h} bytes, then each frame followed by
 *       {@code \n}. Servers send 2048 {@code h}; any count from 1 to {@link #MAX_PRELUDE} is
 *       taken, since the count only ever mattered to old browsers. The prelude is skipped, not
 *       reported as a heartbeat.</li>
 *   <li><b>eventsource</b>: a {@code \r\n} prelude, then per frame {@code data: <frame>\r\n\r\n}.
 *       Each {@code data: } line is one frame (servers escape CR, LF and NUL inside frames, so an
 *       event never spans lines); empty lines separate events and are skipped; any other line is
 *       an error. A bare {@code \n} is taken for {@code \r\n}.</li>
 *   <li><b>xhr-polling</b>: no prelude, exactly one frame followed by {@code \n}.</li>
 * </ul>
 *
 * <p>A frame that lies wholly in one {@link #body} range, its delimiter included, is passed to the
 * sink as a slice of that range, not copied. Only a frame that straddles ranges (a chunk or a read
 * ends inside it) is gathered in one reusable buffer first. Frames are at most {@link #MAX_FRAME}
 * bytes.
 *
 * <p>Use per response: {@link #startResponse}, any number of {@link #body} calls,
 * {@link #endResponse}. Not thread-safe (one framer per session, on its I/O thread).
 */
public final class SockJsBodyFramer {

    /** Receives the frames found. */
    public interface FrameSink {
        /**
         * One frame, without its delimiter (and without the {@code data: } of eventsource):
         * {@code b[start, end)}, never empty. A slice of a body range or of the framer's buffer;
         * valid only during the call.
         *
         * @param b     the bytes
         * @param start first byte of the frame (inclusive)
         * @param end   end of the frame (exclusive), {@code start < end}
         */
        void onFrame(byte[] b, int start, int end);
    }

    /** The longest frame taken, in bytes: 16 MiB (a broadcast of many messages coalesced in one frame stays far below). */
    public static final int MAX_FRAME = 16 * 1024 * 1024;

    /** The most {@code h} bytes an xhr-streaming prelude may have (servers send 2048). */
    public static final int MAX_PRELUDE = 4096;

    private static final byte[] DATA = {'d', 'a', 't', 'a', ':', ' '};

    private enum State {
        /** No response started (or the last one ended). */
        IDLE,
        /** xhr-streaming: in the line of {@code h}. */
        H_PRELUDE,
        /** eventsource: expecting the prelude's CR or LF. */
        ES_PRELUDE,
        /** eventsource: the prelude's CR came; its LF must follow. */
        ES_PRELUDE_LF,
        /** eventsource: at the start of a line. */
        ES_LINE_START,
        /** eventsource: matching {@code data: }. */
        ES_PREFIX,
        /** eventsource: a CR began an empty line; its LF must follow. */
        ES_EMPTY_LF,
        /** In a frame, until its LF. */
        FRAME,
        /** xhr-polling: the response's one frame is done; nothing may follow. */
        POLL_DONE
    }

    private final HttpReceiveTransport transport;
    private final FrameSink sink;
    private final FrameAssembly assembly;
    private State state = State.IDLE;
    /** {@code h} bytes of the prelude so far, or bytes of {@code data: } matched. */
    private int matched;
    /** The current {@link #body} range's start: error excerpts quote no byte before it. */
    private int rangeStart;
    private long frames;

    /**
     * @param transport the receiving transport whose bodies this framer reads; not null
     * @param sink      receives the frames; not null
     */
    public SockJsBodyFramer(HttpReceiveTransport transport, FrameSink sink) {
        if (transport == null || sink == null) {
            throw new NullPointerException(transport == null ? "transport" : "sink");
        }
        this.transport = transport;
        this.sink = sink;
        // + 1 for eventsource: a line's CR is gathered with its frame before it is cut off.
        this.assembly = new FrameAssembly(transport == HttpReceiveTransport.EVENTSOURCE ? MAX_FRAME + 1 : MAX_FRAME);
    }

    /**
     * A new 200 response's body begins: the framer expects this transport's prelude. A partial
     * frame left by a response that was never ended is discarded.
     */
    public void startResponse() {
        assembly.clear();
        matched = 0;
        state = switch (transport) {
            case XHR_STREAMING -> State.H_PRELUDE;
            case EVENTSOURCE -> State.ES_PRELUDE;
            case XHR_POLLING -> State.FRAME;
        };
    }

    /**
     * The next de-chunked bytes of the current response's body, split anywhere.
     *
     * @param b     the bytes (not kept after the call)
     * @param start first byte (inclusive), {@code 0 <= start <= end <= b.length}
     * @param end   end of the range (exclusive)
     * @throws HttpProtocolException on a bad prelude, an eventsource line that is not
     *     {@code data: ...}, an empty frame, a frame over {@link #MAX_FRAME} bytes, or a second
     *     frame in an xhr-polling response
     * @throws IllegalStateException when no response was started
     * @throws IndexOutOfBoundsException when the range is not inside {@code b}
     */
    public void body(byte[] b, int start, int end) {
        if (start < 0 || end > b.length || start > end) {
            throw new IndexOutOfBoundsException("range [" + start + ", " + end + ") of " + b.length);
        }
        if (state == State.IDLE) {
            throw new IllegalStateException("body bytes outside a response: startResponse() first");
        }
        rangeStart = start;
        int i = start;
        while (i < end) {
            i = switch (state) {
                case FRAME -> frame(b, i, end);
                case H_PRELUDE -> hPrelude(b, i, end);
                case POLL_DONE -> throw new HttpProtocolException("xhr-polling response with more than one frame", b, i, end);
                default -> eventSourceFraming(b, i, end);
            };
        }
    }

    /**
     * The current response's body is complete.
     *
     * @throws HttpProtocolException when it ended inside its prelude or a frame, or (xhr-polling)
     *     without a frame
     * @throws IllegalStateException when no response was started
     */
    public void endResponse() {
        State was = state;
        state = State.IDLE;
        switch (was) {
            case IDLE -> throw new IllegalStateException("endResponse() without startResponse()");
            case H_PRELUDE, ES_PRELUDE, ES_PRELUDE_LF ->
                    throw new HttpProtocolException(transport.userName() + " response ended in its prelude");
            case ES_PREFIX, ES_EMPTY_LF -> throw new HttpProtocolException("eventsource response ended mid-line");
            case FRAME -> {
                if (assembly.length() > 0) {
                    HttpProtocolException e = new HttpProtocolException(transport.userName() + " response ended inside a frame",
                            assembly.array(), 0, assembly.length());
                    assembly.clear();
                    throw e;
                }
                if (transport == HttpReceiveTransport.XHR_POLLING) {
                    throw new HttpProtocolException("xhr-polling response without a frame");
                }
            }
            default -> {
                // between frames (ES_LINE_START) or the poll's frame done: a clean end
            }
        }
    }

    /** Frames delivered to the sink so far, over all responses (diagnostics). */
    public long frames() {
        return frames;
    }

    // --- preludes ----------------------------------------------------------------------------------

    private int hPrelude(byte[] b, int i, int end) {
        while (i < end) {
            byte c = b[i];
            if (c == 'h') {
                if (++matched > MAX_PRELUDE) {
                    throw new HttpProtocolException("xhr-streaming prelude over " + MAX_PRELUDE + " bytes", b, Math.max(rangeStart, i - 16), i + 1);
                }
                i++;
            } else if (c == '\n' && matched > 0) {
                state = State.FRAME;
                return i + 1;
            } else {
                throw new HttpProtocolException("bad xhr-streaming prelude", b, Math.max(rangeStart, i - 16), Math.min(end, i + 16));
            }
        }
        return i;
    }

    /** The eventsource prelude, line starts, {@code data: } and empty lines; a byte at a time. */
    private int eventSourceFraming(byte[] b, int i, int end) {
        while (i < end) {
            byte c = b[i];
            switch (state) {
                case ES_PRELUDE -> {
                    if (c == '\r') {
                        state = State.ES_PRELUDE_LF;
                    } else if (c == '\n') {
                        state = State.ES_LINE_START;
                    } else {
                        throw new HttpProtocolException("bad eventsource prelude", b, i, Math.min(end, i + 16));
                    }
                }
                case ES_PRELUDE_LF -> {
                    if (c != '\n') {
                        throw new HttpProtocolException("bad eventsource prelude", b, Math.max(rangeStart, i - 1), Math.min(end, i + 16));
                    }
                    state = State.ES_LINE_START;
                }
                case ES_LINE_START -> {
                    if (c == '\r') {
                        state = State.ES_EMPTY_LF;
                    } else if (c == '\n') {
                        // an empty line: the end of an event
                    } else if (c == 'd') {
                        state = State.ES_PREFIX;
                        matched = 1;
                    } else {
                        throw notData(b, i, end);
                    }
                }
                case ES_EMPTY_LF -> {
                    if (c != '\n') {
                        throw new HttpProtocolException("eventsource CR not followed by LF", b, Math.max(rangeStart, i - 1), Math.min(end, i + 16));
                    }
                    state = State.ES_LINE_START;
                }
                case ES_PREFIX -> {
                    if (c != DATA[matched]) {
                        throw notData(b, i, end);
                    }
                    if (++matched == DATA.length) {
                        state = State.FRAME;
                        return i + 1;
                    }
                }
                default -> throw new IllegalStateException(state.name());
            }
            i++;
        }
        return i;
    }

    private HttpProtocolException notData(byte[] b, int i, int end) {
        // Quote from the line's start when it is in this range (matched bytes of "data: " before i).
        int from = Math.max(rangeStart, i - (state == State.ES_PREFIX ? matched : 0));
        return new HttpProtocolException("eventsource line without \"data: \"", b, from, Math.min(end, i + 24));
    }

    // --- frames -------------------------------------------------------------------------------------

    /** In a frame: up to its LF, as a slice when it is all here, else into the assembly. */
    private int frame(byte[] b, int i, int end) {
        int lf = i;
        while (lf < end && b[lf] != '\n') {
            lf++;
        }
        if (lf == end) {
            assembly.append(b, i, end); // throws past MAX_FRAME
            return end;
        }
        if (assembly.length() == 0) {
            deliver(b, i, lf);
        } else {
            assembly.append(b, i, lf);
            byte[] a = assembly.array();
            int n = assembly.length();
            assembly.clear(); // before the sink runs: a throwing sink must not leave a half frame behind
            deliver(a, 0, n);
        }
        return lf + 1;
    }

    private void deliver(byte[] b, int start, int end) {
        if (transport == HttpReceiveTransport.EVENTSOURCE && end > start && b[end - 1] == '\r') {
            end--; // the CR of the line's CRLF
        }
        if (end == start) {
            throw new HttpProtocolException(transport.userName() + ": empty frame", b, start, Math.min(b.length, start + 1));
        }
        if (end - start > MAX_FRAME) {
            throw new HttpProtocolException("SockJS frame over " + MAX_FRAME + " bytes", b, start, start + 32);
        }
        state = switch (transport) {
            case EVENTSOURCE -> State.ES_LINE_START;
            case XHR_POLLING -> State.POLL_DONE;
            case XHR_STREAMING -> State.FRAME;
        };
        frames++;
        sink.onFrame(b, start, end);
    }
}
