package sockbench.client.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.util.Arrays;
import java.util.Queue;

/**
 * Writes a connection's queued frames with gathering writes: up to {@code gather.length}
 * buffers per {@code write} call, so a round of sends costs one syscall per connection instead
 * of one per frame (Java-WebSocket queues every frame in its own buffer).
 */
final class GatheredWriter {

    private GatheredWriter() {
    }

    /**
     * Writes from the head of {@code queue} until it is empty or the socket takes no more; a
     * buffer leaves the queue only once all its bytes are written.
     *
     * @param gather scratch array the loop owns (reused: no allocation per write); left all null
     * @return true when the queue is empty, false when the socket is full (ask for OP_WRITE)
     */
    static boolean drain(Queue<ByteBuffer> queue, GatheringByteChannel channel, ByteBuffer[] gather)
            throws IOException {
        while (!queue.isEmpty()) {
            int k = 0;
            for (ByteBuffer b : queue) {
                gather[k++] = b;
                if (k == gather.length) {
                    break;
                }
            }
            channel.write(gather, 0, k);
            boolean blocked = false;
            for (int i = 0; i < k; i++) {
                if (gather[i].hasRemaining()) {
                    blocked = true;
                    break;
                }
                queue.poll();
            }
            Arrays.fill(gather, 0, k, null);
            if (blocked) {
                return false;
            }
        }
        return true;
    }
}
