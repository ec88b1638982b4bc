package sockbench.client.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import sockbench.client.engine.ConnectProgress;
import sockbench.client.engine.Engine;
import sockbench.client.engine.PointCounters;
import sockbench.client.engine.PointSchedule;
import sockbench.client.output.Progress;
import sockbench.client.sampling.ProcessSampler;
import sockbench.client.stats.LatencySummary;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.PointResult;
import sockbench.client.stats.PointRules;
import sockbench.client.stats.PointState;
import sockbench.client.stats.SaturationPoint;

/**
 * The controller: for each concurrency level, open N connections, then ramp the target rate
 * point by point until a point is overloaded (or the next rate would exceed the maximum),
 * then close them and go to the next level.
 *
 * <p>A point: warm-up (not recorded), measured window, then a drain that waits until every
 * copy of the window's messages has arrived or the overload timeout has passed since the
 * window ended, then the rest of the settle pause.
 */
public final class Sweep {

    private final Engine engine;
    private final SweepSettings settings;
    private final ProcessSampler server; // null without --server-pid
    private final Progress progress;
    private final List<String> warnings;
    private final Consumer<List<LevelResult>> onLevelDone;
    private final List<LevelResult> levels = new ArrayList<>();
    private volatile boolean abortRequested;
    private long pointIndex;
    /** Connections open when the previous point started (minus those it lost). */
    private int openAtLastPoint;
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /**
     * @param server      samples the server process (null when no pid was given)
     * @param warnings    receives every warning the sweep finds (shared with the run summary)
     * @param onLevelDone called with all levels so far after each level (the writer saves partial results)
     */
    public Sweep(Engine engine, SweepSettings settings, ProcessSampler server, Progress progress,
                 List<String> warnings, Consumer<List<LevelResult>> onLevelDone) {
        this.engine = engine;
        this.settings = settings;
        this.server = server;
        this.progress = progress;
        this.warnings = warnings;
        this.onLevelDone = onLevelDone;
    }

    /** Asks the sweep to stop after the current point (e.g. on Ctrl-C); the level ends "aborted". */
    public void abort() {
        abortRequested = true;
    }

    public List<LevelResult> run() throws InterruptedException {
        progress.sweepStarted(settings.plan());
        for (int n : settings.plan().levels()) {
            if (abortRequested) {
                break;
            }
            levels.add(runLevel(n));
            onLevelDone.accept(List.copyOf(levels));
        }
        return List.copyOf(levels);
    }

    private LevelResult runLevel(int n) throws InterruptedException {
        long t0 = System.nanoTime();
        long perConnNs = (long) (settings.connectTimeoutS() * 1e9);
        // Openings are throttled, so the whole level may take longer than one timeout; bound it anyway.
        ConnectProgress cp = engine.open(n, perConnNs + TimeUnit.SECONDS.toNanos(5) + n * 2_000_000L);
        double connectS = (System.nanoTime() - t0) / 1e9;
        progress.levelConnected(n, cp.connected(), cp.failed(), connectS);
        if (cp.failed() > 0) {
            warnings.add(String.format("level %d: %d of %d connections failed to open (first error: %s)",
                    n, cp.failed(), n, cp.firstError()));
        }
        List<PointResult> points = new ArrayList<>();
        String endReason;
        if (cp.connected() == 0) {
            endReason = "connect_failed";
        } else {
            endReason = "max_rate";
            double rate = settings.plan().startRate();
            openAtLastPoint = cp.connected();
            while (true) {
                PointResult p = runPoint(n, rate);
                points.add(p);
                progress.point(n, p, settings.plan());
                if (p.state() == PointState.OVERLOADED) {
                    endReason = "overloaded";
                    break;
                }
                if (abortRequested) {
                    endReason = "aborted";
                    warnings.add("level " + n + ": aborted by the user after " + points.size() + " points");
                    break;
                }
                double next = settings.plan().nextRate(rate, n);
                if (next > settings.plan().maxRate() * (1 + 1e-9)) {
                    break;
                }
                rate = next;
            }
        }
        engine.closeAll(1000);
        sleepNs((long) (settings.plan().settleS() * 1e9));
        SaturationPoint sat = SaturationPoint.of(points);
        progress.levelDone(n, sat, endReason);
        return new LevelResult(n, cp.connected(), cp.failed(), connectS, points, sat, endReason);
    }

