package sockbench.client.engine;

import org.HdrHistogram.Histogram;
import sockbench.client.stats.LatencySummary;
import sockbench.client.stats.MessagesPerFrame;

/**
 * What the I/O threads counted for the current point. Each I/O thread owns one instance and
 * is its only writer; the controller only ever sees copies made on that thread
 * ({@link #copy(boolean)}) and merged with {@link #add}.
 *
 * <p>The counts live in one array indexed by {@link Count}, so adding a counter is one enum
 * constant: reset, copy and merge cannot forget it.
 */
public final class PointCounters {

    /** Every count a point keeps. */
    public enum Count {
        /** Measured messages actually sent. */
        SENT,
        /** Messages whose phase ended before they could be sent (the client fell behind). */
        SKIPPED,
        /** Messages not sent because their connection had closed (not the client's fault). */
        SKIPPED_CLOSED,
        /** Copies of any message that arrived inside the window. */
        RECEIVED_IN_WINDOW,
        /** Copies of measured messages that arrived so far (any time). */
        ARRIVED_MEASURED,
        /** Own copies of measured messages that came back (RTT samples). */
        OWN_RETURNED,
        /** Own copies that came back out of send order. */
        OUT_OF_ORDER,
        /** Connections of the level that closed or failed during the point. */
        CONNECTIONS_LOST,
        /** Frames or payloads the client could not parse. */
        MALFORMED,
        /** Bytes read from the sockets while the point ran (diagnostics: bytes per message). */
        BYTES_READ,
        /**
         * What the compressed (permessage-deflate) messages read while the point ran inflated to,
         * bytes; 0 without {@code --compression}. Against {@link #BYTES_READ}: the compression the
         * sessions saw.
         */
        INFLATED_BYTES,
        /** Copies of any message that arrived while the point ran, inside the window or not (diagnostics). */
        RECEIVED_ALL,
        /** Socket read calls that returned data while the point ran (diagnostics: messages per read syscall). */
        READS,
        /** Own copies scheduled in the first half of the window: count, and their corrected RTTs summed (µs). */
        FIRST_HALF_SAMPLES,
        FIRST_HALF_RTT_SUM_MICROS,
        /** The same for the second half (the backlog-growing rule compares the two means). */
        SECOND_HALF_SAMPLES,
        SECOND_HALF_RTT_SUM_MICROS,
        /**
         * Data frames ({@code a[...]} with at least one message; every raw websocket message) that
         * arrived inside the window, and the messages in them. Added when the point ends
         * ({@link FrameCounts}), so polls during the point read 0.
         */
        FRAMES_IN_WINDOW,
        FRAME_MESSAGES_IN_WINDOW,
        /**
         * All-copies points only: copies of measured messages due in the window's first half, and
         * their latencies summed (µs), for the backlog rule on every copy ({@link #fanoutFirstHalfMeanMs}).
         */
        FANOUT_FIRST_HALF_SAMPLES,
        FANOUT_FIRST_HALF_SUM_MICROS,
        /** The same for the second half. */
        FANOUT_SECOND_HALF_SAMPLES,
        FANOUT_SECOND_HALF_SUM_MICROS,
        /** All-copies points only: copies of messages past {@link CopyCompletion#MAX_TRACKED_MESSAGES} (timed, completion not tracked). */
        COMPLETION_UNTRACKED,
        /**
         * Sessions of this accounting not closed when the point started (the slow readers', once the
         * cut-off ones were opened again; {@link SlowReaders}). Set once per point, never per message.
         */
        SESSIONS_AT_START,
        /** Churn ({@link ChurnPool}): pool closes started inside the window. */
        CHURN_CLOSES,
        /** Churn: new pool sessions that opened (SockJS {@code o} received) inside the window. */
        CHURN_RECONNECTS;

        private static final Count[] ALL = values();
    }

    private final long[] counts = new long[Count.ALL.length];
    /** Corrected RTT samples, microseconds. */
    public final Histogram rttCorrectedMicros;
    /** Uncorrected RTT samples, microseconds. */
    public final Histogram rttUncorrectedMicros;
    /** Messages per data frame, one value per frame inside the window (filled when the point ends). */
    public final Histogram messagesPerFrame;
    /**
     * Each connection's mean messages per frame inside the window, × 100 and rounded (one value per
     * connection that received a frame), so that agents' connections merge value by value.
     */
    public final Histogram connectionMeanHundredths;
    /**
     * All-copies points only (empty otherwise): every copy of every measured message any connection
     * received, µs from the message's due time in the schedule to the copy's arrival (corrected).
     */
    public final Histogram fanoutMicros;
    /** All-copies points only: each measured message's copies and slowest copy; null otherwise. */
    CopyCompletion completion;
    /** Churn: each reconnect inside the window, µs from its close's start to the new session's open. */
    public final Histogram churnReconnectMicros;
    /**
     * Churn: reconnects that failed inside the window (and pool sessions the server dropped, as
     * {@code "lost: <reason>"}), by short reason ({@link ConnectProgress#reasonKey}).
     */
    public final java.util.Map<String, Integer> churnFailures = new java.util.TreeMap<>();
    /**
     * With a transport mix ({@link TransportMix} of more than one transport): each transport's
     * own counters by its user name, in the mix's order, added up into this one; empty otherwise.
     */
    public final java.util.Map<String, PointCounters> byTransport = new java.util.LinkedHashMap<>();
    /** Sessions lost during the point ({@link Count#CONNECTIONS_LOST}) by {@link LossReason} key. */
    public final java.util.Map<String, Integer> lostReasons = new java.util.TreeMap<>();
    /**
     * With slow readers ({@link SlowReaders}): their own counters, kept apart from these (which are
     * the healthy sessions' alone), so nothing a slow session receives or loses is the point's
     * verdict; null without slow readers.
     */
    public PointCounters slow;

