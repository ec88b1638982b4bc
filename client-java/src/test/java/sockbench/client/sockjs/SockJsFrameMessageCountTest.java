package sockbench.client.sockjs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The scanner says how many messages each frame carried (what the client's messages-per-frame
 * figures are built from): the elements of an {@code a[...]} frame, none for the other types.
 */
class SockJsFrameMessageCountTest {

    /** Counts the messages handed on, to check the returned count against. */
    private static final class MessageCounter implements SockJsByteHandler {
        int messages;

        @Override
        public void onOpen() {
        }

        @Override
        public void onHeartbeat() {
        }

        @Override
        public void onMessage(byte[] buf, int start, int end) {
            messages++;
        }

        @Override
        public void onClose(int code, String reason) {
        }
    }

    private static int count(String frame) {
        byte[] b = ("XX" + frame + "YY").getBytes(StandardCharsets.UTF_8);
        MessageCounter handler = new MessageCounter();
        int returned = SockJsByteScanner.scan(b, 2, b.length - 2, handler);
        assertEquals(handler.messages, returned, "the count is the number of messages handed on: " + frame);
        return returned;
    }

    private static String frameOf(int messages) {
        StringBuilder b = new StringBuilder("a[");
        for (int i = 0; i < messages; i++) {
            b.append(i == 0 ? "" : ",").append("\"1:").append(i).append(":x\\\"y\"");
        }
        return b.append(']').toString();
    }

    @Test
    void anArrayFrameCountsItsMessages() {
        assertEquals(1, count(frameOf(1)));
        assertEquals(3, count(frameOf(3)));
        assertEquals(500, count(frameOf(500)));
        assertEquals(2, count("a[ \"a\" ,\n\"b\" ] "));
    }

    @Test
    void framesWithoutMessagesCountNone() {
        assertEquals(0, count("o"));
        assertEquals(0, count("h"));
        assertEquals(0, count("a[]"));
        assertEquals(0, count("c[3000,\"Go away!\"]"));
    }
}
