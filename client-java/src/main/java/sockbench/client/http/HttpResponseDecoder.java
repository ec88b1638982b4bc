package sockbench.client.http;

/**
 * An incremental HTTP/1.1 response decoder for one client connection that carries responses one
 * after another (keep-alive), fed the bytes as they are read, split anywhere.
 *
 * <p>Only the head (status line and header fields) is buffered, up to {@link #MAX_HEAD} bytes.
 * Body bytes are never copied: chunked framing is taken off in place and every
 * {@link Listener#onBody} range is a slice of the array given to {@link #feed}, so a chunk that
 * arrives in three reads is three calls. That keeps the receive path of a streaming SockJS
 * response at one pass over the read buffer with nothing allocated.
 *
 * <p>Bodies are delimited as RFC 9112 section 6.3 says: none for 1xx, 204 and 304;
 * {@code Transfer-Encoding: chunked} (chunk extensions and trailer fields are read and ignored;
 * chunked wins over a Content-Length in the same head, and the connection is then not reused);
 * {@code Content-Length}; otherwise until the server closes the connection ({@link #eof}).
 * Interim 1xx responses (100 Continue, 103 Early Hints) are consumed without a call, as a client
 * that waits for the final response must; 101 Switching Protocols is refused, since the client
 * never asks for an upgrade on these connections.
 *
 * <p>Leniency, where real servers need it and it cannot confuse framing: a bare LF ends a line
 * (RFC 9112 2.2), empty lines before a status line are skipped (a server that ends a body with an
 * extra CRLF), whitespace after a chunk size is taken (BWS before a chunk extension).
 *
 * <p>Not thread-safe: one decoder per connection, used on the connection's I/O thread. After it has
 * thrown, the decoder is unusable (the connection is to be dropped); {@link #feed} then throws
 * {@link IllegalStateException}.
 */
public final class HttpResponseDecoder {

    /** What the decoder finds, in order: per response one {@code onHead}, any {@code onBody}, one {@code onEnd}. */
    public interface Listener {
        /**
         * The status line and header fields of a final response are complete.
         *
         * @param status the status code, 200–599 (interim 1xx responses are not reported)
         */
        void onHead(int status);

        /**
         * Body bytes, de-chunked: {@code b[start, end)}, never empty. The range is a slice of the
         * array given to {@link #feed} and valid only during the call.
         *
         * @param b     the array fed to the decoder
         * @param start first body byte (inclusive)
         * @param end   end of the range (exclusive), {@code start < end}
         */
        void onBody(byte[] b, int start, int end);

        /**
         * The body is complete.
         *
         * @param keepAlive whether the connection may carry the next request and response: false
         *     after {@code Connection: close}, HTTP/1.0 without {@code Connection: keep-alive}, a
         *     close-delimited body, or a head with both Transfer-Encoding and Content-Length. When
         *     false the decoder ignores any further bytes of this connection.
         */
        void onEnd(boolean keepAlive);
    }

    /** The largest response head taken, in bytes, status line to final empty line inclusive; also caps a chunked body's trailer section. */
    public static final int MAX_HEAD = 16384;

    /** The longest chunk-size line taken, extensions included, in bytes (no server sends more than a few). */
    static final int MAX_CHUNK_LINE = 4096;

    private enum State {
        /** Between responses or in a head. */
        HEAD,
        /** In the hex digits of a chunk size. */
        CHUNK_SIZE,
        /** After the size's digits: whitespace, then ';' or the line's end. */
        CHUNK_SIZE_WS,
        /** In a chunk extension, until the line's end. */
        CHUNK_EXT,
        /** A CR ended the size line; its LF must follow. */
        CHUNK_SIZE_LF,
        /** In chunk data. */
        CHUNK_DATA,
        /** Chunk data done: its CRLF must follow. */
        CHUNK_DATA_CR,
        /** The CR after chunk data came; its LF must follow. */
        CHUNK_DATA_LF,
        /** After the last chunk: trailer lines until an empty one. */
        TRAILER,
        /** In a Content-Length body. */
        LENGTH_BODY,
        /** In a body that runs until the server closes. */
        CLOSE_BODY,
        /** The connection is done (a response without keep-alive ended, or the peer closed). */
        CLOSED,
        /** A protocol error was thrown. */
        FAILED
    }

