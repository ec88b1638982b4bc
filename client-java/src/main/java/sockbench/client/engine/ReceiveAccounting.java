package sockbench.client.engine;

import sockbench.client.engine.PointCounters.Count;

/**
 * Receive-side bookkeeping of one I/O thread: which point the arriving copies belong to, what
 * they count for, and the RTT of each connection's own copies.
 *
 * <p><b>The per-message cost is the point.</b> Every copy of every broadcast message passes
 * through {@link #message}, N − 1 of every N are other clients' copies, and at 20 M messages/s a
 * core has ~150 cycles per message for everything, the kernel's copy included. So:
 * <ul>
 *   <li>A copy's epoch is not parsed as a number: its first eight bytes are compared, masked, with
 *       {@code "<measured epoch>:"} packed into a long ({@link Payload#prefixWord}); the next eight
 *       with the connection's own {@code "<client>:"}. Equality of the masked bytes is equality of
 *       the fields, colon included, so this is exact, not a heuristic. A copy whose epoch does
 *       not match (the warm-up's, the previous point's, or a malformed one) takes the old path:
 *       both fields parsed, malformed ones counted.</li>
 *   <li>Another client's copy gets its client field checked to be digits and a colon (one SWAR
 *       test, {@link Payload#packedFieldDigits}) so a malformed payload is still counted as
 *       such; only the connection's own copy has its times parsed.</li>
 *   <li>Counts common to every message of a socket read (received, received in the window,
 *       arrived for the measured epoch) are tallied in plain fields and added to the
 *       {@link PointCounters} once per read ({@link #afterRead}): every message of one read has the
 *       same arrival time, so the window test is per read too.</li>
 * </ul>
 * <p>On an all-copies point ({@link PointSchedule#allCopies}) every copy of a measured message is
 * also timed: its seq is parsed (digits only, {@link Payload#packedFieldDigits}) and the copy's
 * latency from {@code schedule.dueNs(seq)} goes into one histogram and the message's
 * {@link CopyCompletion}. The due time comes from this receiver's own copy of the schedule, not
 * from the payload's scheduled field: parsing that field would double the per-copy work, and in a
 * fleet across hosts the schedule is already translated to this host's clock. Other points pay one
 * boolean test for it.
 *
 * <p>The epoch is checked for every message, never once per frame: a SockJS frame from a
 * coalescing server can hold the last warm-up copies and the first measured ones together.
 * Nothing is allocated per message.
 */
final class ReceiveAccounting {

    private final long originNs;
    private final PointCounters counters = new PointCounters();
    private final Payload.Fields fields = new Payload.Fields();
    private PointSchedule schedule;
    /** Scheduled times (relative to the origin) before this are in the window's first half. */
    private long halfwayRelNs;
    /** Arrival time of the bytes being decoded, nanoTime (one clock read per socket read). */
    private long arrivalNs;
    /** Whether {@link #arrivalNs} lies inside the point's counting window. */
    private boolean arrivalInWindow;
    /** {@code "<measured epoch>:"} packed ({@link Payload#prefixWord}), its mask and length; length 0: slow path only. */
    private long epochWord;
    private long epochMask;
    private int epochLength;
    /** Measured copies can yield RTT samples (a count-only schedule sends nothing). */
    private boolean timed;
    /** Messages (and measured-epoch copies) since the last {@link #flushTallies}. */
    private long receivedTally;
    private long measuredTally;
    /** This point times every copy of its measured messages. */
    private boolean allCopies;
    /** Absolute due time (nanoTime) before which a message is in the window's first half. */
    private long halfwayNs;
    /** Per-message completion of the current all-copies point; kept between points to be reused. */
    private CopyCompletion completion;
    /** All-copies half tallies since the last {@link #flushTallies}: samples and latency sums, µs. */
    private long fanoutFirstSamples;
    private long fanoutFirstMicros;
    private long fanoutSecondSamples;
    private long fanoutSecondMicros;
    private long untrackedCopies;
    /** Messages per data frame inside the window (batching, not a verdict). */
    private final FrameCounts frames = new FrameCounts();

