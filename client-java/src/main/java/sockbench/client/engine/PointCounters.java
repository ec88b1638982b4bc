package sockbench.client.engine;

import org.HdrHistogram.Histogram;
import sockbench.client.stats.LatencySummary;

/**
 * What the I/O threads counted for the current point. Each I/O thread owns one instance and
 * is its only writer; the controller only ever sees copies made on that thread
 * ({@link #copy(boolean)}) and merged with {@link #add}.
 */
public final class PointCounters {
    /** Measured messages actually sent. */
    public long sent;
    /** Messages whose phase ended before they could be sent (the client fell behind). */
    public long skipped;
    /** Messages not sent because their connection had closed (not the client's fault). */
    public long skippedClosed;
    /** Copies of any message that arrived inside the window. */
    public long receivedInWindow;
    /** Copies of measured messages that arrived so far (any time). */
    public long arrivedMeasured;
    /** Own copies of measured messages that came back (RTT samples). */
    public long ownReturned;
    /** Own copies that came back out of send order. */
    public long outOfOrder;
    /** Connections of the level that closed or failed during the point. */
    public long connectionsLost;
    /** Frames or payloads the client could not parse. */
    public long malformed;
    /** Bytes read from the sockets while the point ran (diagnostics: bytes per message). */
    public long bytesRead;
    /** Copies of any message that arrived while the point ran, inside the window or not (diagnostics). */
    public long receivedAll;
    /** Socket read calls that returned data while the point ran (diagnostics: messages per read syscall). */
    public long reads;
    /** Corrected RTT samples, microseconds. */
    public final Histogram rttCorrectedMicros;
    /** Uncorrected RTT samples, microseconds. */
    public final Histogram rttUncorrectedMicros;

    public PointCounters() {
        this(LatencySummary.newHistogram(), LatencySummary.newHistogram());
    }

    private PointCounters(Histogram corrected, Histogram uncorrected) {
        this.rttCorrectedMicros = corrected;
        this.rttUncorrectedMicros = uncorrected;
    }

    public void reset() {
        sent = skipped = skippedClosed = receivedInWindow = arrivedMeasured = ownReturned = outOfOrder = connectionsLost = malformed = bytesRead = receivedAll = reads = 0;
        rttCorrectedMicros.reset();
        rttUncorrectedMicros.reset();
    }

    /** A copy; with {@code withHistograms} false the histograms of the copy are empty (cheap progress polls). */
    public PointCounters copy(boolean withHistograms) {
        PointCounters c = withHistograms
                ? new PointCounters(rttCorrectedMicros.copy(), rttUncorrectedMicros.copy())
                : new PointCounters();
        c.sent = sent;
        c.skipped = skipped;
        c.skippedClosed = skippedClosed;
        c.receivedInWindow = receivedInWindow;
        c.arrivedMeasured = arrivedMeasured;
        c.ownReturned = ownReturned;
        c.outOfOrder = outOfOrder;
        c.connectionsLost = connectionsLost;
        c.malformed = malformed;
        c.bytesRead = bytesRead;
        c.receivedAll = receivedAll;
        c.reads = reads;
        return c;
    }

    /** Adds another thread's counts into this one. */
    public void add(PointCounters o) {
        sent += o.sent;
        skipped += o.skipped;
        skippedClosed += o.skippedClosed;
        receivedInWindow += o.receivedInWindow;
        arrivedMeasured += o.arrivedMeasured;
        ownReturned += o.ownReturned;
        outOfOrder += o.outOfOrder;
        connectionsLost += o.connectionsLost;
        malformed += o.malformed;
        bytesRead += o.bytesRead;
        receivedAll += o.receivedAll;
        reads += o.reads;
        rttCorrectedMicros.add(o.rttCorrectedMicros);
        rttUncorrectedMicros.add(o.rttUncorrectedMicros);
    }
}
