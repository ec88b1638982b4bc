package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import sockbench.client.engine.PointCounters.Count;

/**
 * The receive accounting's byte-compare fast path (epoch and client fields matched as packed
 * bytes, counts tallied per read) must count exactly what parsing both fields as numbers counts.
 */
class ReceiveAccountingTest {

    private static final long ORIGIN = 1_000_000_000L;
    /** Point 1: warm-up epoch 2, measured epoch 3; its window runs from ORIGIN + 1 s for 2 s. */
    private static final PointSchedule POINT = PointSchedule.of(1000, 50, ORIGIN + 500_000_000L, 0.5, 2, 1, 64);
    private static final long IN_WINDOW = POINT.windowStartNs() + 1_000_000;

    private static Connection connection(int clientId) {
        // events are not used by the accounting: only the connection's id and ordering state are
        return new WsConnection(null, Transport.SOCKJS, clientId, null, false);
    }

    /** Feeds one read holding {@code payloads} (each at its place in one buffer) to connection {@code c}. */
    private static void read(ReceiveAccounting ra, Connection c, long now, byte[] buf, int[][] ranges) {
        ra.beforeRead(buf.length, now);
        for (int[] r : ranges) {
            ra.message(c, buf, r[0], r[1]);
        }
        ra.afterRead();
    }

