package sockbench.client.sweep;

/**
 * One point as the sweep asks for it.
 *
 * @param rate              target rate, messages/s sent by all clients together, &gt; 0
 * @param index             the point's sequence number in the run (its payload epochs), ≥ 0
 * @param warmupS           unrecorded warm-up, seconds, ≥ 0
 * @param stepS             measured window, seconds, &gt; 0
 * @param payloadBytes      payload size, bytes, 1..65536
 * @param overloadTimeoutMs drain limit after the window, ms, &gt; 0
 * @param startNs           due time of message 0 on the caller's {@code System.nanoTime()} clock
 * @param connected         connections open when the point starts (all agents together)
 * @param allCopies         every receiver times every copy ({@link sockbench.client.engine.PointSchedule#allCopies})
 */
public record PointRequest(double rate, long index, double warmupS, double stepS, int payloadBytes,
                           double overloadTimeoutMs, long startNs, int connected, boolean allCopies) {

    /** A point timing only the senders' own copies. */
    public PointRequest(double rate, long index, double warmupS, double stepS, int payloadBytes,
                        double overloadTimeoutMs, long startNs, int connected) {
        this(rate, index, warmupS, stepS, payloadBytes, overloadTimeoutMs, startNs, connected, false);
    }
}