    private final Listener listener;
    private final ResponseHead head = new ResponseHead();
    private State state = State.HEAD;
    /** The head's bytes so far; grows up to {@link #MAX_HEAD}. */
    private byte[] headBuf = new byte[512];
    private int headLen;
    /** Where the head's current line starts in {@link #headBuf}. */
    private int lineStart;
    /** Chunk data or Content-Length bytes still to come. */
    private long remaining;
    /** Hex digits of the chunk size read so far. */
    private int sizeDigits;
    /** Bytes of the current chunk-size line so far (the cap), or of the trailer section. */
    private int lineBytes;
    /** Non-CR bytes of the current trailer line (0 at its LF: the section's end). */
    private int trailerLineBytes;
    private boolean keepAlive;
    /** The current {@link #feed} range: error excerpts quote no byte outside it (the rest of a read buffer is stale). */
    private int feedStart;
    private int feedEnd;

    /**
     * @param listener receives the responses' heads, bodies and ends; not null
     */
    public HttpResponseDecoder(Listener listener) {
        if (listener == null) {
            throw new NullPointerException("listener");
        }
        this.listener = listener;
    }

    /**
     * Decodes the next bytes of the connection, calling the listener for everything they complete.
     * The bytes may be split anywhere between calls, one byte at a time included.
     *
     * @param b     the bytes read
     * @param start first byte (inclusive), {@code 0 <= start <= end <= b.length}
     * @param end   end of the bytes (exclusive)
     * @throws HttpProtocolException when the bytes are not a response stream (bad status line or
     *     header, bad chunk size or chunk framing, head over {@link #MAX_HEAD}); also whatever the
     *     listener throws, which ends the decoder the same way
     * @throws IllegalStateException after the decoder has thrown once
     * @throws IndexOutOfBoundsException when the range is not inside {@code b}
     */
    public void feed(byte[] b, int start, int end) {
        if (start < 0 || end > b.length || start > end) {
            throw new IndexOutOfBoundsException("range [" + start + ", " + end + ") of " + b.length);
        }
        if (state == State.FAILED) {
            throw new IllegalStateException("the decoder failed before; drop the connection");
        }
        feedStart = start;
        feedEnd = end;
        try {
            int i = start;
            while (i < end) {
                i = switch (state) {
                    case HEAD -> head(b, i, end);
                    case CHUNK_DATA -> chunkData(b, i, end);
                    case LENGTH_BODY -> lengthBody(b, i, end);
                    case CLOSE_BODY -> closeBody(b, i, end);
                    case CLOSED -> end; // the server said it closes: nothing after that is a response
                    case TRAILER -> trailer(b, i, end);
                    default -> chunkFraming(b, i, end);
                };
            }
        } catch (RuntimeException e) {
            state = State.FAILED;
            throw e;
        }
    }

    /**
     * The server closed the connection (a read returned end of stream).
     *
     * <p>Ends a close-delimited body with {@code onEnd(false)}. Afterwards the decoder takes no
     * more bytes (they are ignored).
     *
     * @return true when the connection ended cleanly: between responses (no byte of a next head
     *     yet) or at the end of a close-delimited body; false when a response was cut off (in its
     *     head, a chunk, a chunk's framing, the trailer or a Content-Length body) or the decoder had
     *     failed
     * @throws RuntimeException whatever the listener's {@code onEnd} throws (a framer finding the
     *     body cut inside a frame throws {@link HttpProtocolException})
     */
    public boolean eof() {
        State was = state;
        if (was == State.FAILED) {
            return false;
        }
        state = State.CLOSED;
        return switch (was) {
            case CLOSED -> true;
            case HEAD -> headLen == 0;
            case CLOSE_BODY -> {
                listener.onEnd(false);
                yield true;
            }
            default -> false;
        };
    }

