package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import sockbench.client.fleet.CountersCodec;
import sockbench.client.stats.MessagesPerFrame;
import sockbench.client.sweep.AgentSample;
import sockbench.client.sweep.PointMeasurement;

/**
 * Messages per frame in a fleet: each agent counts its own connections' frames, sends its
 * counters over the bus ({@link CountersCodec}), and the coordinator merges them
 * ({@link PointMeasurement#merge}). The merged point must say exactly what one process holding
 * every connection would have said: the histograms travel and add value by value, never as means.
 */
class FrameCountsAcrossAgentsTest {

    private static final long ORIGIN = 1_000_000_000L;
    private static final PointSchedule POINT = PointSchedule.countOnly(40, ORIGIN + 1_000_000_000L,
            ORIGIN + 3_000_000_000L, 1);
    private static final long IN_WINDOW = ORIGIN + 2_000_000_000L;

    /** Frame sizes per connection: agent A's connections see small frames, agent B's big ones (some above the exact tally). */
    private static int[][] frames(Random rnd, int connections, int maxMessages) {
        int[][] out = new int[connections][];
        for (int i = 0; i < connections; i++) {
            out[i] = new int[1 + rnd.nextInt(30)];
            for (int k = 0; k < out[i].length; k++) {
                out[i][k] = 1 + rnd.nextInt(maxMessages);
            }
        }
        return out;
    }

    /** Counters of one process that received these frames on its connections, as an I/O thread ends a point. */
    private static PointCounters received(int[][]... shares) {
        ReceiveAccounting ra = new ReceiveAccounting(ORIGIN);
        ra.start(POINT);
        int id = 0;
        for (int[][] share : shares) {
            for (int[] frameSizes : share) {
                Connection c = new WsConnection(null, Transport.SOCKJS, id++, null, false);
                ra.beforeRead(1000, IN_WINDOW);
                for (int m : frameSizes) {
                    ra.frame(c, m);
                }
                ra.afterRead();
            }
        }
        return ra.completedCounters().copy(true);
    }

    private static AgentSample agent(String name, PointCounters c) {
        return new AgentSample(name, "host", c, 20, 10, List.of(1), null, 100);
    }

    @Test
    void twoAgentsMergedOverTheBusEqualOneAgentHoldingBoth() {
        Random rnd = new Random(7);
        int[][] a = frames(rnd, 20, 5);
        int[][] b = frames(rnd, 20, 400);

        PointCounters aOnTheBus = CountersCodec.decode(CountersCodec.encode(received(a)));
        PointCounters bOnTheBus = CountersCodec.decode(CountersCodec.encode(received(b)));
        PointMeasurement fleet = PointMeasurement.merge(List.of(agent("a", aOnTheBus), agent("b", bOnTheBus)), 200, 2,
                null);
        MessagesPerFrame merged = fleet.total().messagesPerFrame();
        MessagesPerFrame single = received(a, b).messagesPerFrame();

        assertNotNull(single);
        assertEquals(single, merged);
        assertEquals(single.frames(), received(a).messagesPerFrame().frames() + received(b).messagesPerFrame().frames());
        // The two agents' distributions differ, so a mean of their summaries would not do.
        assertEquals(received(a).messagesPerFrame().perConnectionMin(), merged.perConnectionMin());
        assertEquals(received(b).messagesPerFrame().perConnectionMax(), merged.perConnectionMax());
    }

    @Test
    void theCodecCarriesTheFrameHistogramsUnchanged() {
        PointCounters c = received(frames(new Random(3), 10, 300));
        PointCounters back = CountersCodec.decode(CountersCodec.encode(c));
        assertEquals(c.messagesPerFrame, back.messagesPerFrame);
        assertEquals(c.connectionMeanHundredths, back.connectionMeanHundredths);
        assertEquals(c.messagesPerFrame(), back.messagesPerFrame());
    }
}
