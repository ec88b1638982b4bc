package sockbench.client.sweep;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import java.util.function.ToLongFunction;
import sockbench.client.engine.ConnectProgress;
import sockbench.client.engine.Engine;
import sockbench.client.engine.PointCounters;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.engine.PointSchedule;
import sockbench.client.sampling.StealMeter;

/**
 * This process holds the connections ({@link Engine}) and measures each point itself: the one
 * process of a plain run, and the worker inside every agent of a fleet
 * ({@link #measureShare}).
 */
public final class LocalLoadEngine implements LoadEngine {

    private final Engine engine;
    private final String agentId;
    private final String host;
    private final List<Integer> cpus;
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /**
     * @param agentId id recorded for this process ({@code host:pid})
     * @param cpus    CPUs this process may use, at least one (the client-bound CPU rule's cores)
     */
    public LocalLoadEngine(Engine engine, String agentId, String host, List<Integer> cpus) {
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("cpus must not be empty");
        }
        this.engine = engine;
        this.agentId = agentId;
        this.host = host;
        this.cpus = List.copyOf(cpus);
    }

    /** This process as the one holder of the connections: its host name, {@code host:pid}, its allowed CPUs. */
    public static LocalLoadEngine forThisProcess(Engine engine) {
        String host = sockbench.client.sampling.MachineInfo.read().hostname();
        List<Integer> cpus = sockbench.client.sampling.ProcFiles.allowedCpus("self");
        if (cpus.isEmpty()) {
            cpus = java.util.stream.IntStream.range(0, Runtime.getRuntime().availableProcessors()).boxed().toList();
        }
        return new LocalLoadEngine(engine, host + ":" + ProcessHandle.current().pid(), host, cpus);
    }

    public Engine engine() {
        return engine;
    }

    @Override
    public ConnectProgress open(int n, long overallTimeoutNs) throws InterruptedException {
        return engine.open(n, overallTimeoutNs);
    }

    @Override
    public ConnectProgress open(int n, long overallTimeoutNs, double connectRatePerS) throws InterruptedException {
        return engine.open(java.util.stream.IntStream.range(0, n).boxed().toList(), overallTimeoutNs, connectRatePerS);
    }

    /** Opens the connections with these client ids (an agent's share of a level), at most {@code connectRatePerS} a second (0 = unpaced). */
    public ConnectProgress open(List<Integer> clientIds, long overallTimeoutNs, double connectRatePerS)
            throws InterruptedException {
        return engine.open(clientIds, overallTimeoutNs, connectRatePerS);
    }

    @Override
    public IdleSample idleSample() {
        return new IdleSample(engine.heartbeats(), engine.openConnections(), selfRssBytes(), engine.lostReasons());
    }

    /** This process's resident set size, bytes; null when /proc cannot be read. */
    public static Long selfRssBytes() {
        try {
            return sockbench.client.sampling.ProcFiles.rssBytes("self");
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /** The level's open sessions that take part in points (a churn pool's are not counted). */
    @Override
    public int openConnections() {
        return engine.steadyOpenConnections();
    }

    @Override
    public java.util.Map<String, Integer> openByTransport() {
        return engine.steadyOpenByTransport();
    }

    @Override
    public void closeAll(long graceMs) throws InterruptedException {
        engine.closeAll(graceMs);
    }

    @Override
    public PointMeasurement measure(PointRequest r, WindowListener window) throws InterruptedException {
        int connected = r.connected();
        AgentSample s = measureShare(r, r.startNs(), connected, IntUnaryOperator.identity(), window,
                c -> c.get(Count.SENT));
        return PointMeasurement.merge(List.of(s), s.measureCount(), windowS(r), null);
    }

    /** The window length the schedule of {@code r} gives, seconds. */
    static double windowS(PointRequest r) {
        return PointSchedule.of(r.rate(), 1, 0, r.warmupS(), r.stepS(), r.index(), r.payloadBytes()).windowS();
    }

    /**
     * Runs this process's share of a point.
     *
     * @param localStartNs    due time of message 0 on this process's clock
     * @param scheduleClients N of the schedule: connections open in the whole fleet
     * @param slotOfRank      schedule slot of this process's k-th open connection (client-id order)
     * @param totalSentOf     messages the whole fleet sent in the window, given this process's counts
     *                        after the window; negative while not known yet (the drain waits for
     *                        {@code total × own connections} copies)
     */
    public AgentSample measureShare(PointRequest r, long localStartNs, int scheduleClients, IntUnaryOperator slotOfRank,
                                    WindowListener window, ToLongFunction<PointCounters> totalSentOf)
            throws InterruptedException {
        int connected = engine.steadyOpenConnections();
        PointSchedule s = engine.start(clients -> PointSchedule.of(r.rate(), Math.max(1, scheduleClients), localStartNs,
                r.warmupS(), r.stepS(), r.index(), r.payloadBytes()).withAllCopies(r.allCopies()), slotOfRank);
        long mine = measuredMessagesOf(s, connected, slotOfRank);

        sleepUntil(s.windowStartNs());
        long cpu0 = os.getProcessCpuTime();
        long wall0 = System.nanoTime();
        StealMeter.Times steal0 = StealMeter.read();
        window.windowStarted();
        sleepUntil(s.windowEndNs());
        long cpu1 = os.getProcessCpuTime();
        long wall1 = System.nanoTime();
        StealMeter.Times steal1 = StealMeter.read();
        window.windowEnded();

        // Drain: wait for every copy of the window's messages, at most the overload timeout.
        long deadline = s.windowEndNs() + (long) (r.overloadTimeoutMs() * 1e6);
        while (System.nanoTime() < deadline) {
            PointCounters c = engine.poll();
            long total = totalSentOf.applyAsLong(c);
            if (c.get(Count.CONNECTIONS_LOST) > 0
                    || (total >= 0 && c.get(Count.ARRIVED_MEASURED) >= total * connected)) {
                break;
            }
            Thread.sleep(10);
        }
        PointCounters c = engine.finish();
        double cpu = cpu0 < 0 || cpu1 < 0 ? 0 : 100.0 * (cpu1 - cpu0) / Math.max(1, wall1 - wall0);
        return new AgentSample(agentId, host, c, connected, cpu, cpus, StealMeter.percent(steal0, steal1), mine);
    }

    /** Measured messages of the schedule whose slot is one of this process's connections. */
    static long measuredMessagesOf(PointSchedule s, int connected, IntUnaryOperator slotOfRank) {
        long from = s.warmupCount();
        long to = from + s.measureCount();
        int n = s.clients();
        long count = 0;
        for (int rank = 0; rank < connected; rank++) {
            int slot = slotOfRank.applyAsInt(rank);
            count += countCongruent(to, slot, n) - countCongruent(from, slot, n);
        }
        return count;
    }

    /** How many m in [0, end) have m mod n == slot. */
    private static long countCongruent(long end, int slot, int n) {
        return end <= slot ? 0 : (end - slot + n - 1) / n;
    }

    private static void sleepUntil(long deadlineNs) throws InterruptedException {
        long ns = deadlineNs - System.nanoTime();
        if (ns > 0) {
            TimeUnit.NANOSECONDS.sleep(ns);
        }
    }

    /** 20 ms: time for every I/O thread to receive the schedule. */
    @Override
    public long startLeadNs() {
        return 20_000_000;
    }

    @Override
    public String agentsStatus() {
        return "";
    }

    @Override
    public void close() {
        engine.close();
    }
}
