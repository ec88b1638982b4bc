package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The slow reader's token bucket and the loop's re-arm timer, on a clock the test sets: a read
 * takes at most what the bucket holds, an empty bucket is re-armed exactly when it is full again,
 * and over a long run the bytes allowed stay within one burst of the rate.
 */
class ReadBucketTest {

    private static final long S = 1_000_000_000L;

    @Test
    void aBurstIsATwentiethOfASecondWithinOneKiBAndOneReadBuffer() {
        assertEquals(64 * 1024 / 20, new ReadBucket(64 * 1024, 0).capacity());
        assertEquals(1024, new ReadBucket(1024, 0).capacity(), "1 KiB/s: at least 1 KiB");
        assertEquals(IoLoop.READ_BUFFER_BYTES, new ReadBucket(1_000_000L * 1024, 0).capacity(), "at most one read buffer");
        assertThrows(IllegalArgumentException.class, () -> new ReadBucket(0, 0));
    }

    @Test
    void aReadTakesWhatTheBucketHoldsAndTheRearmIsWhenItIsFullAgain() {
        ReadBucket b = new ReadBucket(64 * 1024, 0); // 3,276 bytes a burst, 65,536 bytes/s
        assertEquals(3276, b.allowance(0, IoLoop.READ_BUFFER_BYTES), "starts full");
        assertEquals(100, b.allowance(0, 100), "never more than the caller's buffer");
        b.consume(3276);
        assertTrue(b.empty(0));
        assertEquals(0, b.allowance(0, IoLoop.READ_BUFFER_BYTES));
        long rearm = b.refilledAtNs(0);
        // 3,276 bytes at 65,536 bytes/s = 49.99 ms
        assertEquals(3276 * S / 65_536, rearm, 1_000);
        assertEquals(3275, b.allowance(rearm - 10_000, IoLoop.READ_BUFFER_BYTES), "one byte short 10 µs before");
        assertEquals(3276, b.allowance(rearm, IoLoop.READ_BUFFER_BYTES));
        assertEquals(rearm, b.refilledAtNs(rearm), "full: re-arm now");
        assertEquals(3276, b.allowance(rearm + 10 * S, IoLoop.READ_BUFFER_BYTES), "never more than one burst");
    }

    @Test
    void overTenSecondsAGreedyReaderGetsTheRatePlusOneBurst() {
        long rate = 64 * 1024;
        ReadBucket b = new ReadBucket(rate, 0);
        long now = 0;
        long read = 0;
        int reads = 0;
        while (now < 10 * S) {
            int n = b.allowance(now, IoLoop.READ_BUFFER_BYTES);
            b.consume(n); // the kernel always has more than the allowance: the reader is the limit
            read += n;
            reads++;
            now = b.refilledAtNs(now);
        }
        assertTrue(read <= 10 * rate + b.capacity(), "read " + read);
        assertTrue(read >= 10 * rate - b.capacity(), "read " + read);
        assertTrue(reads <= 10 * ReadBucket.BURSTS_PER_S + 2, reads + " wake-ups: about 20 a second, no polling");
    }

    @Test
    void theThrottleDropsReadInterestAndReArmsAtTheDueTimeInOrder() {
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        ReadThrottle t = new ReadThrottle();
        assertEquals(Long.MAX_VALUE, t.nextDueNs(), "nothing paused: no timer");
        t.pause(a, 200);
        t.pause(b, 100);
        assertFalse(a.reading);
        assertFalse(b.reading);
        assertEquals(100, t.nextDueNs());
        t.resumeDue(99);
        assertFalse(b.reading, "not before its time");
        t.resumeDue(100);
        assertTrue(b.reading);
        assertFalse(a.reading);
        assertEquals(200, t.nextDueNs());
        a.session.state = Connection.State.CLOSED;
        t.resumeDue(1_000);
        assertFalse(a.reading, "a closed session is forgotten, not re-armed");
        assertEquals(0, t.size());
        assertEquals(Long.MAX_VALUE, t.nextDueNs());
    }

    /** A socket that records what the throttle asked of it. */
    private static final class Recorder implements ReadySocket {
        final WsConnection session = new WsConnection(null, Transport.SOCKJS, 0, null, false);
        boolean reading = true;

        @Override
        public Connection session() {
            return session;
        }

        @Override
        public void connectReady() {
        }

        @Override
        public void writeReady(ByteBuffer[] gather) {
        }

        @Override
        public int readReady(ByteBuffer buf, int max) {
            return 0;
        }

        @Override
        public void readInterest(boolean on) {
            reading = on;
        }
    }
}
