package sockbench.client.stats;

import java.util.Map;
import java.util.TreeMap;

/**
 * A level's {@code idle}: its sessions held idle after connecting, before the first point. Server
 * figures are summed over every serving process ({@code --server-pids}); client figures over this
 * process and every agent. A figure that could not be read is null.
 *
 * @param holdS                   seconds held idle
 * @param connectionsLost         connections that closed during the hold
 * @param heartbeats              server heartbeats received during the hold (SockJS {@code h} frames and websocket pings), all sessions together
 * @param serverCpuPct            CPU of the server processes over the hold, percent of one core
 * @param serverRssBytes          RSS of the server processes at the end of the hold, bytes
 * @param serverRssBaselineBytes  the same just before the sweep's first level opened, bytes
 * @param clientRssBytes          RSS of the client processes at the end of the hold, bytes
 * @param clientRssBaselineBytes  the same just before the sweep's first level opened, bytes
 * @param sessions                sessions held (open at the hold's start): the per-session divisor
 * @param lostReasons             the sessions that closed during the hold by short reason (the server's
 *                                close code and text, the I/O error, or "EOF"); empty when none did
 */
public record IdleRecord(double holdS, long connectionsLost, long heartbeats, Double serverCpuPct,
                         Long serverRssBytes, Long serverRssBaselineBytes, Long clientRssBytes,
                         Long clientRssBaselineBytes, int sessions, Map<String, Integer> lostReasons) {

    public IdleRecord {
        lostReasons = new TreeMap<>(lostReasons);
    }

    /** A hold whose lost sessions' reasons are not known. */
    public IdleRecord(double holdS, long connectionsLost, long heartbeats, Double serverCpuPct,
                      Long serverRssBytes, Long serverRssBaselineBytes, Long clientRssBytes,
                      Long clientRssBaselineBytes, int sessions) {
        this(holdS, connectionsLost, heartbeats, serverCpuPct, serverRssBytes, serverRssBaselineBytes, clientRssBytes,
                clientRssBaselineBytes, sessions, Map.of());
    }

    /**
     * The warning line when sessions closed during the hold, naming why, most frequent first, e.g.
     * {@code level 50000: 841 of 50000 sessions closed during the 30 s idle hold: EOF (800), websocket close 1006 (41)};
     * null when none did.
     */
    public String warning(int level) {
        if (connectionsLost <= 0) {
            return null;
        }
        String why = lostReasons.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .map(e -> e.getKey() + " (" + e.getValue() + ")")
                .reduce((x, y) -> x + ", " + y).orElse("reason not recorded");
        return String.format(java.util.Locale.ROOT, "level %d: %d of %d sessions closed during the %.0f s idle hold: %s",
                level, connectionsLost, sessions, holdS, why);
    }

    /** (server RSS − its baseline) / sessions, bytes per session; null when either is unknown or no session was held. */
    public Double serverBytesPerSession() {
        return perSession(serverRssBytes, serverRssBaselineBytes);
    }

    /** The same for the client processes. */
    public Double clientBytesPerSession() {
        return perSession(clientRssBytes, clientRssBaselineBytes);
    }

    private Double perSession(Long rss, Long baseline) {
        return rss == null || baseline == null || sessions <= 0 ? null : (rss - baseline) / (double) sessions;
    }
}
