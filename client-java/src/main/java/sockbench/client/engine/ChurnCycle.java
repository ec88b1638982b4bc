package sockbench.client.engine;

import java.util.ArrayList;
import java.util.List;
import sockbench.client.engine.PointCounters.Count;

/**
 * One I/O thread's share of the churn ({@link ChurnPool}): each of its pool sessions, once a
 * second, closes cleanly and opens a new SockJS session in its place. The thread's members are
 * spread evenly over the second (member j of m at j / m s) and the threads offset by a fraction of
 * that interval, as the paced connects are, so the server sees a steady storm of pool/s cycles,
 * not a burst each second.
 *
 * <p>A cycle: the close frame goes out and the socket waits for the server's FIN, at most
 * {@link #CLOSE_WAIT_NS} (then the client drops it), and the new session's connect starts at once.
 * A member still closing or connecting when its next second comes skips that cycle; a member whose
 * reconnect failed, or that the server dropped on its own, is retried at its next second: never a
 * spin. Counts go into the current point ({@link ReceiveAccounting#inWindow}: closes started,
 * reconnects opened, the reconnect time, failures by reason) only inside its measured window.
 *
 * <p>Runs on the loop's thread only.
 */
final class ChurnCycle {

    /** Each member cycles once per this, ns. */
    static final long SECOND_NS = 1_000_000_000L;
    /** How long a closing member waits for the server to close the TCP connection, ns. */
    static final long CLOSE_WAIT_NS = 1_000_000_000L;

    /** What the cycle needs from its loop: a fresh session in a member's place. */
    interface Host {
        /** A new, not yet connecting session for {@code old}'s client id, put where {@code old} was. */
        Connection replace(Connection old);

        /** Starts connecting {@code c} (its open or failure comes back as the loop's events). */
        void connect(Connection c);
    }

    private final Host host;
    private final ReceiveAccounting point;
    private Connection[] members = new Connection[0];
    /** When member j left (close started, or dropped by the server), nanoTime; 0 = present. */
    private long[] awaySinceNs = new long[0];
    /** While member j's close waits for the server: when the client drops it, nanoTime; 0 = not closing. */
    private long[] closeDeadlineNs = new long[0];
    private long firstDueNs;
    private long intervalNs;
    /** The member whose cycle is due next, and in which second. */
    private int next;
    private long round;
    private boolean running;

    ChurnCycle(Host host, ReceiveAccounting point) {
        this.host = host;
        this.point = point;
    }

    /**
     * Starts cycling the pool sessions among {@code ring} (this loop's sessions of the level).
     *
     * @param loopIndex this loop's index, offsetting its members against the other loops' ({@code loopCount} in all)
     */
    void start(List<Connection> ring, long nowNs, int loopIndex, int loopCount) {
        List<Connection> pool = new ArrayList<>();
        for (Connection c : ring) {
            if (c.churnPool) {
                pool.add(c);
            }
        }
        int m = pool.size();
        members = pool.toArray(new Connection[0]);
        awaySinceNs = new long[m];
        closeDeadlineNs = new long[m];
        for (int j = 0; j < m; j++) {
            members[j].churnMember = j;
        }
        running = m > 0;
        if (running) {
            intervalNs = SECOND_NS / m;
            firstDueNs = nowNs + intervalNs * loopIndex / Math.max(1, loopCount);
            next = 0;
            round = 0;
        }
    }

    /** Stops cycling: the level is closing (its sessions are closed with the rest) or reopening. */
    void stop() {
        running = false;
        members = new Connection[0];
    }

    boolean running() {
        return running;
    }

    /** When the next member's cycle is due, nanoTime; only while {@link #running()}. */
    long nextDueNs() {
        return firstDueNs + round * SECOND_NS + next * intervalNs;
    }

    /** Starts every cycle that is due (at most one second's worth). */
    void tick(long nowNs) {
        if (!running) {
            return;
        }
        long behind = nowNs - nextDueNs();
        if (behind > SECOND_NS) {
            // The loop stalled for more than a second: skip the missed seconds rather than burst them.
            round += behind / SECOND_NS;
        }
        for (int done = 0; done < members.length && nextDueNs() <= nowNs; done++) {
            cycle(next, nowNs);
            if (++next == members.length) {
                next = 0;
                round++;
            }
        }
    }

    private void cycle(int j, long nowNs) {
        Connection c = members[j];
        if (closeDeadlineNs[j] != 0 || c.isOpening()) {
            return; // its last cycle is still closing or connecting: this second's is skipped
        }
        if (c.isOpen()) {
            awaySinceNs[j] = nowNs;
            closeDeadlineNs[j] = nowNs + CLOSE_WAIT_NS;
            if (point.inWindow(nowNs)) {
                point.live().increment(Count.CHURN_CLOSES);
            }
            c.closeAwaitingServer(); // its close comes back through closed()
            return;
        }
        // Closed: its reconnect failed, or the server dropped it; try again once this second.
        if (awaySinceNs[j] == 0) {
            awaySinceNs[j] = nowNs;
        }
        reopen(j);
    }

    private void reopen(int j) {
        Connection fresh = host.replace(members[j]);
        fresh.churnPool = true;
        fresh.churnReconnect = true;
        fresh.churnMember = j;
        members[j] = fresh;
        host.connect(fresh);
    }

    /** Drops members whose server did not close within {@link #CLOSE_WAIT_NS}; their reconnect follows. */
    void expireCloses(long nowNs) {
        for (int j = 0; j < members.length && running; j++) {
            if (closeDeadlineNs[j] != 0 && nowNs >= closeDeadlineNs[j]) {
                members[j].hardClose();
            }
        }
    }

    /** A pool session closed: its cycle's close is done (reconnect now), or the server dropped it (retry next second). */
    void closed(Connection c, String reason, long nowNs) {
        int j = memberOf(c);
        if (j < 0) {
            return;
        }
        if (closeDeadlineNs[j] != 0) {
            closeDeadlineNs[j] = 0;
            reopen(j);
            return;
        }
        awaySinceNs[j] = nowNs;
        fail("lost: " + ConnectProgress.reasonKey(reason), nowNs);
    }

    /** A reconnect opened (SockJS: its {@code o} frame arrived). */
    void reconnected(Connection c, long nowNs) {
        int j = memberOf(c);
        if (j < 0) {
            return;
        }
        long away = awaySinceNs[j];
        awaySinceNs[j] = 0;
        if (point.inWindow(nowNs)) {
            PointCounters counts = point.live();
            counts.increment(Count.CHURN_RECONNECTS);
            counts.churnReconnectMicros.recordValue(Math.max(0, nowNs - away) / 1000);
        }
    }

    /** A reconnect failed; the member stays away and is retried at its next second. */
    void reconnectFailed(Connection c, String reason, long nowNs) {
        if (memberOf(c) >= 0) {
            fail(ConnectProgress.reasonKey(reason), nowNs);
        }
    }

    private void fail(String reason, long nowNs) {
        if (point.inWindow(nowNs)) {
            point.live().churnFailures.merge(reason, 1, Integer::sum);
        }
    }

    /** {@code c}'s member index while it is that member's current session and the churn runs; else -1. */
    private int memberOf(Connection c) {
        int j = c.churnMember;
        return running && j >= 0 && j < members.length && members[j] == c ? j : -1;
    }
}
