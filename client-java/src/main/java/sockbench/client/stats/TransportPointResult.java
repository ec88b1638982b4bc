package sockbench.client.stats;

/**
 * One transport's share of a point whose sessions used a mix of SockJS transports
 * (results/README.md, {@code levels[].points[].transports[]}): the same counts and latencies as
 * the point's, for the sessions of this transport only. Every session receives every broadcast,
 * so a transport's expected copies are all the point's sent messages × its sessions.
 *
 * @param transport        the transport's name ({@code websocket}, {@code xhr-streaming}, {@code eventsource}, {@code xhr-polling})
 * @param sessions         its sessions open at the start of the point, ≥ 0
 * @param sent             measured messages its sessions sent in the window
 * @param received         copies its sessions received in the window (arrival time inside it)
 * @param expectedReceived the point's sent messages (all transports) × {@code sessions}
 * @param lost             copies of messages sent in the window that had not reached its sessions at the drain deadline
 * @param connectionErrors its sessions lost during the point
 * @param deliveredPct     100 × received / expectedReceived; null when nothing was expected
 * @param rtt              corrected RTT of its sessions' own copies (from the scheduled send time), ms
 * @param fanout           all-copies points: every copy its sessions received, ms; null otherwise
 * @param messagesPerFrame how many messages its data frames carried; null when none arrived
 * @param state            this transport's verdict by the point's own rule: the point is no better than its worst transport
 */
public record TransportPointResult(String transport, int sessions, long sent, long received, long expectedReceived,
                                   long lost, long connectionErrors, Double deliveredPct, LatencySummary rtt,
                                   LatencySummary fanout, MessagesPerFrame messagesPerFrame, PointState state) {

    /** The worse of two verdicts (ok &lt; saturated &lt; overloaded &lt; agent_lost). */
    public static PointState worse(PointState a, PointState b) {
        return a.ordinal() >= b.ordinal() ? a : b;
    }
}
