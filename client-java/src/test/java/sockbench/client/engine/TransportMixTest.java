package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TransportMixTest {

    @Test
    void theDefaultPutsEverySessionOnTheWebsocket() {
        TransportMix m = TransportMix.WEBSOCKET_ONLY;
        assertTrue(m.websocketOnly());
        assertFalse(m.anyHttp());
        for (int i = 0; i < 100; i++) {
            assertEquals(SessionTransport.WEBSOCKET, m.transportOf(i));
        }
        assertEquals("websocket", m.spec());
    }

    @Test
    void oneNamedTransportTakesEverySession() {
        TransportMix m = TransportMix.parse("xhr-streaming");
        assertEquals(List.of(SessionTransport.XHR_STREAMING), m.transports());
        assertEquals(SessionTransport.XHR_STREAMING, m.transportOf(12345));
        assertTrue(m.anyHttp());
        assertEquals("xhr-streaming", m.spec());
    }

    @Test
    void theWeightsAreReducedAndTheSpecIsCanonical() {
        TransportMix m = TransportMix.parse(" websocket:80 , xhr-streaming:10,eventsource:5,XHR-POLLING:5");
        assertEquals("websocket:16,xhr-streaming:2,eventsource:1,xhr-polling:1", m.spec());
        assertEquals(Map.of("websocket", 16, "xhr-streaming", 2, "eventsource", 1, "xhr-polling", 1), m.weightsByName());
        // A weight of 0 drops the transport; the canonical form parses to itself.
        assertEquals("websocket:1,eventsource:1", TransportMix.parse("websocket:3,xhr-polling:0,eventsource:3").spec());
        assertEquals(m.spec(), TransportMix.parse(m.spec()).spec());
    }

    @Test
    void everyPrefixOfClientsHoldsEachTransportWithinOneSessionOfItsShare() {
        TransportMix m = TransportMix.parse("websocket:80,xhr-streaming:10,eventsource:5,xhr-polling:5");
        Map<SessionTransport, Double> share = Map.of(SessionTransport.WEBSOCKET, 0.80, SessionTransport.XHR_STREAMING, 0.10,
                SessionTransport.EVENTSOURCE, 0.05, SessionTransport.XHR_POLLING, 0.05);
        EnumMap<SessionTransport, Integer> seen = new EnumMap<>(SessionTransport.class);
        for (int n = 1; n <= 2000; n++) {
            seen.merge(m.transportOf(n - 1), 1, Integer::sum);
            for (SessionTransport t : SessionTransport.values()) {
                int got = seen.getOrDefault(t, 0);
                assertTrue(Math.abs(got - share.get(t) * n) < 1.0 + 1e-9, t + " at n=" + n + ": " + got);
                assertEquals(got, m.sessionsOf(t, n), "sessionsOf agrees with the assignment at n=" + n);
            }
        }
        assertEquals(1600, m.sessionsOf(SessionTransport.WEBSOCKET, 2000));
        assertEquals(100, m.sessionsOf(SessionTransport.XHR_POLLING, 2000));
    }

    @Test
    void theAssignmentInterleavesTransportsRatherThanBlocks() {
        TransportMix m = TransportMix.parse("websocket:1,xhr-polling:1");
        for (int i = 0; i < 10; i++) {
            assertEquals(i % 2 == 0 ? SessionTransport.WEBSOCKET : SessionTransport.XHR_POLLING, m.transportOf(i));
        }
    }

    @Test
    void theSameSpecAssignsTheSameClientsEveryTime() {
        TransportMix a = TransportMix.parse("websocket:7,eventsource:3");
        TransportMix b = TransportMix.parse("websocket:7,eventsource:3");
        for (int i = 0; i < 1000; i++) {
            assertEquals(a.transportOf(i), b.transportOf(i));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "websocket,", "websocket:80,smoke-signals:20", "websocket:-1", "websocket:1.5",
            "websocket:80,websocket:20", "websocket:0", "websocket:0,xhr-polling:0", "websocket:2000000",
            "websocket:9999,xhr-polling:9998", "xhr_streaming"})
    void aBadSpecIsRefusedWithItsReason(String spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TransportMix.parse(spec));
        assertFalse(e.getMessage().isBlank());
    }

    @Test
    void anUnknownNameListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TransportMix.parse("websocket:80,jsonp-polling:20"));
        assertTrue(e.getMessage().contains("jsonp-polling"), e.getMessage());
        assertTrue(e.getMessage().contains("websocket, xhr-streaming, eventsource, xhr-polling"), e.getMessage());
    }
}
