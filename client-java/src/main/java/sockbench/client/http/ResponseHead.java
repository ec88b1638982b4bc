package sockbench.client.http;

/**
 * One HTTP/1.x response head (status line and header fields), parsed from the bytes the decoder
 * buffered, and what it says about the body: its framing and whether the connection stays open
 * after it. Reused for every response of a connection; only the few fields that frame the body
 * are looked at ({@code Transfer-Encoding}, {@code Content-Length}, {@code Connection}), with
 * names compared case-insensitively on the bytes, so parsing a head allocates nothing.
 */
final class ResponseHead {

    /** How the body of a response is delimited (RFC 9112 section 6.3). */
    enum Framing {
        /** No body: 1xx, 204, 304, or {@code Content-Length: 0}. */
        NONE,
        /** {@code Transfer-Encoding: chunked}. */
        CHUNKED,
        /** {@code Content-Length: n}, n ≥ 1. */
        LENGTH,
        /** Neither: the body runs until the server closes the connection. */
        UNTIL_CLOSE
    }

    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] CONNECTION = ascii("connection");
    private static final byte[] CHUNKED = ascii("chunked");
    private static final byte[] CLOSE = ascii("close");
    private static final byte[] KEEP_ALIVE = ascii("keep-alive");

    /** The status code, 100–599. */
    int status;
    /** HTTP/1.1 or later minor version (persistent by default); false for HTTP/1.0. */
    boolean http11;
    /** The Content-Length, or -1 when there is none. */
    long contentLength;
    /** Transfer-Encoding ends in chunked. */
    boolean chunked;
    /** A Transfer-Encoding field was present. */
    boolean transferEncoding;
    /** {@code Connection: close} was present. */
    boolean closeToken;
    /** {@code Connection: keep-alive} was present. */
    boolean keepAliveToken;

    /**
     * Parses a complete head: the status line, the header lines, and the empty line that ends it.
     *
     * @param b     the buffered head
     * @param start first byte of the status line
     * @param end   the byte after the final line feed
     * @throws HttpProtocolException on a bad status line, a malformed header line, a bad or
     *     disagreeing Content-Length, a transfer coding other than chunked, or Transfer-Encoding
     *     in an HTTP/1.0 response
     */
    void parse(byte[] b, int start, int end) {
        status = 0;
        http11 = false;
        contentLength = -1;
        chunked = false;
        transferEncoding = false;
        closeToken = false;
        keepAliveToken = false;
        int lineEnd = lineEnd(b, start, end);
        parseStatusLine(b, start, contentEnd(b, start, lineEnd));
        // Which framing field a line continues, for obs-fold (a line starting with SP or HTAB).
        byte[] previous = null;
        for (int line = lineEnd + 1; line < end; line = lineEnd + 1) {
            lineEnd = lineEnd(b, line, end);
            int stop = contentEnd(b, line, lineEnd);
            if (stop == line) {
                break; // the empty line that ends the head
            }
            if (b[line] == ' ' || b[line] == '\t') {
                // RFC 9112 5.2: a user agent replaces obs-fold by SP. A folded field that frames the
                // body would need its pieces joined; no server of the kit folds, so refuse that rare
                // case rather than frame a body on half a value.
                if (previous != null) {
                    throw new HttpProtocolException("folded " + new String(previous, java.nio.charset.StandardCharsets.US_ASCII)
                            + " header", b, line, stop);
                }
                continue;
            }
            previous = header(b, line, stop);
        }
        if (transferEncoding && !http11) {
            // RFC 9112 6.1: Transfer-Encoding in an HTTP/1.0 message means its framing is faulty.
            throw new HttpProtocolException("Transfer-Encoding in an HTTP/1.0 response", b, start, end);
        }
    }

    /** How this response's body is delimited. */
    Framing framing() {
        if (status < 200 || status == 204 || status == 304) {
            return Framing.NONE; // RFC 9112 6.3 rule 1: never a body, whatever the fields say
        }
        if (transferEncoding) {
            return Framing.CHUNKED; // rule 3: Transfer-Encoding overrides Content-Length
        }
        if (contentLength == 0) {
            return Framing.NONE;
        }
        if (contentLength > 0) {
            return Framing.LENGTH;
        }
        return Framing.UNTIL_CLOSE;
    }

    /**
     * Whether the connection may carry another response after this one: HTTP/1.1 unless
     * {@code Connection: close}; HTTP/1.0 only with {@code Connection: keep-alive}; never after a
     * close-delimited body; never after a head with both Transfer-Encoding and Content-Length
     * (RFC 9112 6.3 rule 3: such a message may be a response-splitting attempt, so the connection
     * is not trusted for another response).
     */
    boolean keepAlive() {
        if (framing() == Framing.UNTIL_CLOSE || closeToken) {
            return false;
        }
        if (transferEncoding && contentLength >= 0) {
            return false;
        }
        return http11 || keepAliveToken;
    }

    // --- the status line ---------------------------------------------------------------------

    /** {@code HTTP/1.x SP 3DIGIT [SP reason]}; the version's major must be 1. */
    private void parseStatusLine(byte[] b, int start, int end) {
        // "HTTP/1.1 200" is 12 bytes; the reason phrase may be empty or missing.
        if (end - start < 12 || b[start] != 'H' || b[start + 1] != 'T' || b[start + 2] != 'T' || b[start + 3] != 'P'
                || b[start + 4] != '/' || b[start + 5] != '1' || b[start + 6] != '.' || !digit(b[start + 7])
                || b[start + 8] != ' ' || !digit(b[start + 9]) || !digit(b[start + 10]) || !digit(b[start + 11])
                || (end - start > 12 && b[start + 12] != ' ')) {
            throw new HttpProtocolException("bad status line", b, start, end);
        }
        http11 = b[start + 7] != '0';
        status = (b[start + 9] - '0') * 100 + (b[start + 10] - '0') * 10 + (b[start + 11] - '0');
        if (status < 100 || status > 599) {
            throw new HttpProtocolException("bad status code", b, start, end);
        }
    }

    // --- header fields ----------------------------------------------------------------------

    /**
     * One {@code name ":" OWS value OWS} line; records the framing fields.
     *
     * @return the lower-case name constant when the field frames the body (for obs-fold), else null
     */
    private byte[] header(byte[] b, int start, int end) {
        int colon = start;
        while (colon < end && b[colon] != ':') {
            if (!tchar(b[colon])) {
                // Also catches "Name :" (RFC 9112 5.1 forbids whitespace before the colon).
                throw new HttpProtocolException("bad header line", b, start, end);
            }
            colon++;
        }
        if (colon == end || colon == start) {
            throw new HttpProtocolException("bad header line", b, start, end);
        }
        int v = colon + 1;
        int ve = end;
        while (v < ve && ows(b[v])) {
            v++;
        }
        while (ve > v && ows(b[ve - 1])) {
            ve--;
        }
        if (nameIs(b, start, colon, CONTENT_LENGTH)) {
            contentLength(b, v, ve, start, end);
            return CONTENT_LENGTH;
        }
        if (nameIs(b, start, colon, TRANSFER_ENCODING)) {
            transferCodings(b, v, ve, start, end);
            return TRANSFER_ENCODING;
        }
        if (nameIs(b, start, colon, CONNECTION)) {
            connectionTokens(b, v, ve);
            return CONNECTION;
        }
        return null;
    }

    /**
     * Content-Length: digits only; a list ({@code 5, 5}) or a repeated field must agree (RFC 9110 8.6).
     * Values above 2^62 are refused as an overflow (no real body is that long).
     */
    private void contentLength(byte[] b, int v, int ve, int lineStart, int lineEnd) {
        int i = v;
        while (true) {
            int e = i;
            long n = 0;
            while (e < ve && b[e] != ',') {
                if (!digit(b[e])) {
                    throw new HttpProtocolException("bad Content-Length", b, lineStart, lineEnd);
                }
                if (n > (1L << 62) / 10) {
                    throw new HttpProtocolException("Content-Length overflows", b, lineStart, lineEnd);
                }
                n = n * 10 + (b[e] - '0');
                e++;
            }
            int te = e;
            while (te > i && ows(b[te - 1])) {
                te--;
            }
            if (te == i) {
                throw new HttpProtocolException("bad Content-Length", b, lineStart, lineEnd);
            }
            if (contentLength >= 0 && contentLength != n) {
                throw new HttpProtocolException("conflicting Content-Length values", b, lineStart, lineEnd);
            }
            contentLength = n;
            if (e == ve) {
                return;
            }
            i = e + 1;
            while (i < ve && ows(b[i])) {
                i++;
            }
        }
    }

    /**
     * Transfer-Encoding: the only coding the client can take is chunked, once, last. Anything else
     * (gzip, identity, chunked applied twice) cannot be framed or decoded here and is refused; a
     * SockJS server has no reason to send it to a client that sent no TE or Accept-Encoding.
     */
    private void transferCodings(byte[] b, int v, int ve, int lineStart, int lineEnd) {
        transferEncoding = true;
        listElements(b, v, ve, (ts, te) -> {
            if (te > ts) { // empty list elements are allowed (RFC 9110 5.6.1)
                if (!nameIs(b, ts, te, CHUNKED)) {
                    throw new HttpProtocolException("unsupported Transfer-Encoding", b, lineStart, lineEnd);
                }
                if (chunked) {
                    throw new HttpProtocolException("chunked applied twice", b, lineStart, lineEnd);
                }
                chunked = true;
            }
        });
        if (!chunked) {
            throw new HttpProtocolException("empty Transfer-Encoding", b, lineStart, lineEnd);
        }
    }

    /** Connection: a comma-separated token list; only close and keep-alive matter here. */
    private void connectionTokens(byte[] b, int v, int ve) {
        listElements(b, v, ve, (ts, te) -> {
            if (nameIs(b, ts, te, CLOSE)) {
                closeToken = true;
            } else if (nameIs(b, ts, te, KEEP_ALIVE)) {
                keepAliveToken = true;
            }
        });
    }

    /** Receives one element of a header's comma-separated list: {@code b[start, end)}, whitespace trimmed (may be empty). */
    private interface ListElement {
        void accept(int start, int end);
    }

    /** Each element of the comma-separated list in {@code b[v, ve)}, trimmed of optional whitespace (RFC 9110 5.6.1). */
    private static void listElements(byte[] b, int v, int ve, ListElement element) {
        int i = v;
        while (i <= ve) {
            int e = i;
            while (e < ve && b[e] != ',') {
                e++;
            }
            int ts = i;
            int te = e;
            while (ts < te && ows(b[ts])) {
                ts++;
            }
            while (te > ts && ows(b[te - 1])) {
                te--;
            }
            element.accept(ts, te);
            i = e + 1;
        }
    }

    // --- bytes --------------------------------------------------------------------------------

    /** The index of the line feed ending the line at {@code start} (the head always ends in one). */
    private static int lineEnd(byte[] b, int start, int end) {
        int i = start;
        while (i < end && b[i] != '\n') {
            i++;
        }
        return i;
    }

    /** The line's end without a CR before its LF (RFC 9112 2.2 lets a recipient take a bare LF). */
    private static int contentEnd(byte[] b, int start, int lf) {
        return lf > start && b[lf - 1] == '\r' ? lf - 1 : lf;
    }

    /** Whether {@code b[start, end)} equals {@code lower}, ignoring ASCII case. */
    private static boolean nameIs(byte[] b, int start, int end, byte[] lower) {
        if (end - start != lower.length) {
            return false;
        }
        for (int i = 0; i < lower.length; i++) {
            int c = b[start + i];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != lower[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean digit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static boolean ows(byte c) {
        return c == ' ' || c == '\t';
    }

    /** A field-name character (RFC 9110 5.6.2 tchar). */
    private static boolean tchar(byte c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            return true;
        }
        return "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