    /**
     * True while a response is being read: at least one byte of its head has come (empty lines
     * between responses do not count) and its body has not ended.
     */
    public boolean inResponse() {
        return switch (state) {
            case HEAD -> headLen > 0;
            case CLOSED, FAILED -> false;
            default -> true;
        };
    }

    // --- the head ------------------------------------------------------------------------------

    /** Buffers head bytes until the empty line; then parses it and sets up the body. */
    private int head(byte[] b, int i, int end) {
        while (i < end) {
            byte c = b[i++];
            if (headLen == 0 && (c == '\r' || c == '\n')) {
                continue; // empty lines before a status line (an extra CRLF after a body)
            }
            if (headLen == MAX_HEAD) {
                throw new HttpProtocolException("response head over " + MAX_HEAD + " bytes", headBuf, 0, headLen);
            }
            if (headLen == headBuf.length) {
                headBuf = java.util.Arrays.copyOf(headBuf, Math.min(MAX_HEAD, headLen * 2));
            }
            headBuf[headLen++] = c;
            if (c == '\n') {
                int lineLength = headLen - 1 - lineStart;
                if (lineLength == 0 || (lineLength == 1 && headBuf[lineStart] == '\r')) {
                    headComplete();
                    return i;
                }
                lineStart = headLen;
            }
        }
        return i;
    }

    private void headComplete() {
        int len = headLen;
        headLen = 0;
        lineStart = 0;
        head.parse(headBuf, 0, len);
        int status = head.status;
        if (status < 200) {
            if (status == 101) {
                throw new HttpProtocolException("unexpected 101 Switching Protocols", headBuf, 0, len);
            }
            return; // interim: the final response follows
        }
        keepAlive = head.keepAlive();
        switch (head.framing()) {
            case NONE -> {
                state = State.HEAD;
                listener.onHead(status);
                end();
            }
            case CHUNKED -> {
                startChunkSize();
                listener.onHead(status);
            }
            case LENGTH -> {
                state = State.LENGTH_BODY;
                remaining = head.contentLength;
                listener.onHead(status);
            }
            case UNTIL_CLOSE -> {
                state = State.CLOSE_BODY;
                listener.onHead(status);
            }
        }
    }

    /** The body is done: the next head, or nothing more when the connection closes. */
    private void end() {
        // The state is set before the call: the listener may well call eof() or inResponse().
        state = keepAlive ? State.HEAD : State.CLOSED;
        listener.onEnd(keepAlive);
    }

    // --- bodies -----------------------------------------------------------------------------------

    private int lengthBody(byte[] b, int i, int end) {
        int n = (int) Math.min(remaining, end - i);
        remaining -= n;
        listener.onBody(b, i, i + n);
        if (remaining == 0 && state == State.LENGTH_BODY) {
            end();
        }
        return i + n;
    }

    private int closeBody(byte[] b, int i, int end) {
        listener.onBody(b, i, end);
        return end;
    }

    private int chunkData(byte[] b, int i, int end) {
        int n = (int) Math.min(remaining, end - i);
        remaining -= n;
        if (remaining == 0) {
            state = State.CHUNK_DATA_CR;
        }
        listener.onBody(b, i, i + n);
        return i + n;
    }

    private void startChunkSize() {
        state = State.CHUNK_SIZE;
        remaining = 0;
        sizeDigits = 0;
        lineBytes = 0;
    }

