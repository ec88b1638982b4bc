package sockbench.client.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Response bytes as the kit's servers put them on the wire: sockjs-node 0.3.24 on Node's http
 * module (every {@code res.write} is one chunk, lower-case hex sizes, {@code Connection:
 * keep-alive} and {@code Keep-Alive: timeout=5}) and Tornado 6 (sockjs-tornado and our
 * server-python: a streaming response is flushed chunk by chunk, a polling response's one frame
 * goes out with a Content-Length, 204 without a body), and a few of sockjs-go v3 on Go's net/http.
 */
final class WireSamples {

    private WireSamples() {
    }

    static final String DATE = "Date: Thu, 26 Nov 2026 22:00:00 GMT\r\n";

    /** The 2048 {@code h} and {@code \n} that open every xhr-streaming response. */
    static final String H_PRELUDE = "h".repeat(2048) + "\n";

    static final String NODE_STREAMING_HEAD = "HTTP/1.1 200 OK\r\n"
            + "Content-Type: application/javascript; charset=UTF-8\r\n"
            + "Cache-Control: no-store, no-cache, no-transform, must-revalidate, max-age=0\r\n"
            + "Access-Control-Allow-Origin: *\r\n"
            + "Vary: Origin\r\n"
            + DATE
            + "Connection: keep-alive\r\n"
            + "Keep-Alive: timeout=5\r\n"
            + "Transfer-Encoding: chunked\r\n"
            + "\r\n";

    static final String NODE_EVENTSOURCE_HEAD = "HTTP/1.1 200 OK\r\n"
            + "Content-Type: text/event-stream; charset=UTF-8\r\n"
            + "Cache-Control: no-store, no-cache, no-transform, must-revalidate, max-age=0\r\n"
            + DATE
            + "Connection: keep-alive\r\n"
            + "Keep-Alive: timeout=5\r\n"
            + "Transfer-Encoding: chunked\r\n"
            + "\r\n";

    static final String TORNADO_STREAMING_HEAD = "HTTP/1.1 200 OK\r\n"
            + "Server: TornadoServer/6.4.1\r\n"
            + "Content-Type: application/javascript; charset=UTF-8\r\n"
            + DATE
            + "Cache-Control: no-store, no-cache, no-transform, must-revalidate, max-age=0\r\n"
            + "Access-Control-Allow-Origin: *\r\n"
            + "Vary: Origin\r\n"
            + "Transfer-Encoding: chunked\r\n"
            + "\r\n";

    /** sockjs-node 0.3.24's answer to xhr_send: 204 with a Content-Type (Firefox) and no body. */
    static final String NODE_204 = "HTTP/1.1 204 No Content\r\n"
            + "Content-Type: text/plain; charset=UTF-8\r\n"
            + "Cache-Control: no-store, no-cache, no-transform, must-revalidate, max-age=0\r\n"
            + "Access-Control-Allow-Origin: *\r\n"
            + "Vary: Origin\r\n"
            + DATE
            + "Connection: keep-alive\r\n"
            + "Keep-Alive: timeout=5\r\n"
            + "\r\n";

    /** Tornado's 204 (server-python flushes the head so the Content-Type stays). */
    static final String TORNADO_204 = "HTTP/1.1 204 No Content\r\n"
            + "Server: TornadoServer/6.4.1\r\n"
            + "Content-Type: text/plain; charset=UTF-8\r\n"
            + DATE
            + "Cache-Control: no-store, no-cache, no-transform, must-revalidate, max-age=0\r\n"
            + "Access-Control-Allow-Origin: *\r\n"
            + "\r\n";

    /** sockjs-go v3's answer to xhr_send: Go's net/http drops the Content-Type of a 204. */
    static final String GO_204 = "HTTP/1.1 204 No Content\r\n"
            + DATE
            + "\r\n";

    /** sockjs-go v3's answer to xhr_send for an unknown session: Go's http.NotFound. */
    static final String GO_404 = "HTTP/1.1 404 Not Found\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "X-Content-Type-Options: nosniff\r\n"
            + DATE
            + "Content-Length: 19\r\n"
            + "\r\n"
            + "404 page not found\n";

    /** A Tornado xhr-polling answer: one frame and its LF, with a Content-Length. */
    static String tornadoPoll(String frame) {
        String body = frame + "\n";
        return "HTTP/1.1 200 OK\r\n"
                + "Server: TornadoServer/6.4.1\r\n"
                + "Content-Type: application/javascript; charset=UTF-8\r\n"
                + DATE
                + "Cache-Control: no-store, no-cache, no-transform, must-revalidate, max-age=0\r\n"
                + "Access-Control-Allow-Origin: *\r\n"
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n"
                + "\r\n"
                + body;
    }

    /** A sockjs-node xhr-polling answer: Node chunks the one write, then ends the response. */
    static String nodePoll(String frame) {
        return NODE_STREAMING_HEAD + chunk(frame + "\n") + LAST_CHUNK;
    }

    /** One chunk of {@code data} (its UTF-8 length in lower-case hex, as Node and Tornado write it). */
    static String chunk(String data) {
        int n = data.getBytes(StandardCharsets.UTF_8).length;
        return Integer.toHexString(n) + "\r\n" + data + "\r\n";
    }

    static final String LAST_CHUNK = "0\r\n\r\n";

    /**
     * sockjs-node's error answer ({@code throw {status, message}}: {@code writeHead(status)} then
     * {@code end(message)}, which Node's HTTP/1.1 server chunks): 404 with an empty body for
     * xhr_send to an unknown session, 500 with "Payload expected." or "Broken JSON encoding.".
     */
    static String nodeError(int status, String reason, String message) {
        return "HTTP/1.1 " + status + " " + reason + "\r\n"
                + DATE
                + "Connection: keep-alive\r\n"
                + "Keep-Alive: timeout=5\r\n"
                + "Transfer-Encoding: chunked\r\n"
                + "\r\n"
                + (message.isEmpty() ? "" : chunk(message))
                + LAST_CHUNK;
    }

    /** An xhr-streaming body line per frame. */
    static String xhrFrame(String frame) {
        return frame + "\n";
    }

    /** An eventsource event per frame. */
    static String esFrame(String frame) {
        return "data: " + frame + "\r\n\r\n";
    }

    /** A broadcast message frame of {@code n} bytes of payload text, e.g. {@code a["xxxx"]}. */
    static String message(int seq, int n) {
        String head = "{\\\"seq\\\":" + seq + ",\\\"pad\\\":\\\"";
        return "a[\"" + head + "x".repeat(Math.max(0, n - head.length())) + "\\\"}\"]";
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] concat(String... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String p : parts) {
            out.writeBytes(bytes(p));
        }
        return out.toByteArray();
    }
}
