package sockbench.client.sockjs;

/**
 * Parses the SockJS frames a server sends over the websocket transport:
 * {@code o}, {@code h}, {@code a[...]} (a JSON array of strings, several messages
 * per frame) and {@code c[code,"reason"]}.
 *
 * <p>This is on the hot path (every copy of every broadcast message passes through
 * it), so it is a hand-written JSON scanner: a message without escapes is handed
 * to the handler as a slice of the frame itself (no allocation); only a message
 * with backslash escapes ({@code \n}, {@code \"}, {@code \u00e9}, ...) is unescaped
 * into a buffer that the parser reuses. It still is a real JSON parser for this
 * grammar: whitespace between tokens is allowed, and anything else (a number in
 * the array, a missing comma, a bad escape, trailing garbage) is rejected with a
 * {@link SockJsProtocolException}.
 *
 * <p>One instance per I/O thread; not thread-safe (it owns the unescape buffer).
 */
public final class SockJsFrameParser {

    private final StringBuilder unescaped = new StringBuilder(256);

    /**
     * Parses one websocket text message as one SockJS frame and reports its parts to {@code handler}.
     *
     * @throws SockJsProtocolException if the frame is not valid SockJS
     */
    public void parse(CharSequence frame, FrameHandler handler) {
        if (frame.length() == 0) {
            throw new SockJsProtocolException("empty frame", frame);
        }
        char type = frame.charAt(0);
        switch (type) {
            case 'o' -> {
                requireLength(frame, 1);
                handler.onOpen();
            }
            case 'h' -> {
                requireLength(frame, 1);
                handler.onHeartbeat();
            }
            case 'a' -> parseMessages(frame, handler);
            case 'c' -> parseClose(frame, handler);
            default -> throw new SockJsProtocolException("unknown frame type '" + type + "'", frame);
        }
    }

    private static void requireLength(CharSequence frame, int length) {
        if (frame.length() != length) {
            throw new SockJsProtocolException("unexpected data after frame type", frame);
        }
    }

    /** a["m1","m2",...]: every element must be a JSON string. */
    private void parseMessages(CharSequence f, FrameHandler handler) {
        int n = f.length();
        int i = skipSpace(f, 1);
        i = expect(f, i, '[');
        i = skipSpace(f, i);
        if (i < n && f.charAt(i) == ']') {
            expectEnd(f, i + 1);
            return;
        }
        while (true) {
            i = skipSpace(f, i);
            i = parseString(f, i, handler, null);
            i = skipSpace(f, i);
            if (i >= n) {
                throw new SockJsProtocolException("unterminated array", f);
            }
            char c = f.charAt(i++);
            if (c == ']') {
                expectEnd(f, i);
                return;
            }
            if (c != ',') {
                throw new SockJsProtocolException("expected ',' or ']' but found '" + c + "'", f);
            }
        }
    }

    /** c[3000,"Go away!"]. */
    private void parseClose(CharSequence f, FrameHandler handler) {
        int n = f.length();
        int i = skipSpace(f, 1);
        i = expect(f, i, '[');
        i = skipSpace(f, i);
        int start = i;
        while (i < n && f.charAt(i) >= '0' && f.charAt(i) <= '9') {
            i++;
        }
        if (i == start || i - start > 9) {
            throw new SockJsProtocolException("close code is not a small integer", f);
        }
        int code = Integer.parseInt(f, start, i, 10);
        i = skipSpace(f, i);
        i = expect(f, i, ',');
        i = skipSpace(f, i);
        StringBuilder reason = new StringBuilder();
        i = parseString(f, i, null, reason);
        i = skipSpace(f, i);
        i = expect(f, i, ']');
        expectEnd(f, i);
        handler.onClose(code, reason.toString());
    }

    /**
     * Parses the JSON string starting at {@code i} (which must be a quote) and returns the
     * index after its closing quote. The value goes to {@code handler.onMessage}, or is
     * appended to {@code into} when that is not null.
     */
    private int parseString(CharSequence f, int i, FrameHandler handler, StringBuilder into) {
        int n = f.length();
        i = expect(f, i, '"');
        int start = i;
        // Fast path: scan to the closing quote; most payloads have no escapes.
        while (i < n) {
            char c = f.charAt(i);
            if (c == '"') {
                if (into != null) {
                    into.append(f, start, i);
                } else {
                    handler.onMessage(f, start, i);
                }
                return i + 1;
            }
            if (c == '\\') {
                break;
            }
            if (c < 0x20) {
                throw new SockJsProtocolException("control character in string", f);
            }
            i++;
        }
        if (i >= n) {
            throw new SockJsProtocolException("unterminated string", f);
        }
        // Slow path: at least one escape; copy into a buffer while unescaping.
        StringBuilder out = into != null ? into : unescaped;
        if (into == null) {
            out.setLength(0);
        }
        out.append(f, start, i);
        while (i < n) {
            char c = f.charAt(i++);
            if (c == '"') {
                if (into == null) {
                    handler.onMessage(out, 0, out.length());
                }
                return i;
            }
            if (c < 0x20) {
                throw new SockJsProtocolException("control character in string", f);
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (i >= n) {
                break;
            }
            char e = f.charAt(i++);
            switch (e) {
                case '"' -> out.append('"');
                case '\\' -> out.append('\\');
                case '/' -> out.append('/');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (i + 4 > n) {
                        throw new SockJsProtocolException("truncated \\u escape", f);
                    }
                    int code = 0;
                    for (int k = 0; k < 4; k++) {
                        int digit = Character.digit(f.charAt(i + k), 16);
                        if (digit < 0) {
                            throw new SockJsProtocolException("bad hex digit in \\u escape", f);
                        }
                        code = code * 16 + digit;
                    }
                    i += 4;
                    // Surrogate pairs arrive as two escapes; appending each half keeps them paired.
                    out.append((char) code);
                }
                default -> throw new SockJsProtocolException("bad escape '\\" + e + "'", f);
            }
        }
        throw new SockJsProtocolException("unterminated string", f);
    }

    private static int skipSpace(CharSequence f, int i) {
        int n = f.length();
        while (i < n) {
            char c = f.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                break;
            }
            i++;
        }
        return i;
    }

    private static int expect(CharSequence f, int i, char wanted) {
        if (i >= f.length() || f.charAt(i) != wanted) {
            throw new SockJsProtocolException("expected '" + wanted + "'", f);
        }
        return i + 1;
    }

    private static void expectEnd(CharSequence f, int i) {
        if (skipSpace(f, i) != f.length()) {
            throw new SockJsProtocolException("trailing data after frame", f);
        }
    }
}
