package sockbench.client.websocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The server's answer to our permessage-deflate offer (RFC 7692 §5, §7.1). */
class DeflateNegotiationTest {

    private static final Compression ASKED = Compression.PERMESSAGE_DEFLATE;

    @Test
    void answersThatAcceptTheOffer() {
        assertEquals(new DeflateNegotiation.Accepted(false), DeflateNegotiation.check(ASKED, "permessage-deflate"));
        assertEquals(new DeflateNegotiation.Accepted(false),
                DeflateNegotiation.check(ASKED, "permessage-deflate; client_max_window_bits=15"));
        assertEquals(new DeflateNegotiation.Accepted(true),
                DeflateNegotiation.check(ASKED, "Permessage-Deflate; server_no_context_takeover; server_max_window_bits=\"10\""));
        assertEquals(new DeflateNegotiation.Accepted(false),
                DeflateNegotiation.check(ASKED, "permessage-deflate;client_no_context_takeover"));
    }

    @Test
    void noOfferNoExtension() {
        assertNull(DeflateNegotiation.check(Compression.NONE, ""));
        assertNull(DeflateNegotiation.check(Compression.NONE, null));
        assertThrows(WsProtocolException.class, () -> DeflateNegotiation.check(Compression.NONE, "permessage-deflate"));
    }

    @Test
    void aRefusedOfferSaysSoInOneLine() {
        WsProtocolException e = assertThrows(WsProtocolException.class, () -> DeflateNegotiation.check(ASKED, ""));
        assertTrue(e.getMessage().contains("did not accept permessage-deflate"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"));
    }

    @Test
    void answersARealClientMustRefuse() {
        for (String bad : new String[] {"x-webkit-deflate-frame", "permessage-deflate, permessage-deflate",
                "permessage-deflate; server_max_window_bits", "permessage-deflate; server_max_window_bits=16",
                "permessage-deflate; client_max_window_bits=7", "permessage-deflate; server_no_context_takeover=1",
                "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
                "permessage-deflate; no_such_parameter"}) {
            assertThrows(WsProtocolException.class, () -> DeflateNegotiation.check(ASKED, bad), bad);
        }
    }

    @Test
    void theOfferIsTheRfcsPlainestOne() {
        assertEquals("permessage-deflate; client_max_window_bits", DeflateNegotiation.OFFER);
        assertEquals(ASKED, Compression.byUserName("permessage-deflate").orElseThrow());
        assertTrue(Compression.byUserName("deflate").isEmpty());
    }
}
