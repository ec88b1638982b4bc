package sockbench.client.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The request bytes of the receiving transports and xhr_send, and the inputs refused. */
class HttpRequestsTest {

    private static String ascii(byte[] b) {
        return new String(b, StandardCharsets.US_ASCII);
    }

    @Test
    void xhrStreamingRequestIsAnEmptyKeepAlivePost() {
        assertEquals("POST /broadcast/000/abcd1234/xhr_streaming HTTP/1.1\r\n"
                        + "Host: 127.0.0.1:8080\r\n"
                        + "Connection: keep-alive\r\n"
                        + "Content-Length: 0\r\n"
                        + "\r\n",
                ascii(HttpRequests.receive(HttpReceiveTransport.XHR_STREAMING, "/broadcast/000/abcd1234", "127.0.0.1:8080")));
    }

    @Test
    void eventSourceRequestIsAGetAcceptingAnEventStream() {
        assertEquals("GET /broadcast/123/s1/eventsource HTTP/1.1\r\n"
                        + "Host: localhost\r\n"
                        + "Connection: keep-alive\r\n"
                        + "Accept: text/event-stream\r\n"
                        + "\r\n",
                ascii(HttpRequests.receive(HttpReceiveTransport.EVENTSOURCE, "/broadcast/123/s1", "localhost")));
    }

    @Test
    void xhrPollingRequestIsAnEmptyPostToXhr() {
        assertEquals("POST /echo/999/x/xhr HTTP/1.1\r\n"
                        + "Host: [::1]:9999\r\n"
                        + "Connection: keep-alive\r\n"
                        + "Content-Length: 0\r\n"
                        + "\r\n",
                ascii(HttpRequests.receive(HttpReceiveTransport.XHR_POLLING, "/echo/999/x", "[::1]:9999")));
    }

    @Test
    void xhrSendCarriesTheBodyRangeAsTextPlainWithItsLength() {
        byte[] buf = "xx[\"m1\",\"m2\"]yy".getBytes(StandardCharsets.US_ASCII);
        byte[] req = HttpRequests.send("/broadcast/000/abcd1234", "127.0.0.1:8080", buf, 2, 11);
        assertEquals("POST /broadcast/000/abcd1234/xhr_send HTTP/1.1\r\n"
                        + "Host: 127.0.0.1:8080\r\n"
                        + "Connection: keep-alive\r\n"
                        + "Content-Type: text/plain;charset=UTF-8\r\n"
                        + "Content-Length: 11\r\n"
                        + "\r\n"
                        + "[\"m1\",\"m2\"]",
                ascii(req));
    }

    @Test
    void xhrSendBodyBytesAreCopiedUnchanged() {
        byte[] body = "[\"caf\u00e9\"]".getBytes(StandardCharsets.UTF_8);
        byte[] req = HttpRequests.send("/p/000/s", "h", body, 0, body.length);
        byte[] tail = java.util.Arrays.copyOfRange(req, req.length - body.length, req.length);
        assertArrayEquals(body, tail);
        assertTrue(ascii(req).contains("Content-Length: " + body.length + "\r\n"), "the length in bytes, not chars");
    }

    @Test
    void xhrSendWithAnEmptyBodySaysContentLengthZero() {
        assertTrue(ascii(HttpRequests.send("/p/000/s", "h", new byte[0], 0, 0)).endsWith("Content-Length: 0\r\n\r\n"));
    }

    @Test
    void eachCallReturnsAFreshArray() {
        byte[] a = HttpRequests.receive(HttpReceiveTransport.XHR_POLLING, "/p/000/s", "h");
        byte[] b = HttpRequests.receive(HttpReceiveTransport.XHR_POLLING, "/p/000/s", "h");
        assertTrue(a != b);
        assertArrayEquals(a, b);
    }

    @Test
    void pathsThatWouldSplitOrCorruptTheRequestAreRefused() {
        for (String path : List.of("/p/000/s\r\nX: y", "/p/000/s\n", "/p/0 0/s", "/p/000/s/", "p/000/s", "", "/p/000/\u00e9",
                "/p/000/s\t", "/p/000/\u0000")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> HttpRequests.receive(HttpReceiveTransport.XHR_STREAMING, path, "h"), path);
            assertTrue(e.getMessage().startsWith("session path"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> HttpRequests.send(path, "h", new byte[0], 0, 0), path);
        }
        assertThrows(IllegalArgumentException.class, () -> HttpRequests.receive(HttpReceiveTransport.XHR_STREAMING, null, "h"));
    }

    @Test
    void hostHeadersThatWouldSplitTheRequestAreRefused() {
        for (String host : List.of("h\r\nX: y", "h\n", "h h", "", "h\u00e9")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> HttpRequests.receive(HttpReceiveTransport.EVENTSOURCE, "/p/000/s", host), host);
            assertTrue(e.getMessage().startsWith("Host header"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> HttpRequests.send("/p/000/s", host, new byte[0], 0, 0), host);
        }
        assertThrows(IllegalArgumentException.class, () -> HttpRequests.receive(HttpReceiveTransport.EVENTSOURCE, "/p/000/s", null));
    }

    @Test
    void refusedInputIsQuotedPrintablyInTheMessage() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HttpRequests.receive(HttpReceiveTransport.XHR_STREAMING, "/p\r\n", "h"));
        assertTrue(e.getMessage().contains("\"/p\\r\\n\""), e.getMessage());
    }

    @Test
    void bodyRangesOutsideTheArrayAndNullsAreRefused() {
        byte[] b = new byte[4];
        assertThrows(IllegalArgumentException.class, () -> HttpRequests.send("/p/000/s", "h", b, -1, 2));
        assertThrows(IllegalArgumentException.class, () -> HttpRequests.send("/p/000/s", "h", b, 0, 5));
        assertThrows(IllegalArgumentException.class, () -> HttpRequests.send("/p/000/s", "h", b, 3, 2));
        assertThrows(IllegalArgumentException.class, () -> HttpRequests.send("/p/000/s", "h", b, 2, -1));
        assertThrows(IllegalArgumentException.class, () -> HttpRequests.send("/p/000/s", "h", null, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> HttpRequests.receive(null, "/p/000/s", "h"));
    }

    @Test
    void requestsDecodeAsTheServersWouldParseThem() {
        // the head is pure US-ASCII with CRLF line ends and one empty line before the body
        for (HttpReceiveTransport t : HttpReceiveTransport.values()) {
            String r = ascii(HttpRequests.receive(t, "/p/000/s", "h"));
            assertTrue(r.startsWith(t.method() + " /p/000/s/" + t.pathSuffix() + " HTTP/1.1\r\n"), r);
            assertTrue(r.endsWith("\r\n\r\n"), r);
            assertEquals(1, r.split("\r\n\r\n", -1).length - 1, "one head end: " + r);
            assertTrue(r.replace("\r\n", "").indexOf('\n') < 0 && r.replace("\r\n", "").indexOf('\r') < 0, "no bare CR or LF");
        }
    }
}
