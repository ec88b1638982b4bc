package sockbench.client.http;

import java.nio.charset.StandardCharsets;

/**
 * The bytes of the HTTP/1.1 requests a SockJS session sends over the HTTP transports, as
 * sockjs-client's XMLHttpRequest and EventSource calls put them on the wire (minus the browser's
 * cookies, user agent and CORS headers, which no SockJS server needs): {@code Host},
 * {@code Connection: keep-alive} (the receiving and sending sockets are reused request after
 * request), {@code Content-Length} on every POST.
 *
 * <p>Paths and host names are checked, not escaped: a CR, LF, space or other control byte in them
 * would split or corrupt the request, so it is refused.
 */
public final class HttpRequests {

    private HttpRequests() {
    }

    /**
     * A receiving request: {@code POST <session>/xhr_streaming}, {@code GET <session>/eventsource}
     * (with {@code Accept: text/event-stream}, as a browser's EventSource sends) or
     * {@code POST <session>/xhr}; POSTs have an empty body ({@code Content-Length: 0}).
     *
     * @param t           the transport; not null
     * @param sessionPath {@code <prefix>/<server>/<session>}: starts with {@code /}, no trailing
     *                    {@code /}, printable ASCII without space (percent-encode anything else)
     * @param hostHeader  the {@code Host} value, {@code host} or {@code host:port}; printable ASCII without space
     * @return a new array with the request, US-ASCII
     * @throws IllegalArgumentException on an invalid path or host
     */
    public static byte[] receive(HttpReceiveTransport t, String sessionPath, String hostHeader) {
        if (t == null) {
            throw new IllegalArgumentException("transport is null");
        }
        checkPath(sessionPath);
        checkHost(hostHeader);
        StringBuilder s = new StringBuilder(96 + sessionPath.length() + hostHeader.length());
        requestLine(s, t.method(), sessionPath, t.pathSuffix(), hostHeader);
        if (t == HttpReceiveTransport.EVENTSOURCE) {
            s.append("Accept: text/event-stream\r\n");
        }
        if (t.method().equals("POST")) {
            s.append("Content-Length: 0\r\n");
        }
        s.append("\r\n");
        return s.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * An {@code xhr_send} request: {@code POST <session>/xhr_send} with
     * {@code Content-Type: text/plain;charset=UTF-8} (what sockjs-client sends) and the body
     * {@code body[offset, offset + length)}, which should be a JSON array of strings
     * ({@code ["m1","m2"]}); it is copied as is, not checked.
     *
     * @param sessionPath {@code <prefix>/<server>/<session>}, as for {@link #receive}
     * @param hostHeader  the {@code Host} value, as for {@link #receive}
     * @param body        the bytes of the body; not null
     * @param offset      first body byte, {@code 0 <= offset <= body.length}
     * @param length      body bytes, {@code 0 <= length <= body.length - offset}
     * @return a new array with the request head (US-ASCII) followed by the body
     * @throws IllegalArgumentException on an invalid path or host, or a range outside {@code body}
     */
    public static byte[] send(String sessionPath, String hostHeader, byte[] body, int offset, int length) {
        checkPath(sessionPath);
        checkHost(hostHeader);
        if (body == null || offset < 0 || length < 0 || offset > body.length - length) {
            throw new IllegalArgumentException("body range [" + offset + ", +" + length + ") outside "
                    + (body == null ? "a null body" : body.length + " bytes"));
        }
        StringBuilder s = new StringBuilder(160 + sessionPath.length() + hostHeader.length());
        requestLine(s, "POST", sessionPath, "xhr_send", hostHeader);
        s.append("Content-Type: text/plain;charset=UTF-8\r\n");
        s.append("Content-Length: ").append(length).append("\r\n\r\n");
        byte[] head = s.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[head.length + length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(body, offset, out, head.length, length);
        return out;
    }

    private static void requestLine(StringBuilder s, String method, String sessionPath, String suffix, String host) {
        s.append(method).append(' ').append(sessionPath).append('/').append(suffix).append(" HTTP/1.1\r\n");
        s.append("Host: ").append(host).append("\r\n");
        s.append("Connection: keep-alive\r\n");
    }

    private static void checkPath(String p) {
        if (p == null || p.isEmpty() || p.charAt(0) != '/') {
            throw new IllegalArgumentException("session path must start with '/': " + quote(p));
        }
        if (p.endsWith("/")) {
            throw new IllegalArgumentException("session path must not end with '/': " + quote(p));
        }
        checkPrintable("session path", p);
    }

    private static void checkHost(String h) {
        if (h == null || h.isEmpty()) {
            throw new IllegalArgumentException("Host header is empty");
        }
        checkPrintable("Host header", h);
    }

    /** Visible US-ASCII only (0x21–0x7e): no CR, LF, space, control or non-ASCII character. */
    private static void checkPrintable(String what, String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                throw new IllegalArgumentException(what + " has a CR, LF, space, control or non-ASCII character at "
                        + i + ": " + quote(v));
            }
        }
    }

    private static String quote(String v) {
        if (v == null) {
            return "null";
        }
        byte[] b = v.getBytes(StandardCharsets.UTF_8);
        return "\"" + HttpProtocolException.excerpt(b, 0, b.length) + "\"";
    }
}
