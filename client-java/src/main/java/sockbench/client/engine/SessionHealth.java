package sockbench.client.engine;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one I/O loop saw of its sessions' health since it started, whatever the level or point:
 * server heartbeats received and open sessions closed without the client asking, by
 * {@link LossReason} key. Running counts: the idle hold reads the difference over its duration.
 * Written by the loop's thread only; read through tasks on that thread.
 */
final class SessionHealth {

    /** Server heartbeats received (SockJS {@code h} frames and websocket pings), &ge; 0. */
    private long heartbeats;
    private final Map<String, Integer> lostReasons = new TreeMap<>();

    void heartbeat() {
        heartbeats++;
    }

    /** An open session closed without the client asking; {@code reason} as the connection gave it. */
    void lost(String reason) {
        lostReasons.merge(LossReason.of(reason), 1, Integer::sum);
    }

    long heartbeats() {
        return heartbeats;
    }

    /** Sessions lost by {@link LossReason} key (a copy). */
    Map<String, Integer> lostReasons() {
        return new TreeMap<>(lostReasons);
    }
}