    private PointResult runPoint(int n, double rate) throws InterruptedException {
        var plan = settings.plan();
        var t = settings.thresholds();
        long index = pointIndex++;
        // Connections that closed between points (e.g. during the last settle) were lost on this
        // point's watch as far as the reader is concerned: count them here, or they would vanish.
        int openNow = engine.openConnections();
        long lostBetweenPoints = Math.max(0, openAtLastPoint - openNow);
        openAtLastPoint = openNow;
        long startNs = System.nanoTime() + 20_000_000; // time for every I/O thread to receive the schedule
        PointSchedule s = engine.start(clients ->
                PointSchedule.of(rate, clients, startNs, plan.warmupS(), plan.stepS(), index, settings.payloadBytes()));
        int connected = openNow;

        sleepUntil(s.windowStartNs());
        long cpu0 = os.getProcessCpuTime();
        long wall0 = System.nanoTime();
        ProcessSampler.Sample srv0 = server == null ? null : server.latest();
        sleepUntil(s.windowEndNs());
        long cpu1 = os.getProcessCpuTime();
        long wall1 = System.nanoTime();
        ProcessSampler.Sample srv1 = server == null ? null : server.latest();

        // Drain: wait for every copy of the window's messages, at most the overload timeout.
        long deadline = s.windowEndNs() + (long) (t.overloadTimeoutMs() * 1e6);
        while (System.nanoTime() < deadline) {
            PointCounters c = engine.poll();
            if (c.arrivedMeasured >= c.sent * connected || c.connectionsLost > 0) {
                break;
            }
            Thread.sleep(10);
        }
        PointCounters c = engine.finish();
        c.connectionsLost += lostBetweenPoints;
        openAtLastPoint = Math.max(0, openAtLastPoint - (int) (c.connectionsLost - lostBetweenPoints));

        double duration = s.windowS();
        long expected = c.sent * connected;
        long lost = Math.max(0, expected - c.arrivedMeasured);
        LatencySummary rtt = LatencySummary.of(c.rttCorrectedMicros);
        LatencySummary rttUncorrected = LatencySummary.of(c.rttUncorrectedMicros);
        double clientCpu = cpu0 < 0 || cpu1 < 0 ? 0 : 100.0 * (cpu1 - cpu0) / Math.max(1, wall1 - wall0);
        Double serverCpu = ProcessSampler.cpuPercent(srv0, srv1);
        Long serverRss = srv1 == null ? null : srv1.rssBytes();
        double sentPerS = c.sent / duration;
        PointState state = PointRules.classify(rtt, rttUncorrected.max(), lost, c.connectionsLost, t);
        // Messages whose connection had closed could not be sent by any client: judge the
        // client's schedule-keeping on the rest (the lost connection already makes the point overloaded).
        double keepableRate = rate * (1.0 - (double) c.skippedClosed / Math.max(1, s.measureCount()));
        List<String> reasons = PointRules.clientBoundReasons(keepableRate, sentPerS, clientCpu, settings.clientCores(), t);
        if (c.malformed > 0) {
            warnings.add(String.format("level %d, rate %.1f/s: %d messages or frames could not be parsed",
                    n, rate, c.malformed));
        }
        if (c.outOfOrder > 0) {
            warnings.add(String.format("level %d, rate %.1f/s: %d own copies came back out of send order",
                    n, rate, c.outOfOrder));
        }
        if (c.reads > 0) {
            progress.diagnostics(c.receivedAll / (double) c.reads);
        }
        sleepUntil(s.windowEndNs() + (long) (plan.settleS() * 1e9));
        return new PointResult(rate, duration, c.sent, sentPerS, c.receivedInWindow, c.receivedInWindow / duration,
                expected, lost, c.connectionsLost, rtt, rttUncorrected, clientCpu, serverCpu, serverRss,
                state, reasons, c.outOfOrder);
    }

    private static void sleepUntil(long deadlineNs) throws InterruptedException {
        sleepNs(deadlineNs - System.nanoTime());
    }

    private static void sleepNs(long ns) throws InterruptedException {
        if (ns > 0) {
            TimeUnit.NANOSECONDS.sleep(ns);
        }
    }
}
