package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.sockjs.SockJsByteHandler;
import sockbench.client.sockjs.SockJsByteScanner;
import sockbench.client.stats.CompletionSummary;
import sockbench.client.stats.LatencySummary;

/**
 * On an all-copies point every copy of a measured message is timed from its due time in the
 * receiver's schedule (not only the sender's own copy), and each message keeps its copy count and
 * slowest copy, so its completion is the last arrival minus its due time. Fed real SockJS
 * {@code a[...]} frames through the byte scanner, as the I/O loop does.
 */
class AllCopiesAccountingTest {

    private static final long ORIGIN = 1_000_000_000L;
    /** Point 1 of 3 clients at 1000 msgs/s: warm-up seq 0..499 (epoch 2), measured seq 500..2499 (epoch 3). */
    private static final PointSchedule POINT =
            PointSchedule.of(1000, 3, ORIGIN + 500_000_000L, 0.5, 2, 1, 64).withAllCopies(true);
    private static final long MS = 1_000_000;

    /** A payload whose scheduled field is deliberately wrong: the receiver must time from its schedule. */
    private static String payload(int client, long seq) {
        StringBuilder b = new StringBuilder();
        Payload.append(b, 3, client, seq, 1, 2, 64);
        return b.toString();
    }

    /** One read on {@code c} at {@code arrivalNs} holding one SockJS frame with {@code payloads}. */
    private static void frame(ReceiveAccounting ra, Connection c, long arrivalNs, String... payloads) {
        StringBuilder f = new StringBuilder("a[");
        for (int i = 0; i < payloads.length; i++) {
            f.append(i == 0 ? "" : ",").append('"').append(payloads[i]).append('"');
        }
        f.append(']');
        byte[] b = (f + "                ").getBytes(StandardCharsets.US_ASCII); // the read buffer's slack
        int end = f.length();
        ra.beforeRead(end, arrivalNs);
        SockJsByteScanner.scan(b, 0, end, new SockJsByteHandler() {
            @Override
            public void onOpen() {
            }

            @Override
            public void onHeartbeat() {
            }

            @Override
            public void onMessage(byte[] buf, int start, int stop) {
                ra.message(c, buf, start, stop);
            }

            @Override
            public void onClose(int code, String reason) {
            }
        });
        ra.afterRead();
    }

    private static Connection connection(int clientId) {
        return new WsConnection(null, Transport.SOCKJS, clientId, null, false);
    }

    @Test
    void everyCopyIsTimedFromItsDueTimeAndCompletionIsTheLastArrival() {
        ReceiveAccounting ra = new ReceiveAccounting(ORIGIN);
        ra.start(POINT);
        long due500 = POINT.dueNs(500);
        long due501 = POINT.dueNs(501);
        // Message 500 (client 2's) reaches clients 0, 1 and 2 after 1, 2 and 7 ms; message 501
        // (client 0's) reaches clients 0 and 1 only. Client 1's frame carries both.
        frame(ra, connection(0), due501 + 3 * MS, payload(2, 500), payload(0, 501));
        frame(ra, connection(1), due501 + 4 * MS, payload(2, 500), payload(0, 501));
        frame(ra, connection(2), due500 + 7 * MS, payload(2, 500));
        PointCounters k = ra.completedCounters();

        assertEquals(5, k.fanoutMicros.getTotalCount(), "every copy, own ones included");
        assertEquals(2, k.rttCorrectedMicros.getTotalCount(), "the own copies (client 0 of 501, client 2 of 500) are still RTT samples");
        assertEquals(0, k.get(Count.MALFORMED));
        assertEquals(7_000, k.fanoutMicros.getMaxValue(), 10);
        CopyCompletion done = k.completion();
        assertEquals(2000, done.length(), "one slot per measured message");
        assertEquals(3, done.copies(0));
        assertEquals((due500 + 7 * MS - due500) / 1000, done.slowestMicros(0), "completion = last arrival - due");
        assertEquals(2, done.copies(1));
        assertEquals(4_000, done.slowestMicros(1));
        assertEquals(0, done.copies(2));

        CompletionSummary s = CompletionSummary.of(done.copiesArray(), done.slowestMicrosArray(), 3, 2);
        assertEquals(1, s.count(), "only message 500 reached all three sessions");
        assertEquals(1, s.incomplete());
        assertEquals(7.0, s.max(), 0.01);
    }

