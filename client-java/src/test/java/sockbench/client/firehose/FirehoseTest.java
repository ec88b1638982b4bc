package sockbench.client.firehose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import sockbench.client.engine.Engine;
import sockbench.client.engine.Target;
import sockbench.client.engine.Transport;

class FirehoseTest {

    @Test
    void acceptKeyFollowsRfc6455() {
        assertEquals("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", FirehoseSender.acceptKey("dGhlIHNhbXBsZSBub25jZQ=="));
    }

    @Test
    void frameHeaders() {
        assertEquals(2 + 5, FirehoseSender.wsFrame(new byte[5]).length);
        assertEquals(4 + 300, FirehoseSender.wsFrame(new byte[300]).length);
        assertEquals((byte) 0x81, FirehoseSender.wsFrame(new byte[1])[0]);
        ByteBuffer block = FirehoseSender.buildBlock(1, 64);
        assertEquals(0, block.remaining() % 71, "whole frames of 2 + len('a[\"<64 chars>\"]') bytes");
    }

    @Test
    @Timeout(60)
    void theClientCountsWhatTheSenderWrites() throws Exception {
        try (FirehoseSender sender = ServingSenders.serving(3, 64)) {
            String url = "http://127.0.0.1:" + sender.port() + "/broadcast";
            try (Engine engine = Engine.builder(new Target(url, Transport.SOCKJS)).ioThreads(1)
                    .connectTimeoutNs(5_000_000_000L).connectConcurrency(10).start()) {
                FirehoseCount.Result r = FirehoseCount.measure(engine, 10, 0.2, 0.5, -1);
                assertEquals(10, r.connected());
                assertEquals(0, r.malformed());
                assertTrue(r.received() > 1000, "received " + r.received());
                // a["m1","m2","m3"] with 64-char payloads: 2 + 3×66 + 2 + 1 = 203 payload bytes,
                // + a 4-byte frame header (length >= 126) = 207 bytes per 3 messages: every message counted once.
                assertEquals(207 / 3.0, r.bytesPerMessage(), 0.1);
            }
        }
    }
}
