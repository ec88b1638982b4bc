package sockbench.client.engine;

import java.util.ArrayList;
import java.util.List;
import sockbench.client.engine.PointCounters.Count;

/**
 * One I/O thread's share of a point's send schedule: which of its connections sends message m,
 * and when. Message m is due at {@code schedule.dueNs(m)} and is sent by the connection in slot
 * {@code m mod clients}; this thread walks its own slots round by round (message
 * {@code slot + round·clients}), so it visits due messages in increasing order without a search.
 */
final class SendCursor {

    /** Max sends per call before the loop goes back to reading. */
    private static final int MAX_SENDS_PER_CALL = 2048;

    private final long originNs;
    private final StringBuilder text = new StringBuilder(256);
    /** The open connections taking part in the point, in slot order, and their slots. */
    private final ArrayList<Connection> ring = new ArrayList<>();
    private int[] slots = new int[0];
    private PointSchedule schedule;
    private long round;
    private int idx;
    private boolean done = true;

    SendCursor(long originNs) {
        this.originNs = originNs;
    }

    /**
     * Starts following {@code s}.
     *
     * @param connections this thread's connections of the level, ascending client id
     * @param ids         the client ids taking part (open ones), ascending
     * @param slotOfId    their slots in the schedule, same order as {@code ids}
     */
    void start(PointSchedule s, List<Connection> connections, List<Integer> ids, int[] slotOfId) {
        schedule = s;
        ring.clear();
        // connections and ids are both in ascending client id: one merge walk, not a search each.
        int next = 0;
        for (Connection c : connections) {
            if (next < ids.size() && ids.get(next) == c.clientId) {
                ring.add(c);
                next++;
            }
        }
        slots = slotOfId;
        round = 0;
        idx = 0;
        done = s.rate() <= 0 || ring.isEmpty() || current() >= s.totalCount();
    }

    void stop() {
        schedule = null;
        ring.clear();
        done = true;
    }

    boolean done() {
        return done;
    }

    /** When the next message is due, nanoTime; only when not {@link #done()}. */
    long nextDueNs() {
        return schedule.dueNs(current());
    }

    private long current() {
        return slots[idx] + round * schedule.clients();
    }

    private void advance() {
        if (++idx == ring.size()) {
            idx = 0;
            round++;
        }
        if (current() >= schedule.totalCount()) {
            done = true;
        }
    }

    /** Sends every message of this thread's share whose due time has come (at most a batch). */
    void sendDue(Transport transport) {
        if (done) {
            return;
        }
        PointSchedule s = schedule;
        for (int sent = 0; sent < MAX_SENDS_PER_CALL && !done; sent++) {
            long m = current();
            long due = s.dueNs(m);
            long now = System.nanoTime();
            if (due > now) {
                return;
            }
            boolean measured = s.isMeasured(m);
            long phaseEnd = measured ? s.measureEndNs() : s.warmupEndNs();
            Connection c = ring.get(idx);
            // Each count goes to the sender's transport, so a mix's figures split by transport.
            PointCounters counters = c.accounting.live();
            if (!c.isOpen()) {
                if (measured) {
                    counters.increment(Count.SKIPPED_CLOSED);
                }
            } else if (now >= phaseEnd) {
                if (measured) {
                    counters.increment(Count.SKIPPED);
                }
            } else {
                c.send(payload(transport, measured ? s.measureEpoch() : s.warmupEpoch(), c.clientId, m,
                        due, now, s.payloadBytes()));
                if (measured) {
                    counters.increment(Count.SENT);
                }
            }
            advance();
        }
    }

    private String payload(Transport transport, long epoch, int client, long m, long dueNs, long nowNs, int bytes) {
        StringBuilder b = text;
        b.setLength(0);
        boolean framed = transport == Transport.SOCKJS;
        if (framed) {
            b.append("[\""); // SockJS: the client sends a JSON array of strings
        }
        Payload.append(b, epoch, client, m, dueNs - originNs, nowNs - originNs, bytes);
        if (framed) {
            b.append("\"]");
        }
        return b.toString();
    }
}