    /**
     * The slow readers' accounting ({@link SlowReaders}), which differs in three ways: it times
     * every copy they read while a point runs, whatever point sent it, from the scheduled time in
     * its payload (how old what they read was: a reader that far behind reads the warm-up's or an
     * earlier point's copies, which the schedule cannot time; one process's payloads carry its own
     * clock, and the slow readers run in one process, never in a fleet), at a cost that does not
     * matter at their read rates; it never tracks completion (a slow session's copy must not make a
     * message "complete" for the healthy sessions); and a session lost between two points (a
     * cut-off seen during a settle) is counted in the next point, since no open count of theirs
     * catches it as the sweep's does for the healthy sessions.
     */
    private final boolean slowReaders;
    /** Slow readers' sessions lost while no point ran, by {@link LossReason} key: the next point's. */
    private final java.util.Map<String, Integer> lostBetweenPoints = new java.util.TreeMap<>();

    ReceiveAccounting(long originNs) {
        this(originNs, false);
    }

    /** @param slowReaders the slow readers' accounting (above) */
    ReceiveAccounting(long originNs, boolean slowReaders) {
        this.originNs = originNs;
        this.slowReaders = slowReaders;
    }

    /** The counters, with every message decoded so far included. */
    PointCounters counters() {
        flushTallies();
        return counters;
    }

    /**
     * The counters at the point's end: as {@link #counters()}, plus the messages-per-frame
     * figures, which are only added up here (once per point, not per poll).
     */
    PointCounters completedCounters() {
        flushTallies();
        frames.completeInto(counters);
        return counters;
    }

    /** Whether {@code nowNs} lies inside the current point's measured window (false between points). */
    boolean inWindow(long nowNs) {
        PointSchedule s = schedule;
        return s != null && nowNs >= s.windowStartNs() && nowNs < s.windowEndNs();
    }

    /**
     * The counters the current point adds to, for counts that are not per message (the churn's):
     * added to directly, they need no flush of this class's per-read tallies.
     */
    PointCounters live() {
        return counters;
    }

    /** Starts attributing arriving copies to {@code s}. */
    void start(PointSchedule s) {
        flushTallies();
        counters.reset();
        frames.reset();
        schedule = s;
        halfwayRelNs = (s.windowStartNs() + s.windowEndNs()) / 2 - originNs;
        epochLength = Payload.prefixLength(s.measureEpoch());
        epochWord = epochLength == 0 ? 0 : Payload.prefixWord(s.measureEpoch());
        epochMask = epochLength == 0 ? 0 : Payload.prefixMask(epochLength);
        timed = s.rate() > 0;
        allCopies = timed && s.allCopies() && !slowReaders;
        halfwayNs = (s.windowStartNs() + s.windowEndNs()) / 2;
        lostBetweenPoints.forEach((reason, n) -> {
            counters.add(Count.CONNECTIONS_LOST, n);
            counters.lostReasons.merge(reason, n, Integer::sum);
        });
        lostBetweenPoints.clear();
        if (allCopies && !slowReaders) {
            completion = CopyCompletion.forMessages(s.measureCount(), completion);
            counters.completion = completion;
        } else {
            counters.completion = null;
        }
    }

    /** A new level opens: what the last one lost between its points is no point's of this one. */
    void newLevel() {
        lostBetweenPoints.clear();
    }

    /** Stops attributing: copies arriving from now on belong to no point. */
    void stop() {
        schedule = null;
        allCopies = false;
        fanoutFirstSamples = fanoutFirstMicros = fanoutSecondSamples = fanoutSecondMicros = untrackedCopies = 0;
        arrivalInWindow = false; // until the next read: no frame is counted for a finished point
        receivedTally = 0;
        measuredTally = 0;
        counters.reset();
        frames.reset();
    }

    /** Called once per socket read that returned {@code bytes} bytes, before they are decoded. */
    void beforeRead(int bytes, long nowNs) {
        flushTallies(); // belongs to the previous read's arrival time (normally flushed already)
        arrivalNs = nowNs;
        PointSchedule s = schedule;
        arrivalInWindow = s != null && nowNs >= s.windowStartNs() && nowNs < s.windowEndNs();
        counters.add(Count.BYTES_READ, bytes);
        counters.increment(Count.READS);
    }

