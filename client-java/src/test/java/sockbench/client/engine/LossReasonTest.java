package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A lost session's reason becomes a short key to count by: the server's close code and text, the
 * I/O error's message, or "EOF" for a TCP close without a close frame.
 */
class LossReasonTest {

    @Test
    void closeFramesGiveTheirCodeAndText() {
        assertEquals("SockJS close 3000 Go away!", LossReason.of("SockJS close frame c[3000,\"Go away!\"]"));
        assertEquals("websocket close 1001 going away", LossReason.of("websocket closed: 1001 going away"));
        assertEquals("websocket close 1006", LossReason.of("websocket closed: 1006 "));
    }

    @Test
    void aTcpCloseWithoutACloseFrameIsEofAndAnIoErrorItsMessage() {
        assertEquals("EOF", LossReason.of(LossReason.SERVER_EOF));
        assertEquals("Connection reset by peer", LossReason.of("read: Connection reset by peer"));
        assertEquals("Broken pipe", LossReason.of("write: java.io.IOException: Broken pipe"));
        assertEquals("WebsocketNotConnectedException",
                LossReason.of("send: org.java_websocket.exceptions.WebsocketNotConnectedException"));
        assertEquals("protocol error: bad frame", LossReason.of("protocol error: bad frame"));
        assertEquals("unknown", LossReason.of(null));
    }
}