    @Test
    void theSlowReadersAccountingTimesEveryCopyOfAnyEpochFromItsPayloadAndTracksNoCompletion() {
        // SlowReaders: how old what they read was, on points that time only own copies too, even
        // copies of the warm-up or an earlier point (a reader that far behind reads those); and
        // never completion, so a slow session's copy makes no message "complete" for the others.
        PointSchedule ownOnly = PointSchedule.of(1000, 3, ORIGIN + 500_000_000L, 0.5, 2, 1, 64);
        ReceiveAccounting slow = new ReceiveAccounting(ORIGIN, true);
        slow.start(ownOnly);
        long arrival = ownOnly.dueNs(500) + 900 * MS;
        StringBuilder measured = new StringBuilder();
        Payload.append(measured, 3, 2, 500, ownOnly.dueNs(500) - ORIGIN, ownOnly.dueNs(500) - ORIGIN, 64);
        StringBuilder previousPoint = new StringBuilder();
        Payload.append(previousPoint, 1, 1, 7, arrival - 1500 * MS - ORIGIN, arrival - 1500 * MS - ORIGIN, 64);
        frame(slow, connection(0), arrival, measured.toString(), previousPoint.toString());
        PointCounters k = slow.completedCounters();
        assertEquals(2, k.fanoutMicros.getTotalCount(), "both copies timed, whatever their epoch");
        assertEquals(900_000, k.fanoutMicros.getMinValue(), 1000);
        assertEquals(1_500_000, k.fanoutMicros.getMaxValue(), 2000);
        assertEquals(1, k.get(Count.ARRIVED_MEASURED), "only the measured epoch's copy counts as arrived");
        assertEquals(2, k.get(Count.RECEIVED_ALL));
        assertNull(k.completion());
        slow.start(POINT); // an all-copies point: still no completion arrays of its own
        assertNull(slow.completedCounters().completion());

        ReceiveAccounting healthy = new ReceiveAccounting(ORIGIN);
        healthy.start(ownOnly);
        frame(healthy, connection(0), ownOnly.dueNs(500) + MS, payload(2, 500));
        assertEquals(0, healthy.completedCounters().fanoutMicros.getTotalCount(), "others' copies untimed as before");
    }

    @Test
    void aSlowReaderLostBetweenPointsIsTheNextPointsAndANewLevelForgetsIt() {
        PointSchedule ownOnly = PointSchedule.of(1000, 3, ORIGIN + 500_000_000L, 0.5, 2, 1, 64);
        ReceiveAccounting slow = new ReceiveAccounting(ORIGIN, true);
        slow.start(ownOnly);
        slow.connectionLost("read: Connection reset by peer");
        assertEquals(1, slow.completedCounters().get(Count.CONNECTIONS_LOST));
        slow.stop();
        slow.connectionLost("server closed the TCP connection"); // seen during the settle
        slow.start(ownOnly);
        PointCounters next = slow.completedCounters();
        assertEquals(1, next.get(Count.CONNECTIONS_LOST));
        assertEquals(java.util.Map.of("EOF", 1), next.lostReasons);
        slow.stop();
        slow.connectionLost("server closed the TCP connection");
        slow.newLevel();
        slow.start(ownOnly);
        assertEquals(0, slow.completedCounters().get(Count.CONNECTIONS_LOST));

        ReceiveAccounting healthy = new ReceiveAccounting(ORIGIN); // the sweep counts theirs by open count
        healthy.connectionLost("server closed the TCP connection");
        healthy.start(ownOnly);
        assertEquals(0, healthy.completedCounters().get(Count.CONNECTIONS_LOST));
    }

