package sockbench.client.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import sockbench.client.engine.PointCounters;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.stats.LatencySummary;
import sockbench.client.stats.PointRules;
import sockbench.client.stats.PointState;
import sockbench.client.stats.Thresholds;
import sockbench.client.stats.TransportPointResult;

/**
 * A mixed point's figures per transport, from the counters each transport's sessions kept
 * ({@link PointCounters#byTransport}), judged by the point's own rule: the fan-out verdict on
 * all-copies points, the own-copies one otherwise. A transport that loses copies or sessions, or
 * whose latency crosses the thresholds, makes the whole point overloaded or saturated even when
 * the other transports' sessions carry the average.
 */
final class TransportBreakdown {

    private TransportBreakdown() {
    }

    /**
     * @param total          the point's merged counters (empty {@code byTransport}: no mix, empty result)
     * @param sentAll        the point's sent messages, all transports
     * @param openByTransport sessions of each transport open at the point's start, by name
     * @param allCopies      the point times every copy (fan-out verdict)
     */
    static List<TransportPointResult> of(PointCounters total, long sentAll, Map<String, Integer> openByTransport,
                                         boolean allCopies, Thresholds t) {
        List<TransportPointResult> out = new ArrayList<>();
        for (Map.Entry<String, PointCounters> e : total.byTransport.entrySet()) {
            PointCounters c = e.getValue();
            int sessions = openByTransport.getOrDefault(e.getKey(), 0);
            long expected = sentAll * sessions;
            long lost = Math.max(0, expected - c.get(Count.ARRIVED_MEASURED));
            long connectionErrors = c.get(Count.CONNECTIONS_LOST);
            LatencySummary rtt = LatencySummary.of(c.rttCorrectedMicros);
            Double maxUncorrected = LatencySummary.of(c.rttUncorrectedMicros).max();
            LatencySummary fanout = allCopies ? LatencySummary.of(c.fanoutMicros) : null;
            PointState state = allCopies
                    ? PointRules.classifyFanout(fanout, maxUncorrected, lost, connectionErrors, t)
                    : PointRules.classify(rtt, maxUncorrected, lost, connectionErrors, t);
            long received = c.get(Count.RECEIVED_IN_WINDOW);
            out.add(new TransportPointResult(e.getKey(), sessions, c.get(Count.SENT), received, expected, lost,
                    connectionErrors, PointRules.deliveredPct(received, expected), rtt, fanout, c.messagesPerFrame(),
                    state));
        }
        return out;
    }
}