    /** Compressed messages of the read just decoded inflated to {@code bytes} bytes ({@code --compression}). */
    void inflated(long bytes) {
        counters.add(Count.INFLATED_BYTES, bytes);
    }

    /** Called after the bytes of a read were decoded: adds the read's tallies to the counters. */
    void afterRead() {
        flushTallies();
    }

    private void flushTallies() {
        long n = receivedTally;
        if (n != 0) {
            counters.add(Count.RECEIVED_ALL, n);
            if (arrivalInWindow) {
                counters.add(Count.RECEIVED_IN_WINDOW, n);
            }
            receivedTally = 0;
        }
        if (measuredTally != 0) {
            counters.add(Count.ARRIVED_MEASURED, measuredTally);
            measuredTally = 0;
        }
        if (allCopies) {
            counters.add(Count.FANOUT_FIRST_HALF_SAMPLES, fanoutFirstSamples);
            counters.add(Count.FANOUT_FIRST_HALF_SUM_MICROS, fanoutFirstMicros);
            counters.add(Count.FANOUT_SECOND_HALF_SAMPLES, fanoutSecondSamples);
            counters.add(Count.FANOUT_SECOND_HALF_SUM_MICROS, fanoutSecondMicros);
            counters.add(Count.COMPLETION_UNTRACKED, untrackedCopies);
            fanoutFirstSamples = fanoutFirstMicros = fanoutSecondSamples = fanoutSecondMicros = untrackedCopies = 0;
        }
    }

    /**
     * A data frame carrying {@code messages} messages arrived on {@code c} (after their
     * {@link #message} calls): counted when its read arrived inside the window, like
     * {@link Count#RECEIVED_IN_WINDOW}.
     */
    void frame(Connection c, int messages) {
        if (arrivalInWindow && !c.churnPool) {
            frames.record(c, messages, counters);
        }
    }

    /** One application message arrived on {@code c}: its payload is {@code b[start, end)}. */
    void message(Connection c, byte[] b, int start, int end) {
        if (schedule == null || c.churnPool) {
            return; // between points nothing is attributed; a churn pool session's copies never count
        }
        receivedTally++;
        if (slowReaders) {
            slowReaderCopy(b, start, end);
            return;
        }
        int el = epochLength;
        if (el != 0 && start + Payload.FAST_MATCH_SLACK <= b.length && start + el <= end
                && ((Payload.word(b, start) ^ epochWord) & epochMask) == 0) {
            // The measured epoch: now whose copy is it?
            int at = start + el;
            long w = Payload.word(b, at);
            int cl = c.clientPrefixLength;
            if (cl != 0 && at + cl <= end && ((w ^ c.clientWord) & c.clientMask) == 0) {
                measuredTally++;
                if (timed) {
                    ownCopy(c, b, at + cl, end, schedule.measureEpoch());
                }
                return;
            }
            int digits = Payload.packedFieldDigits(w);
            if (digits != 0 && at + digits < end) {
                measuredTally++; // another client's copy: counted, nothing else to do
                if (allCopies) {
                    otherCopy(b, at + digits + 1, end);
                }
                return;
            }
            // a client field of 8+ digits or a malformed one: the slow path decides
        }
        slowPath(c, b, start, end);
    }

    /**
     * A slow reader's copy, any epoch: how long after its scheduled send time (the payload's) it
     * was read. Copies of the measured epoch still count as arrived.
     */
    private void slowReaderCopy(byte[] b, int start, int end) {
        Payload.Fields f = fields;
        int rest = Payload.parseHeader(b, start, end, f);
        if (rest < 0 || !Payload.parseTimes(b, rest, end, f)) {
            counters.increment(Count.MALFORMED);
            return;
        }
        if (f.epoch == schedule.measureEpoch()) {
            measuredTally++;
        }
        counters.fanoutMicros.recordValue(Math.max(0, arrivalNs - originNs - f.scheduledNs) / 1000);
    }

