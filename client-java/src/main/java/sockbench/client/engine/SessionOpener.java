package sockbench.client.engine;

import java.net.InetAddress;
import java.nio.channels.Selector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One I/O loop's connects: the level's queue, the in-flight limit, the paced rate and each
 * handshake's deadline. Owned and called by its {@link IoLoop}'s thread only; the loop routes
 * each connection's open or failure back here before accounting it.
 *
 * <p>Why pacing lives here and not in the controller: at 100,000 sessions the connect rate
 * (2,000/s in the sessions profile) is itself part of what is measured, so each loop starts one
 * connect per interval on its own clock, and a loop that fell behind (held by the in-flight
 * limit) may catch up by at most {@link #MAX_CONNECT_BURST_NS} instead of bursting the backlog.
 */
final class SessionOpener {

    /** How far a paced loop may catch up after falling behind (e.g. blocked by the in-flight limit), ns. */
    private static final long MAX_CONNECT_BURST_NS = 10_000_000;

    private final Selector selector;
    private final Target target;
    /** How long a connect may take until its handshake completes, ns (&gt; 0). */
    private final long connectTimeoutNs;
    /** Connects in flight (TCP or handshake) at most, &ge; 1. */
    private final int maxInFlight;
    /** Local addresses connections bind to (client i to i mod size); empty = the kernel's choice. */
    private final List<InetAddress> sourceAddresses;

    private final ArrayDeque<Connection> queued = new ArrayDeque<>();
    private final List<Connection> opening = new ArrayList<>();
    private int inFlight;
    /** Paced opening: one connect per interval, ns (0 = as fast as the in-flight limit allows). */
    private long intervalNs;
    /** When the next paced connect may start, nanoTime. */
    private long nextConnectNs;

    SessionOpener(Selector selector, Target target, long connectTimeoutNs, int maxInFlight,
                  List<InetAddress> sourceAddresses) {
        this.selector = selector;
        this.target = target;
        this.connectTimeoutNs = connectTimeoutNs;
        this.maxInFlight = Math.max(1, maxInFlight);
        this.sourceAddresses = List.copyOf(sourceAddresses);
    }

    /**
     * Forgets the previous level's connects and paces the next ones: with {@code intervalNs} &gt; 0
     * one starts per interval from {@code firstAtNs} (nanoTime) on.
     */
    void reset(long intervalNs, long firstAtNs) {
        this.intervalNs = Math.max(0, intervalNs);
        this.nextConnectNs = firstAtNs;
        queued.clear();
        opening.clear();
        inFlight = 0;
    }

    /** Queues {@code c}; it starts when the pace and the in-flight limit allow ({@link #startDue}). */
    void queue(Connection c) {
        queued.add(c);
    }

    /** Drops the connects not started yet (those in flight finish or time out). */
    void dropQueued() {
        queued.clear();
    }

    /** Starts the queued connects that are due at {@code now} (nanoTime). */
    void startDue(long now) {
        while (inFlight < maxInFlight && !queued.isEmpty()) {
            if (intervalNs > 0) {
                if (now < nextConnectNs) {
                    break;
                }
                nextConnectNs = Math.max(nextConnectNs, now - MAX_CONNECT_BURST_NS) + intervalNs;
            }
            startNow(queued.poll(), now);
        }
    }

    /**
     * Starts {@code c} now, past the queue and the pace (a churn reconnect), counted in flight so
     * that its open or failure is accounted for like any connect's and its deadline checked.
     */
    void startNow(Connection c, long now) {
        inFlight++;
        opening.add(c);
        InetAddress source = sourceAddresses.isEmpty() ? null
                : sourceAddresses.get(c.clientId % sourceAddresses.size());
        c.connect(selector, target.address(), source, now + connectTimeoutNs, target);
    }

    /** {@code c}'s handshake completed. */
    void opened(Connection c) {
        opening.remove(c);
        inFlight--;
    }

    /** {@code c} failed to open, in flight or still queued. */
    void failed(Connection c) {
        if (opening.remove(c)) {
            inFlight--;
        } else {
            queued.remove(c);
        }
    }

    /** Fails every connect in flight past its deadline at {@code now} (nanoTime). */
    void expireSlow(long now) {
        for (int i = opening.size() - 1; i >= 0; i--) {
            Connection c = opening.get(i);
            if (now >= c.deadlineNs) {
                c.closingByUs = true;
                c.failOpen("timed out after " + connectTimeoutNs / 1_000_000 + " ms");
            }
        }
    }

    /** Whether connects are in flight (the loop must wake up to check their deadlines). */
    boolean anyInFlight() {
        return !opening.isEmpty();
    }

    /** Nanoseconds until the next paced connect may start; Long.MAX_VALUE when none is waiting for its turn. */
    long untilNextPacedNs(long now) {
        if (intervalNs > 0 && !queued.isEmpty() && inFlight < maxInFlight) {
            return Math.max(0, nextConnectNs - now);
        }
        return Long.MAX_VALUE;
    }
}
