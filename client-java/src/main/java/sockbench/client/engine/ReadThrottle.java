package sockbench.client.engine;

import java.util.PriorityQueue;

/**
 * One I/O loop's paused slow readers ({@link SlowReaders}): each socket whose {@link ReadBucket}
 * ran dry has dropped its OP_READ interest and waits here until the time its bucket is full
 * again, when the loop re-arms it. The loop's selector wait ends at {@link #nextDueNs}, so a
 * paused session costs nothing until then: no polling, no thread per session. While a socket is
 * paused its kernel receive buffer fills and TCP's window closes, and the server has to hold what
 * it could not send (or cut the session off at its per-session cap).
 *
 * <p>Owned by one loop thread.
 */
final class ReadThrottle {

    private record Paused(long dueNs, ReadySocket socket) {
    }

    private final PriorityQueue<Paused> paused = new PriorityQueue<>((a, b) -> Long.compare(a.dueNs, b.dueNs));

    /** Stops reading {@code s} until {@code dueNs}. */
    void pause(ReadySocket s, long dueNs) {
        s.readInterest(false);
        paused.add(new Paused(dueNs, s));
    }

    /** Re-arms every socket whose time has come; a session closed meanwhile is just forgotten. */
    void resumeDue(long nowNs) {
        Paused p;
        while ((p = paused.peek()) != null && p.dueNs <= nowNs) {
            paused.poll();
            if (p.socket.session().state() != Connection.State.CLOSED) {
                p.socket.readInterest(true);
            }
        }
    }

    /** The earliest re-arm time, or {@link Long#MAX_VALUE} when no socket is paused. */
    long nextDueNs() {
        Paused p = paused.peek();
        return p == null ? Long.MAX_VALUE : p.dueNs;
    }

    /** Paused sockets (tests). */
    int size() {
        return paused.size();
    }

    /** Forgets every paused socket (the level's sessions are gone). */
    void clear() {
        paused.clear();
    }
}
