package sockbench.client.engine;

import sockbench.client.engine.PointCounters.Count;

/**
 * Receive-side bookkeeping of one I/O thread: which point the arriving copies belong to, what
 * they count for, and the RTT of each connection's own copies.
 *
 * <p>Per message it parses only the payload's first two fields (point epoch and client id, a
 * few ASCII digits read straight from the frame's bytes); the times are parsed only for the
 * connection's own copy, the one in N that gives an RTT sample. Nothing is allocated per message.
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

    ReceiveAccounting(long originNs) {
        this.originNs = originNs;
    }

    PointCounters counters() {
        return counters;
    }

    /** Starts attributing arriving copies to {@code s}. */
    void start(PointSchedule s) {
        counters.reset();
        schedule = s;
        halfwayRelNs = (s.windowStartNs() + s.windowEndNs()) / 2 - originNs;
    }

    /** Stops attributing: copies arriving from now on belong to no point. */
    void stop() {
        schedule = null;
        counters.reset();
    }

    /** Called once per socket read that returned {@code bytes} bytes, before they are decoded. */
    void beforeRead(int bytes, long nowNs) {
        arrivalNs = nowNs;
        counters.add(Count.BYTES_READ, bytes);
        counters.increment(Count.READS);
    }

    /** One application message arrived on {@code c}: its payload is {@code b[start, end)}. */
    void message(Connection c, byte[] b, int start, int end) {
        PointSchedule s = schedule;
        if (s == null) {
            return; // between points: nothing is attributed
        }
        long now = arrivalNs;
        counters.increment(Count.RECEIVED_ALL);
        if (now >= s.windowStartNs() && now < s.windowEndNs()) {
            counters.increment(Count.RECEIVED_IN_WINDOW);
        }
        Payload.Fields f = fields;
        int rest = Payload.parseHeader(b, start, end, f);
        if (rest < 0) {
            counters.increment(Count.MALFORMED);
            return;
        }
        if (f.epoch != s.measureEpoch() || s.rate() <= 0) {
            return;
        }
        counters.increment(Count.ARRIVED_MEASURED);
        if (f.client != c.clientId) {
            return;
        }
        if (!Payload.parseTimes(b, rest, end, f)) {
            counters.increment(Count.MALFORMED);
            return;
        }
        if (f.epoch < c.lastOwnEpoch || (f.epoch == c.lastOwnEpoch && f.seq <= c.lastOwnSeq)) {
            counters.increment(Count.OUT_OF_ORDER);
        } else {
            c.lastOwnEpoch = f.epoch;
            c.lastOwnSeq = f.seq;
        }
        counters.increment(Count.OWN_RETURNED);
        long arrivedRel = now - originNs;
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
    }

    void connectionLost() {
        counters.increment(Count.CONNECTIONS_LOST);
    }

    void malformed() {
        counters.increment(Count.MALFORMED);
    }
}