    public PointCounters() {
        this(LatencySummary.newHistogram(), LatencySummary.newHistogram(), MessagesPerFrame.newHistogram(),
                MessagesPerFrame.newHistogram(), LatencySummary.newHistogram(), LatencySummary.newHistogram());
    }

    private PointCounters(Histogram corrected, Histogram uncorrected, Histogram perFrame, Histogram connectionMeans,
                          Histogram fanout, Histogram churnReconnect) {
        this.rttCorrectedMicros = corrected;
        this.rttUncorrectedMicros = uncorrected;
        this.messagesPerFrame = perFrame;
        this.connectionMeanHundredths = connectionMeans;
        this.fanoutMicros = fanout;
        this.churnReconnectMicros = churnReconnect;
    }

    /** Per measured message completion of an all-copies point, or null (not all copies, or not merged in). */
    public CopyCompletion completion() {
        return completion;
    }

    /** Sets the completion arrays (a decoded agent reply). */
    public void completion(CopyCompletion c) {
        this.completion = c;
    }

    public long get(Count c) {
        return counts[c.ordinal()];
    }

    public void increment(Count c) {
        counts[c.ordinal()]++;
    }

    public void add(Count c, long delta) {
        counts[c.ordinal()] += delta;
    }

    public void reset() {
        java.util.Arrays.fill(counts, 0);
        rttCorrectedMicros.reset();
        rttUncorrectedMicros.reset();
        messagesPerFrame.reset();
        connectionMeanHundredths.reset();
        fanoutMicros.reset();
        churnReconnectMicros.reset();
        churnFailures.clear();
        byTransport.clear();
        lostReasons.clear();
        slow = null;
        if (completion != null) {
            completion.clear();
        }
    }

    /** A copy; with {@code withHistograms} false the histograms of the copy are empty (cheap progress polls). */
    public PointCounters copy(boolean withHistograms) {
        PointCounters c = withHistograms
                ? new PointCounters(rttCorrectedMicros.copy(), rttUncorrectedMicros.copy(), messagesPerFrame.copy(),
                        connectionMeanHundredths.copy(), fanoutMicros.copy(), churnReconnectMicros.copy())
                : new PointCounters();
        c.churnFailures.putAll(churnFailures);
        c.lostReasons.putAll(lostReasons);
        byTransport.forEach((t, part) -> c.byTransport.put(t, part.copy(withHistograms)));
        c.slow = slow == null ? null : slow.copy(withHistograms);
        if (withHistograms && completion != null) {
            c.completion = completion.copy();
        }
        System.arraycopy(counts, 0, c.counts, 0, counts.length);
        return c;
    }

    /** Adds another thread's counts into this one. */
    public void add(PointCounters o) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += o.counts[i];
        }
        rttCorrectedMicros.add(o.rttCorrectedMicros);
        rttUncorrectedMicros.add(o.rttUncorrectedMicros);
        messagesPerFrame.add(o.messagesPerFrame);
        connectionMeanHundredths.add(o.connectionMeanHundredths);
        fanoutMicros.add(o.fanoutMicros);
        churnReconnectMicros.add(o.churnReconnectMicros);
        o.churnFailures.forEach((reason, n) -> churnFailures.merge(reason, n, Integer::sum));
        o.lostReasons.forEach((reason, n) -> lostReasons.merge(reason, n, Integer::sum));
        if (o.slow != null) {
            if (slow == null) {
                slow = o.slow.copy(true);
            } else {
                slow.add(o.slow);
            }
        }
        o.byTransport.forEach((t, part) -> {
            PointCounters mine = byTransport.get(t);
            if (mine == null) {
                byTransport.put(t, part.copy(true));
            } else {
                mine.add(part);
            }
        });
        if (o.completion != null) {
            if (completion == null) {
                completion = o.completion.copy();
            } else {
                completion.add(o.completion);
            }
        }
    }

    /** The point's messages per frame as the result records it; null when no data frame arrived in the window. */
    public MessagesPerFrame messagesPerFrame() {
        return MessagesPerFrame.of(get(Count.FRAMES_IN_WINDOW), get(Count.FRAME_MESSAGES_IN_WINDOW), messagesPerFrame,
                connectionMeanHundredths);
    }

    /** Mean corrected RTT of own copies scheduled in the window's first half, ms; null without samples. */
    public Double firstHalfMeanMs() {
        return meanMs(get(Count.FIRST_HALF_RTT_SUM_MICROS), get(Count.FIRST_HALF_SAMPLES));
    }

    /** The same for the second half. */
    public Double secondHalfMeanMs() {
        return meanMs(get(Count.SECOND_HALF_RTT_SUM_MICROS), get(Count.SECOND_HALF_SAMPLES));
    }

    /** Mean latency of every copy of the messages due in the window's first half, ms; null without samples. */
    public Double fanoutFirstHalfMeanMs() {
        return meanMs(get(Count.FANOUT_FIRST_HALF_SUM_MICROS), get(Count.FANOUT_FIRST_HALF_SAMPLES));
    }

    /** The same for the second half. */
    public Double fanoutSecondHalfMeanMs() {
        return meanMs(get(Count.FANOUT_SECOND_HALF_SUM_MICROS), get(Count.FANOUT_SECOND_HALF_SAMPLES));
    }

    private static Double meanMs(long sumMicros, long n) {
        return n == 0 ? null : sumMicros / (double) n / LatencySummary.MICROS_PER_MS;
    }
}
