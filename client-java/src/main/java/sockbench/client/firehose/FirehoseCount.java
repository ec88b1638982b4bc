package sockbench.client.firehose;

import java.lang.management.ManagementFactory;
import sockbench.client.engine.ConnectProgress;
import sockbench.client.engine.Engine;
import sockbench.client.engine.PointCounters;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.engine.PointSchedule;
import sockbench.client.sampling.ProcFiles;

/**
 * The client half of the firehose self-test: opens N framed SockJS connections with the real
 * engine and counts every message that arrives during a window, through the real receive path
 * (read, WebSocket decode, SockJS parse, payload header parse).
 */
public final class FirehoseCount {

    /**
     * One measurement.
     *
     * @param connections     connections requested
     * @param connected       connections open
     * @param received        messages counted in the window
     * @param windowS         window length, seconds
     * @param clientCpuPct    client process CPU over the window, percent of one core
     * @param clientRssBytes  client resident set size at the end of the window, bytes
     * @param malformed       messages the client could not parse (should be 0)
     * @param bytesPerMessage socket bytes read per message counted, over the whole measurement (a cross-check
     *                        of the count: it must equal the wire size of one message)
     * @param bytesPerRead    socket bytes per read syscall that returned data, over the whole measurement
     * @param senderCpuPct    the sender process's CPU over the window, percent of one core (from
     *                        {@code /proc/PID/stat}, 1 % resolution per 1 s of window); NaN when not known
     */
    public record Result(int connections, int connected, long received, double windowS, double clientCpuPct,
                         long clientRssBytes, long malformed, double bytesPerMessage, double bytesPerRead,
                         double senderCpuPct) {
        public double receivedPerS() {
            return received / windowS;
        }
    }

    private FirehoseCount() {
    }

    /**
     * The payload epoch the sender writes and the count attributes: the copies take the same path
     * through the receive accounting as other clients' copies of a measured message in a real run.
     */
    public static final long EPOCH = 1;

    /**
     * @param settleS   seconds to let the stream reach steady state before the window opens
     * @param windowS   counting window, seconds
     * @param senderPid the sender's process id, for its CPU over the window; -1 when it is not a
     *                  separate process (its CPU is then reported as NaN)
     */
    public static Result measure(Engine engine, int connections, double settleS, double windowS, long senderPid)
            throws Exception {
        ConnectProgress cp = engine.open(connections, 60_000_000_000L);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long start = System.nanoTime() + (long) (settleS * 1e9);
        long end = start + (long) (windowS * 1e9);
        engine.start(clients -> PointSchedule.countOnly(clients, start, end, EPOCH));
        sleepUntil(start);
        long cpu0 = os.getProcessCpuTime();
        long senderTicks0 = senderTicks(senderPid);
        long wall0 = System.nanoTime();
        sleepUntil(end);
        long cpu1 = os.getProcessCpuTime();
        long senderTicks1 = senderTicks(senderPid);
        long wall1 = System.nanoTime();
        long rss = ProcFiles.rssBytes("self");
        Thread.sleep(50); // let the I/O threads finish the reads that began inside the window
        PointCounters c = engine.finish();
        engine.closeAll(500);
        long all = c.get(Count.RECEIVED_ALL);
        long reads = c.get(Count.READS);
        double senderCpu = senderTicks0 < 0 || senderTicks1 < 0 ? Double.NaN
                : 100.0 * (senderTicks1 - senderTicks0) / ProcFiles.CLOCK_TICKS_PER_S / ((wall1 - wall0) / 1e9);
        return new Result(connections, cp.connected(), c.get(Count.RECEIVED_IN_WINDOW), (end - start) / 1e9,
                100.0 * (cpu1 - cpu0) / (wall1 - wall0), rss, c.get(Count.MALFORMED),
                all == 0 ? 0 : (double) c.get(Count.BYTES_READ) / all,
                reads == 0 ? 0 : (double) c.get(Count.BYTES_READ) / reads, senderCpu);
    }

    /** CPU ticks of the sender so far, -1 if unknown. */
    private static long senderTicks(long pid) {
        if (pid < 0) {
            return -1;
        }
        try {
            return ProcFiles.cpuTicks(Long.toString(pid));
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    private static void sleepUntil(long ns) throws InterruptedException {
        long d = ns - System.nanoTime();
        if (d > 0) {
            Thread.sleep(d / 1_000_000, (int) (d % 1_000_000));
        }
    }
}
