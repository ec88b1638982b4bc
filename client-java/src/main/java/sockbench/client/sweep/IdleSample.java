package sockbench.client.sweep;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the processes holding connections look like at one instant of an idle hold: added up over
 * this process or every agent.
 *
 * @param heartbeats     server heartbeats (SockJS h frames, websocket pings) received so far (a running count; the hold takes the difference)
 * @param open           connections of the level still open
 * @param clientRssBytes resident set size of the client processes, bytes (a coordinator's own plus
 *                       every agent's); null when one could not be read
 * @param lostReasons    sessions closed without the client asking so far, by short reason
 *                       ({@code engine/LossReason}; a running count: the hold takes the difference)
 */
public record IdleSample(long heartbeats, int open, Long clientRssBytes, Map<String, Integer> lostReasons) {

    public IdleSample {
        lostReasons = new TreeMap<>(lostReasons);
    }

    /** The reasons counted since {@code before}: each reason's count here minus its count then (those that grew). */
    public Map<String, Integer> lostReasonsSince(IdleSample before) {
        Map<String, Integer> out = new TreeMap<>();
        lostReasons.forEach((reason, n) -> {
            int grew = n - before.lostReasons.getOrDefault(reason, 0);
            if (grew > 0) {
                out.put(reason, grew);
            }
        });
        return out;
    }
}