    /** The chunk-size line and the CRLF after chunk data, a byte at a time (a few bytes per chunk). */
    private int chunkFraming(byte[] b, int i, int end) {
        while (i < end) {
            byte c = b[i];
            switch (state) {
                case CHUNK_SIZE, CHUNK_SIZE_WS, CHUNK_EXT -> {
                    if (++lineBytes > MAX_CHUNK_LINE) {
                        throw new HttpProtocolException("chunk-size line over " + MAX_CHUNK_LINE + " bytes", b, Math.max(feedStart, i - 32), i);
                    }
                    if (c == '\n') {
                        chunkSizeDone(b, i);
                    } else if (c == '\r') {
                        if (sizeDigits == 0) {
                            throw badChunkSize(b, i);
                        }
                        state = State.CHUNK_SIZE_LF;
                    } else if (state == State.CHUNK_EXT) {
                        // chunk extensions are ignored (RFC 9112 7.1.1)
                    } else if (c == ';') {
                        if (sizeDigits == 0) {
                            throw badChunkSize(b, i);
                        }
                        state = State.CHUNK_EXT;
                    } else if (c == ' ' || c == '\t') {
                        if (sizeDigits == 0) {
                            throw badChunkSize(b, i);
                        }
                        state = State.CHUNK_SIZE_WS;
                    } else if (state == State.CHUNK_SIZE) {
                        int d = Character.digit(c, 16);
                        if (d < 0) {
                            throw badChunkSize(b, i);
                        }
                        if (remaining > (Long.MAX_VALUE >> 4)) {
                            throw new HttpProtocolException("chunk size overflows", b, Math.max(feedStart, i - 32), i + 1);
                        }
                        remaining = (remaining << 4) | d;
                        sizeDigits++;
                    } else {
                        throw badChunkSize(b, i);
                    }
                }
                case CHUNK_SIZE_LF -> {
                    if (c != '\n') {
                        throw badChunkSize(b, i);
                    }
                    chunkSizeDone(b, i);
                }
                case CHUNK_DATA_CR -> {
                    if (c == '\r') {
                        state = State.CHUNK_DATA_LF;
                    } else if (c == '\n') {
                        startChunkSize();
                    } else {
                        throw new HttpProtocolException("chunk data not followed by CRLF", b, i, Math.min(feedEnd, i + 16));
                    }
                }
                case CHUNK_DATA_LF -> {
                    if (c != '\n') {
                        throw new HttpProtocolException("chunk data not followed by CRLF", b, Math.max(feedStart, i - 1), Math.min(feedEnd, i + 16));
                    }
                    startChunkSize();
                }
                default -> {
                    return i; // CHUNK_DATA or TRAILER: the caller's loop takes over
                }
            }
            i++;
            if (state == State.CHUNK_DATA || state == State.TRAILER) {
                return i;
            }
        }
        return i;
    }

    /** The LF of a chunk-size line: data follows, or the trailer after the last chunk. */
    private void chunkSizeDone(byte[] b, int i) {
        if (sizeDigits == 0) {
            throw badChunkSize(b, i);
        }
        if (remaining == 0) {
            state = State.TRAILER;
            lineBytes = 0;
            trailerLineBytes = 0;
        } else {
            state = State.CHUNK_DATA;
        }
    }

    private HttpProtocolException badChunkSize(byte[] b, int i) {
        return new HttpProtocolException("bad chunk size", b, Math.max(feedStart, i - 16), Math.min(feedEnd, i + 16));
    }

    /** Trailer fields after the last chunk, read and ignored, up to the empty line. */
    private int trailer(byte[] b, int i, int end) {
        while (i < end) {
            byte c = b[i++];
            if (++lineBytes > MAX_HEAD) {
                throw new HttpProtocolException("chunked trailer over " + MAX_HEAD + " bytes", b, Math.max(feedStart, i - 32), i);
            }
            if (c == '\n') {
                if (trailerLineBytes == 0) {
                    end();
                    return i;
                }
                trailerLineBytes = 0;
            } else if (c != '\r') {
                trailerLineBytes++;
            }
        }
        return i;
    }
}
