package sockbench.client.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import sockbench.client.engine.ConnectProgress;
import sockbench.client.engine.Engine;
import sockbench.client.engine.PointCounters;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.engine.PointSchedule;
import sockbench.client.output.Progress;
import sockbench.client.sampling.ProcessSampler;
import sockbench.client.sampling.StealMeter;
import sockbench.client.stats.LatencySummary;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.Phase;
import sockbench.client.stats.PointResult;
import sockbench.client.stats.PointRules;
import sockbench.client.stats.PointState;
import sockbench.client.stats.SaturationPoint;

/**
 * The controller: for each concurrency level, open N connections, then measure the points
 * {@link SaturationSearch} asks for (ramp, confirm the first bad point on fresh connections,
 * refine by bisection), then close them and go to the next level.
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
    /** Received/s at the saturation of the last level that had one (the adaptive start's input), or null. */
    private Double lastKneeReceivedPerS;
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
        progress.sweepStarted(settings.plan(), settings.search().refineSteps() + 1);
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
        ConnectProgress cp = open(n);
        double connectS = (System.nanoTime() - t0) / 1e9;
        progress.levelConnected(n, cp.connected(), cp.failed(), connectS);
        List<PointResult> points = new ArrayList<>();
        String endReason;
        double start = new LevelStart(settings.plan(), settings.levelStartRates()).startFor(n, lastKneeReceivedPerS);
        progress.levelStart(n, start, settings.plan().startRate());
        if (cp.connected() == 0) {
            endReason = "connect_failed";
        } else {
            openAtLastPoint = cp.connected();
            SaturationSearch search = new SaturationSearch(settings.plan(), settings.search(), n, start);
            SaturationSearch.Step step = search.first();
            endReason = null;
            while (step != null) {
                if (step.fresh()) {
                    // New connections, so whatever state the last point left (queues, a stalled
                    // socket) cannot decide this one.
                    engine.closeAll(1000);
                    sleepNs((long) (settings.plan().settleS() * 1e9));
                    ConnectProgress again = open(n);
                    if (again.connected() == 0) {
                        endReason = "connect_failed";
                        break;
                    }
                    openAtLastPoint = again.connected();
                }
                PointResult p = runPoint(n, step.rate(), step.phase(), points.size());
                points.add(p);
                progress.point(n, p, settings.plan());
                if (abortRequested) {
                    endReason = "aborted";
                    warnings.add("level " + n + ": aborted by the user after " + points.size() + " points");
                    break;
                }
                step = search.next(p);
            }
            if (endReason == null) {
                endReason = search.endReason();
            }
            if (search.fellBack()) {
                warnings.add(String.format(Locale.ROOT, "level %d: the first point at the start rate %.1f/s was not ok; "
                        + "re-ramped from the profile's start rate %.1f/s", n, start, settings.plan().startRate()));
            }
        }
        engine.closeAll(1000);
        sleepNs((long) (settings.plan().settleS() * 1e9));
        // Points in increasing target rate (a confirm point follows the grid point it re-ran).
        points.sort(Comparator.comparingDouble(PointResult::targetRate));
        SaturationPoint sat = SaturationPoint.of(points);
        SaturationPoint strict = SaturationPoint.strict(points);
        progress.levelDone(n, sat, strict, endReason);
        if (sat != null) {
            lastKneeReceivedPerS = sat.receivedPerS();
        }
        return new LevelResult(n, cp.connected(), cp.failed(), connectS, points, sat, strict, endReason, start);
    }

    /** Opens the level's connections and warns when some fail. */
    private ConnectProgress open(int n) throws InterruptedException {
        long perConnNs = (long) (settings.connectTimeoutS() * 1e9);
        // Openings are throttled, so the whole level may take longer than one timeout; bound it anyway.
        ConnectProgress cp = engine.open(n, perConnNs + TimeUnit.SECONDS.toNanos(5) + n * 2_000_000L);
        if (cp.failed() > 0) {
            warnings.add(String.format("level %d: %d of %d connections failed to open (first error: %s)",
                    n, cp.failed(), n, cp.firstError()));
        }
        return cp;
    }

    private PointResult runPoint(int n, double rate, Phase phase, int order) throws InterruptedException {
        var plan = settings.plan();
        var t = settings.thresholds();
        var rules = settings.search();
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
        StealMeter.Times steal0 = StealMeter.read();
        ProcessSampler.Sample srv0 = server == null ? null : server.latest();
        sleepUntil(s.windowEndNs());
        long cpu1 = os.getProcessCpuTime();
        long wall1 = System.nanoTime();
        StealMeter.Times steal1 = StealMeter.read();
        ProcessSampler.Sample srv1 = server == null ? null : server.latest();

        // Drain: wait for every copy of the window's messages, at most the overload timeout.
        long deadline = s.windowEndNs() + (long) (t.overloadTimeoutMs() * 1e6);
        while (System.nanoTime() < deadline) {
            PointCounters c = engine.poll();
            if (c.get(Count.ARRIVED_MEASURED) >= c.get(Count.SENT) * connected || c.get(Count.CONNECTIONS_LOST) > 0) {
                break;
            }
            Thread.sleep(10);
        }
        PointCounters c = engine.finish();
        long connectionsLost = c.get(Count.CONNECTIONS_LOST) + lostBetweenPoints;
        openAtLastPoint = Math.max(0, openAtLastPoint - (int) c.get(Count.CONNECTIONS_LOST));

        double duration = s.windowS();
        long sent = c.get(Count.SENT);
        long received = c.get(Count.RECEIVED_IN_WINDOW);
        long expected = sent * connected;
        long lost = Math.max(0, expected - c.get(Count.ARRIVED_MEASURED));
        LatencySummary rtt = LatencySummary.of(c.rttCorrectedMicros);
        LatencySummary rttUncorrected = LatencySummary.of(c.rttUncorrectedMicros);
        double clientCpu = cpu0 < 0 || cpu1 < 0 ? 0 : 100.0 * (cpu1 - cpu0) / Math.max(1, wall1 - wall0);
        Double serverCpu = ProcessSampler.cpuPercent(srv0, srv1);
        Long serverRss = srv1 == null ? null : srv1.rssBytes();
        Double stealPct = StealMeter.percent(steal0, steal1);
        double sentPerS = sent / duration;
        PointState state = PointRules.classify(rtt, rttUncorrected.max(), lost, connectionsLost, t);
        // Messages whose connection had closed could not be sent by any client: judge the
        // client's schedule-keeping on the rest (the lost connection already makes the point overloaded).
        double keepableRate = rate * (1.0 - (double) c.get(Count.SKIPPED_CLOSED) / Math.max(1, s.measureCount()));
        List<String> reasons = PointRules.clientBoundReasons(keepableRate, sentPerS, clientCpu, settings.clientCores(), t);
        Double delivered = PointRules.deliveredPct(received, expected);
        Double firstHalf = c.firstHalfMeanMs();
        Double secondHalf = c.secondHalfMeanMs();
        boolean backlog = PointRules.backlogGrowing(firstHalf, secondHalf, rules);
        boolean strict = PointRules.okStrict(state, backlog, delivered, !reasons.isEmpty(), rules);
        String where = String.format(Locale.ROOT, "level %d, rate %.1f/s (%s)", n, rate, phase.jsonName());
        if (c.get(Count.MALFORMED) > 0) {
            warnings.add(String.format(Locale.ROOT, "%s: %d messages or frames could not be parsed",
                    where, c.get(Count.MALFORMED)));
        }
        if (c.get(Count.OUT_OF_ORDER) > 0) {
            warnings.add(String.format(Locale.ROOT, "%s: %d own copies came back out of send order",
                    where, c.get(Count.OUT_OF_ORDER)));
        }
        if (stealPct != null && stealPct > rules.stealWarnPct()) {
            warnings.add(String.format(Locale.ROOT, "%s: hypervisor steal %.1f %% of CPU time (above %.0f %%): "
                    + "the host took CPU from this VM while the point was measured", where, stealPct, rules.stealWarnPct()));
        }
        if (c.get(Count.READS) > 0) {
            progress.diagnostics(c.get(Count.RECEIVED_ALL) / (double) c.get(Count.READS));
        }
        sleepUntil(s.windowEndNs() + (long) (plan.settleS() * 1e9));
        return new PointResult(rate, duration, sent, sentPerS, received, received / duration,
                expected, lost, connectionsLost, rtt, rttUncorrected, clientCpu, serverCpu, serverRss,
                state, reasons, c.get(Count.OUT_OF_ORDER), phase, order, delivered, firstHalf, secondHalf,
                backlog, strict, stealPct);
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