    @Test
    void copiesAreSplitIntoTheHalvesOfTheWindowByDueTime() {
        ReceiveAccounting ra = new ReceiveAccounting(ORIGIN);
        ra.start(POINT);
        // seq 500 is due at the window's start, seq 2400 in its second half.
        frame(ra, connection(1), POINT.dueNs(500) + 2 * MS, payload(2, 500));
        frame(ra, connection(1), POINT.dueNs(2400) + 10 * MS, payload(0, 2400));
        PointCounters k = ra.completedCounters();
        assertEquals(2.0, k.fanoutFirstHalfMeanMs(), 0.01);
        assertEquals(10.0, k.fanoutSecondHalfMeanMs(), 0.01);
    }

    @Test
    void twoIoThreadsMergeCopiesSummedAndTheSlowestCopyKept() {
        ReceiveAccounting a = new ReceiveAccounting(ORIGIN);
        ReceiveAccounting b = new ReceiveAccounting(ORIGIN);
        a.start(POINT);
        b.start(POINT);
        frame(a, connection(0), POINT.dueNs(700) + 5 * MS, payload(1, 700));
        frame(b, connection(1), POINT.dueNs(700) + 9 * MS, payload(1, 700));
        frame(b, connection(2), POINT.dueNs(700) + 3 * MS, payload(1, 700));
        PointCounters total = new PointCounters();
        total.add(a.completedCounters().copy(true));
        total.add(b.completedCounters().copy(true));
        assertEquals(3, total.fanoutMicros.getTotalCount());
        assertEquals(3, total.completion().copies(200));
        assertEquals(9_000, total.completion().slowestMicros(200));
        assertEquals(9.0, LatencySummary.of(total.fanoutMicros).max(), 0.01);
    }

    @Test
    void aPointWithoutAllCopiesTimesOnlyTheOwnCopy() {
        ReceiveAccounting ra = new ReceiveAccounting(ORIGIN);
        ra.start(POINT.withAllCopies(false));
        frame(ra, connection(0), POINT.dueNs(501) + 3 * MS, payload(2, 500), payload(0, 501));
        PointCounters k = ra.completedCounters();
        assertEquals(2, k.get(Count.ARRIVED_MEASURED));
        assertEquals(1, k.rttCorrectedMicros.getTotalCount());
        assertEquals(0, k.fanoutMicros.getTotalCount());
        assertNull(k.completion());
    }

    @Test
    void theCompletionArraysAreBoundedAndReusedAcrossPoints() {
        CopyCompletion big = CopyCompletion.forMessages(10_000_000, null);
        assertEquals(CopyCompletion.MAX_TRACKED_MESSAGES, big.length());
        CopyCompletion small = CopyCompletion.forMessages(100, big);
        assertTrue(small == big, "a large enough array is reused, not reallocated");
        assertEquals(100, small.length());
    }

    @Test
    void theSeqFieldParsesWithAndWithoutTheWordPath() {
        byte[] roomy = "123456:9:xxxxxxxxxxxxxxxx".getBytes(StandardCharsets.US_ASCII);
        assertEquals(123456, Payload.parseSeq(roomy, 0, roomy.length));
        byte[] tight = "12:9".getBytes(StandardCharsets.US_ASCII); // fewer than 8 bytes left
        assertEquals(12, Payload.parseSeq(tight, 0, tight.length));
        byte[] bad = "1x:9:xxxxxxxxxxxx".getBytes(StandardCharsets.US_ASCII);
        assertEquals(-1, Payload.parseSeq(bad, 0, bad.length));
        assertEquals(-1, Payload.parseSeq(roomy, 0, 6), "the colon must lie before the payload's end");
    }
}