    private static void one(ReceiveAccounting ra, Connection c, String payload) {
        byte[] b = (payload + "\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"").getBytes(StandardCharsets.US_ASCII);
        read(ra, c, IN_WINDOW, b, new int[][] {{0, payload.length()}});
    }

    /** A fresh accounting attributing arriving copies to {@code schedule}'s point. */
    private static ReceiveAccounting startedOn(PointSchedule schedule) {
        ReceiveAccounting ra = new ReceiveAccounting(ORIGIN);
        ra.start(schedule);
        return ra;
    }

    /** The counts after {@code payloads} arrive on client 1 inside POINT's window, one read each. */
    private static PointCounters countedOnClient1(String... payloads) {
        ReceiveAccounting ra = startedOn(POINT);
        Connection c = connection(1);
        for (String p : payloads) {
            one(ra, c, p);
        }
        return ra.counters();
    }

    private static String payload(long epoch, int client, long seq) {
        StringBuilder b = new StringBuilder();
        Payload.append(b, epoch, client, seq, 10_000, 20_000, 64);
        return b.toString();
    }

    @Test
    void ownOtherAndWarmUpCopiesCountAsBefore() {
        PointCounters k = countedOnClient1(
                payload(3, 1, 7),    // own copy, measured epoch
                payload(3, 12, 8),   // "12:" starts like "1" but is another client
                payload(3, 0, 9),    // another client
                payload(2, 1, 1),    // own copy of the warm-up: not measured
                payload(31, 1, 1));  // "31:" starts like "3" but is another epoch
        assertEquals(5, k.get(Count.RECEIVED_ALL));
        assertEquals(5, k.get(Count.RECEIVED_IN_WINDOW));
        assertEquals(3, k.get(Count.ARRIVED_MEASURED));
        assertEquals(1, k.get(Count.OWN_RETURNED));
        assertEquals(1, k.rttCorrectedMicros.getTotalCount());
        assertEquals(0, k.get(Count.MALFORMED));
    }

    @Test
    void malformedFieldsAreCountedOnEveryPath() {
        PointCounters k = countedOnClient1(
                "3:1x:5:6:7:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", // another's client field with a letter
                "3::5:6:7:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",  // empty client field
                "3:1:5:zz:7:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",  // own copy, broken time
                "hello",
                "3:");                                              // cut after the epoch
        assertEquals(5, k.get(Count.RECEIVED_ALL));
        assertEquals(5, k.get(Count.MALFORMED));
        assertEquals(1, k.get(Count.ARRIVED_MEASURED), "the own copy with a broken time arrived, as before");
        assertEquals(0, k.get(Count.OWN_RETURNED));
    }

    @Test
    void thePayloadsEndBoundsTheMatchNotTheBuffer() {
        ReceiveAccounting ra = startedOn(POINT);
        Connection c = connection(1);
        byte[] b = "3:1:5:6:7:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx".getBytes(StandardCharsets.US_ASCII);
        // the same bytes, but the message ends after "3", after "3:1" and after "3:1:"
        read(ra, c, IN_WINDOW, b, new int[][] {{0, 1}, {0, 3}, {0, 4}});
        PointCounters k = ra.counters();
        assertEquals(3, k.get(Count.RECEIVED_ALL));
        assertEquals(3, k.get(Count.MALFORMED));
        // "3:1:" has a whole header: an own copy of the measured epoch whose times are missing
        assertEquals(1, k.get(Count.ARRIVED_MEASURED));
        assertEquals(0, k.get(Count.OWN_RETURNED));
    }

    @Test
    void longIdsAndPayloadsAtTheBuffersEndTakeTheParsingPath() {
        PointSchedule bigEpoch = PointSchedule.of(1000, 50, ORIGIN, 0.5, 2, 50_000_000, 64); // epoch 100000001
        ReceiveAccounting ra = startedOn(bigEpoch);
        Connection big = connection(12_345_678); // 8 digits: not packable
        String own = payload(100_000_001, 12_345_678, 1);
        byte[] exact = own.getBytes(StandardCharsets.US_ASCII); // no slack after the payload
        ra.beforeRead(exact.length, bigEpoch.windowStartNs() + 1);
        ra.message(big, exact, 0, exact.length);
        byte[] other = payload(100_000_001, 12_345_679, 2).getBytes(StandardCharsets.US_ASCII);
        ra.message(big, other, 0, other.length);
        ra.afterRead();
        PointCounters k = ra.counters();
        assertEquals(2, k.get(Count.ARRIVED_MEASURED));
        assertEquals(1, k.get(Count.OWN_RETURNED));
    }

    @Test
    void windowCountsFollowEachReadsArrivalTime() {
        ReceiveAccounting ra = startedOn(POINT);
        Connection c = connection(0);
        byte[] b = (payload(3, 4, 1) + "\"" + payload(3, 5, 2) + "\"").getBytes(StandardCharsets.US_ASCII);
        int[][] two = {{0, 64}, {65, 129}};
        read(ra, c, POINT.windowStartNs() - 1, b, two);
        read(ra, c, POINT.windowStartNs(), b, two);
        read(ra, c, POINT.windowEndNs(), b, two);
        PointCounters k = ra.counters();
        assertEquals(6, k.get(Count.RECEIVED_ALL));
        assertEquals(2, k.get(Count.RECEIVED_IN_WINDOW));
        assertEquals(6, k.get(Count.ARRIVED_MEASURED));
        ra.stop();
        read(ra, c, IN_WINDOW, b, two);
        assertEquals(0, ra.counters().get(Count.RECEIVED_ALL), "between points nothing is attributed");
    }

    /**
     * Random payloads and mutations of them, at random places in a buffer of random bytes: the
     * fast path must agree with the reference rule (both fields parsed as numbers; a client
     * field is this client's when it reads exactly as the client writes its id).
     */
    @Test
    void agreesWithParsingBothFieldsOnRandomPayloads() {
        Random rnd = new Random(13);
        byte[] alphabet = "0123456789:x\"\\a ".getBytes(StandardCharsets.US_ASCII);
        for (int round = 0; round < 20_000; round++) {
            int id = rnd.nextInt(4) == 0 ? rnd.nextInt(12) : rnd.nextInt(20_000_000);
            long epoch = rnd.nextInt(3) == 0 ? 3 : rnd.nextInt(3) == 0 ? 2 : rnd.nextInt(200);
            int client = rnd.nextBoolean() ? id : rnd.nextInt(3) == 0 ? rnd.nextInt(12) : rnd.nextInt(20_000_000);
            byte[] p = payload(epoch, client, rnd.nextInt(1000)).getBytes(StandardCharsets.US_ASCII);
            for (int m = rnd.nextInt(3); m > 0; m--) { // mutate up to two bytes of the header
                p[rnd.nextInt(Math.min(p.length, 20))] = alphabet[rnd.nextInt(alphabet.length)];
            }
            int len = rnd.nextInt(4) == 0 ? rnd.nextInt(p.length + 1) : p.length;
            byte[] buf = new byte[len + rnd.nextInt(20) + 1];
            rnd.nextBytes(buf);
            int at = rnd.nextInt(buf.length - len + 1);
            System.arraycopy(p, 0, buf, at, len);

            ReceiveAccounting ra = startedOn(POINT);
            Connection c = connection(id);
            read(ra, c, IN_WINDOW, buf, new int[][] {{at, at + len}});
            PointCounters k = ra.counters();
            long[] want = reference(Arrays.copyOfRange(buf, at, at + len), id);
            String what = "payload '" + new String(buf, at, len, StandardCharsets.ISO_8859_1) + "' for client " + id;
            assertEquals(want[0], k.get(Count.MALFORMED), "malformed: " + what);
            assertEquals(want[1], k.get(Count.ARRIVED_MEASURED), "measured: " + what);
            assertEquals(want[2], k.get(Count.OWN_RETURNED), "own: " + what);
            assertEquals(1, k.get(Count.RECEIVED_ALL));
        }
    }

    /** {malformed, arrived measured, own returned} by parsing the fields as numbers. */
    private static long[] reference(byte[] p, int id) {
        Payload.Fields f = new Payload.Fields();
        int rest = Payload.parseHeader(p, 0, p.length, f);
        if (rest < 0) {
            return new long[] {1, 0, 0};
        }
        if (f.epoch != POINT.measureEpoch()) {
            return new long[] {0, 0, 0};
        }
        int clientStart = indexOf(p, (byte) ':') + 1;
        String clientText = new String(p, clientStart, rest - 1 - clientStart, StandardCharsets.US_ASCII);
        boolean own = clientText.equals(Integer.toString(id));
        if (!own) {
            return new long[] {0, 1, 0};
        }
        return Payload.parseTimes(p, rest, p.length, f) ? new long[] {0, 1, 1} : new long[] {1, 1, 0};
    }

    private static int indexOf(byte[] p, byte x) {
        for (int i = 0; i < p.length; i++) {
            if (p[i] == x) {
                return i;
            }
        }
        return -1;
    }
}
