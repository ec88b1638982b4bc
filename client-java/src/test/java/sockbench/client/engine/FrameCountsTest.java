package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.stats.MessagesPerFrame;

/**
 * Messages per frame as one I/O thread's receive accounting counts them: the distribution over
 * frames, each connection's own mean, only frames whose read arrived inside the window, and every
 * point counted from zero.
 */
class FrameCountsTest {

    private static final long ORIGIN = 1_000_000_000L;
    private static final long S = 1_000_000_000L;
    /** The window runs from ORIGIN + 1 s to ORIGIN + 3 s. */
    private static final PointSchedule POINT = PointSchedule.countOnly(3, ORIGIN + S, ORIGIN + 3 * S, 1);
    private static final PointSchedule NEXT_POINT = PointSchedule.countOnly(3, ORIGIN + 5 * S, ORIGIN + 7 * S, 2);
    private static final long IN_WINDOW = ORIGIN + 2 * S;

    private static Connection connection(int clientId) {
        // the accounting only keeps counts on the connection; its events are never called here
        return new WsConnection(null, Transport.SOCKJS, clientId, null, false);
    }

    /** One socket read at {@code now} that carried frames of these sizes for {@code c}. */
    private static void read(ReceiveAccounting ra, Connection c, long now, int... messagesPerFrame) {
        ra.beforeRead(100, now);
        for (int m : messagesPerFrame) {
            ra.frame(c, m);
        }
        ra.afterRead();
    }

    private static ReceiveAccounting startedOn(PointSchedule s) {
        ReceiveAccounting ra = new ReceiveAccounting(ORIGIN);
        ra.start(s);
        return ra;
    }

    @Test
    void framesOfOneThreeAndManyMessagesGiveTheirDistributionAndEachConnectionsMean() {
        ReceiveAccounting ra = startedOn(POINT);
        Connection naive = connection(0);
        Connection threes = connection(1);
        Connection mixed = connection(2);
        read(ra, naive, IN_WINDOW, 1, 1, 1, 1);
        read(ra, threes, IN_WINDOW, 3, 3, 3);
        // 200 is above the exact tally's range: it goes into the histogram directly
        read(ra, mixed, IN_WINDOW, 1, 3, 200);

        PointCounters c = ra.completedCounters();
        assertEquals(10, c.get(Count.FRAMES_IN_WINDOW));
        assertEquals(4 + 9 + 204, c.get(Count.FRAME_MESSAGES_IN_WINDOW));
        MessagesPerFrame f = c.messagesPerFrame();
        assertEquals(10, f.frames());
        assertEquals(217, f.messages());
        assertEquals(21.7, f.mean(), 1e-12);
        // sorted: 1 1 1 1 1 3 3 3 3 200 (a percentile is a value some frame had: the 5th of 10 for p50)
        assertEquals(1, f.p50());
        assertEquals(3, f.p90());
        assertEquals(200, f.p99());
        assertEquals(200, f.max());
        assertEquals(1.0, f.perConnectionMin());
        assertEquals(3.0, f.perConnectionP50());
        // (1 + 3 + 200) / 3 = 68: above 20.47 a connection's mean carries the histogram's 3 digits (0.05 %)
        assertEquals(68.0, f.perConnectionMax(), 68.0 * 0.0005);
    }

    @Test
    void connectionsWithTheSameMeanAboveTheExactRangeReadTheSame() {
        // 100 messages per frame = 10,000 hundredths, past the histogram's exact range (2,047)
        ReceiveAccounting ra = startedOn(POINT);
        read(ra, connection(0), IN_WINDOW, 100, 100);
        read(ra, connection(1), IN_WINDOW, 100);
        MessagesPerFrame f = ra.completedCounters().messagesPerFrame();
        assertEquals(100.0, f.perConnectionMin());
        assertEquals(100.0, f.perConnectionP50());
        assertEquals(100.0, f.perConnectionMax());
        assertEquals(100, f.p50());
        assertEquals(100, f.max());
    }

    @Test
    void aConnectionsMeanKeepsTwoDecimals() {
        ReceiveAccounting ra = startedOn(POINT);
        read(ra, connection(0), IN_WINDOW, 1, 1, 2); // 4 / 3
        read(ra, connection(1), IN_WINDOW, 2, 3);    // 5 / 2
        MessagesPerFrame f = ra.completedCounters().messagesPerFrame();
        assertEquals(1.33, f.perConnectionMin());
        assertEquals(2.5, f.perConnectionMax());
        assertEquals(9 / 5.0, f.mean(), 1e-12);
    }

    @Test
    void onlyFramesReadInsideTheWindowCount() {
        ReceiveAccounting ra = startedOn(POINT);
        Connection c = connection(0);
        read(ra, c, POINT.windowStartNs() - 1, 50);  // the warm-up's
        read(ra, c, POINT.windowStartNs(), 2);
        read(ra, c, POINT.windowEndNs() - 1, 4);
        read(ra, c, POINT.windowEndNs(), 70);        // the drain's
        MessagesPerFrame f = ra.completedCounters().messagesPerFrame();
        assertEquals(2, f.frames());
        assertEquals(6, f.messages());
        assertEquals(4, f.max());
        assertEquals(3.0, f.perConnectionMax());
    }

    @Test
    void everyPointCountsFromZeroOnTheSameConnections() {
        ReceiveAccounting ra = startedOn(POINT);
        Connection c = connection(0);
        Connection quietLater = connection(1);
        read(ra, c, IN_WINDOW, 9, 9);
        read(ra, quietLater, IN_WINDOW, 5);
        assertEquals(3, ra.completedCounters().messagesPerFrame().frames());
        ra.stop();

        ra.start(NEXT_POINT);
        read(ra, c, NEXT_POINT.windowStartNs() + 1, 1);
        MessagesPerFrame f = ra.completedCounters().messagesPerFrame();
        assertEquals(1, f.frames());
        assertEquals(1, f.messages());
        assertEquals(1.0, f.perConnectionMin(), "not (9 + 9 + 1) / 3: the last point's frames are gone");
        assertEquals(1.0, f.perConnectionMax(), "a connection without a frame in this window is not a mean of 5");
    }

    @Test
    void noDataFrameNoFigures() {
        ReceiveAccounting ra = startedOn(POINT);
        read(ra, connection(0), POINT.windowStartNs() - 1, 3);
        PointCounters c = ra.completedCounters();
        assertEquals(0, c.get(Count.FRAMES_IN_WINDOW));
        assertNull(c.messagesPerFrame());
    }

    @Test
    void framesBetweenPointsBelongToNone() {
        ReceiveAccounting ra = startedOn(POINT);
        ra.stop();
        read(ra, connection(0), IN_WINDOW, 3);
        assertNull(ra.completedCounters().messagesPerFrame());
    }
}
