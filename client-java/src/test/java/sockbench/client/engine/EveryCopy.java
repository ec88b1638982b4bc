package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import sockbench.client.engine.PointCounters.Count;

/**
 * What the integration tests against real servers check of one measured point, whatever the
 * session kind: every broadcast reached every session, each sender got its own copy back, nothing
 * was malformed and no session was lost. Each test adds what its kind records besides.
 */
final class EveryCopy {

    private EveryCopy() {
    }

    /**
     * @param c    the point's counters
     * @param n    sessions that were open through the point (each receives every broadcast)
     * @param what names the case in a failure
     */
    static void arrived(PointCounters c, int n, String what) {
        long sent = c.get(Count.SENT);
        assertTrue(sent > 0, what + ": messages were sent");
        assertEquals(sent * n, c.get(Count.ARRIVED_MEASURED), what + ": every copy of every measured message arrived");
        assertEquals(sent, c.get(Count.OWN_RETURNED), what + ": every sender got its own copy back (an RTT each)");
        assertEquals(0, c.get(Count.MALFORMED), what + ": nothing malformed");
        assertEquals(0, c.get(Count.CONNECTIONS_LOST), what + ": no session lost");
    }
}
