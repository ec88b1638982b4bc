package sockbench.client.engine;

import java.util.Arrays;

/**
 * Per measured message of an all-copies point: how many of its copies arrived and the latest of
 * them, as the latency of that copy (arrival − the message's due time, µs). The message's
 * completion time is then its slowest copy: the moment the last session got it.
 *
 * <p>Indexed by {@code seq − warmupCount}. The latency is kept instead of the arrival time because
 * it merges across agents whose clocks differ: each receiver measures from the due time in its own
 * copy of the schedule, so the largest latency over every thread and agent is the completion time.
 * Two plain arrays, sized once when the point starts ({@link #forMessages}); recording a copy is
 * two array updates and allocates nothing.
 */
public final class CopyCompletion {

    /**
     * At most this many measured messages of a point are tracked (2 MiB per I/O thread): the
     * sessions profile's largest window is 100,000 msgs/s × 2 s = 200,000 messages. Messages past
     * it are still timed in the all-copies histogram; the sweep warns that their completion is not.
     */
    public static final int MAX_TRACKED_MESSAGES = 1 << 18;

    private int[] copies;
    private int[] slowestMicros;
    private int length;

    private CopyCompletion(int capacity) {
        copies = new int[capacity];
        slowestMicros = new int[capacity];
    }

    /**
     * Arrays for a point of {@code measuredMessages} messages (at most {@link #MAX_TRACKED_MESSAGES}
     * tracked), zeroed; {@code previous} is reused when large enough, so points do not reallocate.
     */
    public static CopyCompletion forMessages(long measuredMessages, CopyCompletion previous) {
        int n = (int) Math.min(Math.max(0, measuredMessages), MAX_TRACKED_MESSAGES);
        CopyCompletion c = previous != null && previous.copies.length >= n ? previous : new CopyCompletion(n);
        c.clear();
        c.length = n;
        return c;
    }

    /** Arrays already filled (a decoded agent's reply): {@code copies[i]} and {@code slowestMicros[i]} for message i. */
    public static CopyCompletion of(int[] copies, int[] slowestMicros) {
        if (copies.length != slowestMicros.length) {
            throw new IllegalArgumentException("copies and slowest arrays differ in length: "
                    + copies.length + " vs " + slowestMicros.length);
        }
        CopyCompletion c = new CopyCompletion(0);
        c.copies = copies.clone();
        c.slowestMicros = slowestMicros.clone();
        c.length = copies.length;
        return c;
    }

    /** Messages tracked. */
    public int length() {
        return length;
    }

    /**
     * One copy of tracked message {@code i} arrived {@code latencyMicros} after its due time.
     *
     * @return false when {@code i} is past the tracked range (the caller counts it as untracked)
     */
    boolean record(long i, long latencyMicros) {
        if (i >= length) {
            return false;
        }
        int k = (int) i;
        copies[k]++;
        int micros = (int) Math.min(latencyMicros, Integer.MAX_VALUE);
        if (micros > slowestMicros[k]) {
            slowestMicros[k] = micros;
        }
        return true;
    }

    /** Copies of message {@code i} that arrived. */
    public int copies(int i) {
        return copies[i];
    }

    /** The latest copy of message {@code i}, µs after its due time (0 when none arrived). */
    public int slowestMicros(int i) {
        return slowestMicros[i];
    }

    /** The tracked part of the copy-count array (a copy). */
    public int[] copiesArray() {
        return Arrays.copyOf(copies, length);
    }

    /** The tracked part of the slowest-copy array, µs (a copy). */
    public int[] slowestMicrosArray() {
        return Arrays.copyOf(slowestMicros, length);
    }

    void clear() {
        Arrays.fill(copies, 0, Math.max(length, 0), 0);
        Arrays.fill(slowestMicros, 0, Math.max(length, 0), 0);
    }

    /** A copy of the tracked range. */
    public CopyCompletion copy() {
        return of(copiesArray(), slowestMicrosArray());
    }

    /**
     * Adds another thread's or agent's arrivals: copies summed, the slowest copy the larger of the
     * two (every receiver timed from the same message's due time).
     */
    public void add(CopyCompletion o) {
        if (o.length > copies.length) {
            copies = Arrays.copyOf(copies, o.length);
            slowestMicros = Arrays.copyOf(slowestMicros, o.length);
        }
        length = Math.max(length, o.length);
        for (int i = 0; i < o.length; i++) {
            copies[i] += o.copies[i];
            if (o.slowestMicros[i] > slowestMicros[i]) {
                slowestMicros[i] = o.slowestMicros[i];
            }
        }
    }
}
