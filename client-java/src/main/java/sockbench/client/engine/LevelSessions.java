package sockbench.client.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One I/O loop's connections of the current level, in ascending client id: the order the send
 * cursor merges its schedule against and the churn replaces a member in place (a binary search,
 * not a scan, since a loop may hold 20,000 sessions and the churn replaces thousands a second).
 * Owned by its {@link IoLoop}'s thread only.
 */
final class LevelSessions {

    private final ArrayList<Connection> connections = new ArrayList<>();
    private final List<Connection> view = Collections.unmodifiableList(connections);

    /** Forgets the previous level's connections. */
    void clear() {
        connections.clear();
    }

    /** Adds the next connection; callers add them in ascending client id. */
    void add(Connection c) {
        connections.add(c);
    }

    /** The connections in ascending client id (a read-only view, live). */
    List<Connection> inOrder() {
        return view;
    }

    /** Client ids of the open connections that take part in points (churn pool and slow readers excluded), ascending. */
    List<Integer> openClientIds() {
        List<Integer> ids = new ArrayList<>();
        for (Connection c : connections) {
            if (c.isOpen() && c.inPoints()) {
                ids.add(c.clientId);
            }
        }
        return ids;
    }

    /** Connections not closed yet (opening or open), the churn pool and slow readers included. */
    int openCount() {
        int n = 0;
        for (Connection c : connections) {
            if (c.state() != Connection.State.CLOSED) {
                n++;
            }
        }
        return n;
    }

    /** As {@link #openCount()} without the churn pool and the slow readers: the sessions a point's figures are about. */
    int steadyOpenCount() {
        int n = 0;
        for (Connection c : connections) {
            if (c.state() != Connection.State.CLOSED && c.inPoints()) {
                n++;
            }
        }
        return n;
    }

    /** Slow readers not closed yet ({@link SlowReaders}). */
    int slowOpenCount() {
        int n = 0;
        for (Connection c : connections) {
            if (c.state() != Connection.State.CLOSED && c.slowReader) {
                n++;
            }
        }
        return n;
    }

    /** Puts {@code fresh} where the connection with its client id is; nothing if there is none. */
    void replace(Connection fresh) {
        int at = indexOf(fresh.clientId);
        if (at >= 0) {
            connections.set(at, fresh);
        }
    }

    /** Position of client {@code id} (ascending client ids), or -1. */
    private int indexOf(int id) {
        int lo = 0;
        int hi = connections.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int at = connections.get(mid).clientId;
            if (at < id) {
                lo = mid + 1;
            } else if (at > id) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }
}
