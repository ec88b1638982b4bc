package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.junit.jupiter.api.Test;

/**
 * The gathered write: frames leave the queue in order and only once fully written, a full
 * socket stops the write with the rest still queued, and the scratch array is left empty.
 */
class GatheredWriterTest {

    /** A socket that takes at most {@code budget} bytes in all and counts its write calls. */
    static final class Socket implements GatheringByteChannel {
        final ByteArrayOutputStream written = new ByteArrayOutputStream();
        final List<Integer> buffersPerCall = new ArrayList<>();
        int budget;

        Socket(int budget) {
            this.budget = budget;
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            buffersPerCall.add(length);
            long n = 0;
            for (int i = offset; i < offset + length; i++) {
                while (srcs[i].hasRemaining() && budget > 0) {
                    written.write(srcs[i].get());
                    budget--;
                    n++;
                }
            }
            return n;
        }

        @Override
        public long write(ByteBuffer[] srcs) {
            return write(srcs, 0, srcs.length);
        }

        @Override
        public int write(ByteBuffer src) {
            return (int) write(new ByteBuffer[] {src}, 0, 1);
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /** {@code count} frames of {@code size} bytes, frame i filled with byte i. */
    static Queue<ByteBuffer> frames(int count, int size) {
        Queue<ByteBuffer> q = new ArrayDeque<>();
        for (int i = 0; i < count; i++) {
            byte[] b = new byte[size];
            java.util.Arrays.fill(b, (byte) i);
            q.add(ByteBuffer.wrap(b));
        }
        return q;
    }

    static byte[] expected(int count, int size) {
        byte[] b = new byte[count * size];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i / size);
        }
        return b;
    }

    @Test
    void everythingGoesOutInOrderInCallsOfAtMostTheGatherSize() throws Exception {
        Queue<ByteBuffer> q = frames(10, 3);
        Socket s = new Socket(Integer.MAX_VALUE);
        ByteBuffer[] gather = new ByteBuffer[4];
        assertTrue(GatheredWriter.drain(q, s, gather));
        assertTrue(q.isEmpty());
        assertArrayEquals(expected(10, 3), s.written.toByteArray());
        assertEquals(List.of(4, 4, 2), s.buffersPerCall);
        for (ByteBuffer b : gather) {
            assertNull(b, "the scratch array holds no buffer after the write");
        }
    }

    @Test
    void aFullSocketStopsTheWriteAndKeepsThePartlyWrittenFrameQueued() throws Exception {
        Queue<ByteBuffer> q = frames(5, 4);
        Socket s = new Socket(9); // two frames and one byte of the third
        ByteBuffer[] gather = new ByteBuffer[32];
        assertFalse(GatheredWriter.drain(q, s, gather), "blocked: the caller asks for OP_WRITE");
        assertEquals(3, q.size(), "the third frame stays until all of it is written");
        assertEquals(3, q.peek().remaining());
        for (ByteBuffer b : gather) {
            assertNull(b);
        }
        s.budget = Integer.MAX_VALUE;
        assertTrue(GatheredWriter.drain(q, s, gather));
        assertArrayEquals(expected(5, 4), s.written.toByteArray(), "the rest follows, nothing twice");
    }

    @Test
    void anEmptyQueueWritesNothing() throws Exception {
        Socket s = new Socket(100);
        assertTrue(GatheredWriter.drain(new ArrayDeque<>(), s, new ByteBuffer[2]));
        assertEquals(List.of(), s.buffersPerCall);
    }
}