    /** Parses epoch and client as numbers: copies of other epochs, malformed ones, unusual lengths. */
    private void slowPath(Connection c, byte[] b, int start, int end) {
        PointSchedule s = schedule;
        Payload.Fields f = fields;
        int rest = Payload.parseHeader(b, start, end, f);
        if (rest < 0) {
            counters.increment(Count.MALFORMED);
            return;
        }
        if (f.epoch != s.measureEpoch()) {
            return;
        }
        measuredTally++;
        // Own: the client field reads exactly as this client writes its id (the byte before its
        // digits is the epoch's colon, so "007" is not client 7 here, as on the fast path).
        if (f.client == c.clientId && b[rest - 2 - c.clientDigits] == ':' && timed) {
            ownCopy(c, b, rest, end, f.epoch);
        } else if (allCopies) {
            otherCopy(b, rest, end);
        }
    }

    /** Another client's copy of a measured message on an all-copies point; {@code from} is where its seq starts. */
    private void otherCopy(byte[] b, int from, int end) {
        long seq = Payload.parseSeq(b, from, end);
        if (seq < 0) {
            counters.increment(Count.MALFORMED);
            return;
        }
        timeCopy(seq);
    }

    /**
     * Times one copy of message {@code seq} from its due time in this receiver's schedule: the
     * all-copies histogram, the half it was due in, and the message's completion.
     */
    private void timeCopy(long seq) {
        PointSchedule s = schedule;
        long i = seq - s.warmupCount();
        if (i < 0 || i >= s.measureCount()) {
            counters.increment(Count.MALFORMED); // a measured-epoch copy whose seq is not a measured message
            return;
        }
        long due = s.dueNs(seq);
        long micros = Math.max(0, arrivalNs - due) / 1000;
        counters.fanoutMicros.recordValue(micros);
        if (due < halfwayNs) {
            fanoutFirstSamples++;
            fanoutFirstMicros += micros;
        } else {
            fanoutSecondSamples++;
            fanoutSecondMicros += micros;
        }
        if (counters.completion != null && !completion.record(i, micros)) {
            untrackedCopies++;
        }
    }

    /** The connection's own copy of a measured message; {@code from} is just after its client field. */
    private void ownCopy(Connection c, byte[] b, int from, int end, long epoch) {
        Payload.Fields f = fields;
        if (!Payload.parseTimes(b, from, end, f)) {
            counters.increment(Count.MALFORMED);
            return;
        }
        if (epoch < c.lastOwnEpoch || (epoch == c.lastOwnEpoch && f.seq <= c.lastOwnSeq)) {
            counters.increment(Count.OUT_OF_ORDER);
        } else {
            c.lastOwnEpoch = epoch;
            c.lastOwnSeq = f.seq;
        }
        counters.increment(Count.OWN_RETURNED);
        long arrivedRel = arrivalNs - originNs;
        // Corrected: from when the message was due (no coordinated omission).
        long corrected = Math.max(0, arrivedRel - f.scheduledNs) / 1000;
        counters.rttCorrectedMicros.recordValue(corrected);
        // Uncorrected: from when it was actually written.
        counters.rttUncorrectedMicros.recordValue(Math.max(0, arrivedRel - f.sentNs) / 1000);
        if (f.scheduledNs < halfwayRelNs) {
            counters.increment(Count.FIRST_HALF_SAMPLES);
            counters.add(Count.FIRST_HALF_RTT_SUM_MICROS, corrected);
        } else {
            counters.increment(Count.SECOND_HALF_SAMPLES);
            counters.add(Count.SECOND_HALF_RTT_SUM_MICROS, corrected);
        }
        if (allCopies) {
            timeCopy(f.seq);
        }
    }

    /** A session of this accounting closed without the client asking; {@code reason} as the connection gave it. */
    void connectionLost(String reason) {
        if (slowReaders && schedule == null) {
            lostBetweenPoints.merge(LossReason.of(reason), 1, Integer::sum);
            return;
        }
        counters.increment(Count.CONNECTIONS_LOST);
        counters.lostReasons.merge(LossReason.of(reason), 1, Integer::sum);
    }

    void malformed() {
        counters.increment(Count.MALFORMED);
    }
}
