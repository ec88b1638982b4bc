package sockbench.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The three receive transports' names, paths, methods and streaming flag. */
class HttpReceiveTransportTest {

    @Test
    void xhrStreamingIsAStreamingPostToXhrStreaming() {
        HttpReceiveTransport t = HttpReceiveTransport.XHR_STREAMING;
        assertEquals("xhr-streaming", t.userName());
        assertEquals("xhr_streaming", t.pathSuffix());
        assertEquals("POST", t.method());
        assertTrue(t.streaming());
    }

    @Test
    void eventSourceIsAStreamingGetToEventsource() {
        HttpReceiveTransport t = HttpReceiveTransport.EVENTSOURCE;
        assertEquals("eventsource", t.userName());
        assertEquals("eventsource", t.pathSuffix());
        assertEquals("GET", t.method());
        assertTrue(t.streaming());
    }

    @Test
    void xhrPollingIsAPollingPostToXhr() {
        HttpReceiveTransport t = HttpReceiveTransport.XHR_POLLING;
        assertEquals("xhr-polling", t.userName());
        assertEquals("xhr", t.pathSuffix());
        assertEquals("POST", t.method());
        assertFalse(t.streaming());
    }

    @Test
    void byUserNameFindsEachTransportByItsOwnName() {
        for (HttpReceiveTransport t : HttpReceiveTransport.values()) {
            assertEquals(Optional.of(t), HttpReceiveTransport.byUserName(t.userName()));
        }
    }

    @Test
    void byUserNameIsEmptyForOtherNames() {
        for (String name : new String[] {"websocket", "xhr_streaming", "XHR-STREAMING", "xhr", "", " eventsource", "jsonp-polling"}) {
            assertEquals(Optional.empty(), HttpReceiveTransport.byUserName(name), name);
        }
        assertEquals(Optional.empty(), HttpReceiveTransport.byUserName(null));
    }
}
