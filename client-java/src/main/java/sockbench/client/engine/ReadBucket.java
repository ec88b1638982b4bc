package sockbench.client.engine;

/**
 * One slow session's read budget ({@link SlowReaders}): a token bucket of bytes that refills at the
 * session's rate and holds at most {@link #capacity()} bytes. The loop reads the session only
 * while the bucket has tokens, at most as many bytes as it holds; when a read empties it the loop
 * stops asking for OP_READ and re-arms at {@link #refilledAtNs} ({@link ReadThrottle}): no polling,
 * no thread per session.
 *
 * <p><b>Why the capacity is a twentieth of a second's worth</b> (at least 1 KiB, at most one read
 * buffer): the session then reads in bursts at most 20 times a second at rates ≥ 20 KiB/s (a
 * thousand slow sessions cost 20,000 wake-ups a second, nothing beside the broadcast), while over
 * any second it reads at most its rate plus one burst. A larger bucket would let a slow session
 * swallow a second of data at once and hide the stall the server should see.
 *
 * <p>Owned by one loop thread; not thread-safe.
 */
final class ReadBucket {

    /** Smallest burst, bytes: a read of fewer bytes is mostly syscall (and the upgrade response must fit). */
    static final long MIN_CAPACITY = 1024;
    /** Largest burst, bytes: one read buffer ({@link IoLoop#READ_BUFFER_BYTES}). */
    static final long MAX_CAPACITY = IoLoop.READ_BUFFER_BYTES;
    /** The bucket holds this fraction of a second at the session's rate (20 bursts a second). */
    static final long BURSTS_PER_S = 20;

    private final double bytesPerNs;
    private final long capacity;
    private double tokens;
    private long lastNs;

    /** A full bucket refilling at {@code bytesPerS} (&gt; 0) from {@code nowNs} on. */
    ReadBucket(long bytesPerS, long nowNs) {
        if (bytesPerS <= 0) {
            throw new IllegalArgumentException("bytesPerS must be > 0, got " + bytesPerS);
        }
        this.bytesPerNs = bytesPerS / 1e9;
        this.capacity = Math.max(MIN_CAPACITY, Math.min(MAX_CAPACITY, bytesPerS / BURSTS_PER_S));
        this.tokens = capacity;
        this.lastNs = nowNs;
    }

    /** The most bytes the bucket holds (one burst). */
    long capacity() {
        return capacity;
    }

    /** Bytes the session may read at {@code nowNs}, at most {@code max}. */
    int allowance(long nowNs, int max) {
        refill(nowNs);
        return (int) Math.min(max, (long) tokens);
    }

    /** {@code bytes} were read. */
    void consume(int bytes) {
        tokens -= bytes;
    }

    /** Whether a read now could take nothing worth a syscall (less than one byte left). */
    boolean empty(long nowNs) {
        refill(nowNs);
        return tokens < 1;
    }

    /** When the bucket is full again (≥ {@code nowNs}): the time to re-arm the session's reads. */
    long refilledAtNs(long nowNs) {
        refill(nowNs);
        double missing = capacity - tokens;
        return missing <= 0 ? nowNs : nowNs + (long) Math.ceil(missing / bytesPerNs);
    }

    private void refill(long nowNs) {
        if (nowNs > lastNs) {
            tokens = Math.min(capacity, tokens + (nowNs - lastNs) * bytesPerNs);
            lastNs = nowNs;
        }
    }
}
