package sockbench.client.stats;

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
 */
public record IdleRecord(double holdS, long connectionsLost, long heartbeats, Double serverCpuPct,
                         Long serverRssBytes, Long serverRssBaselineBytes, Long clientRssBytes,
                         Long clientRssBaselineBytes, int sessions) {

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
