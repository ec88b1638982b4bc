package sockbench.client.stats;

import java.util.Map;
import java.util.TreeMap;

/**
 * A point's {@code slow_clients}: what the slow readers ({@code --slow-clients}) got while the point
 * ran (results/README.md). They are expected to fall behind, so none of this is the point's
 * verdict; what they cost the healthy sessions is the point's own figures, and what they cost the
 * server's memory is its {@code server_rss_bytes}.
 *
 * @param sessions         slow sessions open (or opening) at the point's start (the cut-off ones reopened)
 * @param received         copies they received inside the window
 * @param expectedReceived the point's {@code sent} × {@code sessions}: what they would have received keeping up
 * @param lostSessions     slow sessions that closed during the point without the client asking: the server cut them off
 * @param cutOffReasons    why, by short reason (the close frame's code and text, {@code EOF}, the I/O error); empty when none
 * @param fanoutMs         every copy they read while the point ran, whatever point sent it, from the scheduled send
 *                         time in its payload to its arrival, ms: how far behind their view of the broadcast was
 */
public record SlowClientsRecord(int sessions, long received, long expectedReceived, long lostSessions,
                                Map<String, Integer> cutOffReasons, LatencySummary fanoutMs) {

    public SlowClientsRecord {
        cutOffReasons = new TreeMap<>(cutOffReasons);
    }

}
