package sockbench.client.engine;

/**
 * The send schedule of one point, shared by every I/O thread. Times are {@code System.nanoTime()} values.
 *
 * <p><b>The coordinated-omission trap, and how this avoids it.</b> Message {@code m} (0, 1, 2, ...)
 * of the point is due at {@code startNs + m / rate} and is sent by client {@code m mod N}, so each
 * client sends {@code rate / N} messages/s on a fixed grid and the clients' phases are spread evenly.
 * The due time is decided here, in advance, and never moves: a sender that falls behind sends
 * late, and the payload carries the <em>scheduled</em> time as well as the actual one. The corrected
 * RTT (from the scheduled time) therefore includes every delay the server's slowness imposed on the
 * sender, instead of quietly measuring only the messages a stalled client managed to send.
 *
 * <p>Messages {@code 0 .. warmupCount-1} are the warm-up (epoch {@code warmupEpoch}, not recorded),
 * the next {@code measureCount} are the measured window (epoch {@code measureEpoch}). A message is
 * never sent after its phase has ended ({@link #warmupEndNs()} / {@link #measureEndNs()}): a client
 * that cannot keep up sends fewer messages, which the client-bound rule then reports, rather than
 * stretching the window.
 *
 * @param rate         target rate, messages/s for all clients together (0 = count only, no sends)
 * @param clients      N, the number of clients of the level (the schedule's modulus)
 * @param startNs      due time of message 0
 * @param warmupCount  messages in the warm-up
 * @param measureCount messages in the measured window
 * @param warmupEpoch  payload epoch of warm-up messages
 * @param measureEpoch payload epoch of measured messages; copies with this epoch are the point's
 * @param windowStartNs start of the window in which arriving copies are counted as received
 * @param windowEndNs  end of that window (exclusive)
 * @param payloadBytes pad each payload to this many characters
 * @param allCopies    every receiver times every copy of a measured message from {@link #dueNs} of its seq
 *                     and keeps each message's completion ({@link CopyCompletion}); false: only own copies are timed
 */
public record PointSchedule(double rate, int clients, long startNs, long warmupCount, long measureCount,
                            long warmupEpoch, long measureEpoch, long windowStartNs, long windowEndNs,
                            int payloadBytes, boolean allCopies) {

    /**
     * The schedule of a normal point.
     *
     * @param rate    target rate, messages/s, &gt; 0
     * @param warmupS warm-up duration, seconds (rounded up to whole messages)
     * @param stepS   window duration, seconds (rounded to whole messages, at least one)
     * @param index   the point's sequence number in the run, giving its epochs 2·index and 2·index+1
     */
    public static PointSchedule of(double rate, int clients, long startNs, double warmupS, double stepS,
                                   long index, int payloadBytes) {
        long warm = (long) Math.ceil(rate * warmupS - 1e-9);
        long measure = Math.max(1, Math.round(rate * stepS));
        long winStart = startNs + offsetNs(warm, rate);
        long winEnd = startNs + offsetNs(warm + measure, rate);
        return new PointSchedule(rate, clients, startNs, warm, measure, 2 * index, 2 * index + 1,
                winStart, winEnd, payloadBytes, false);
    }

    /** This schedule with every copy timed ({@code true}) or only the senders' own ({@code false}). */
    public PointSchedule withAllCopies(boolean on) {
        return new PointSchedule(rate, clients, startNs, warmupCount, measureCount, warmupEpoch, measureEpoch,
                windowStartNs, windowEndNs, payloadBytes, on);
    }

    /** A window in which the clients only count what arrives (the firehose self-test). */
    public static PointSchedule countOnly(int clients, long windowStartNs, long windowEndNs, long epoch) {
        return new PointSchedule(0, clients, windowStartNs, 0, 0, epoch, epoch, windowStartNs, windowEndNs, 0, false);
    }

    private static long offsetNs(long m, double rate) {
        return (long) Math.floor(m * 1e9 / rate);
    }

    /** Messages in the schedule. */
    public long totalCount() {
        return warmupCount + measureCount;
    }

    /** When message {@code m} is due. */
    public long dueNs(long m) {
        return startNs + offsetNs(m, rate);
    }

    /** Index of the client that sends message {@code m}. */
    public int clientOf(long m) {
        return (int) (m % clients);
    }

    public boolean isMeasured(long m) {
        return m >= warmupCount;
    }

    /** End of the warm-up phase: warm-up messages not sent by then are skipped. */
    public long warmupEndNs() {
        return windowStartNs;
    }

    /** End of the measured phase: measured messages not sent by then are skipped. */
    public long measureEndNs() {
        return windowEndNs;
    }

    /** Window length, seconds. */
    public double windowS() {
        return (windowEndNs - windowStartNs) / 1e9;
    }
}
