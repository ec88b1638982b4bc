package sockbench.client.sweep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import sockbench.client.engine.ChurnPool;
import sockbench.client.engine.ConnectProgress;
import sockbench.client.engine.CopyCompletion;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.engine.PointCounters;
import sockbench.client.engine.PointSchedule;
import sockbench.client.sampling.ProcessGroup;
import sockbench.client.sampling.ProcessSampler;
import sockbench.client.stats.AgentPointResult;
import sockbench.client.stats.ChurnRecord;
import sockbench.client.stats.CompletionSummary;
import sockbench.client.stats.CompressionBytes;
import sockbench.client.stats.ConnectRecord;
import sockbench.client.stats.IdleRecord;
import sockbench.client.stats.LatencySummary;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.Phase;
import sockbench.client.stats.PointResult;
import sockbench.client.stats.PointRules;
import sockbench.client.stats.PointState;
import sockbench.client.stats.SaturationPoint;
import sockbench.client.stats.SlowClientsRecord;
import sockbench.client.stats.TransportPointResult;
import sockbench.client.websocket.Compression;

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

    private final LoadEngine engine;
    private final SweepSettings settings;
    private final ProcessSampler server; // null without --server-pid
    /** Every serving process (--server-pids), summed for the idle record; null without pids. */
    private final ProcessGroup serverGroup;
    /** Server and client processes just before the first level opened (idle-hold plans only). */
    private ProcessSampler.Sample serverBaseline;
    private Long clientRssBaseline;
    private final SweepProgress progress;
    private final List<String> warnings;
    private final Consumer<List<LevelResult>> onLevelDone;
    private final List<LevelResult> levels = new ArrayList<>();
    /** The sessions that churn during points (none without --churn): their count is each churn record's pool. */
    private final ChurnPool churnPool;
    private volatile boolean abortRequested;
    private long pointIndex;
    /** Received/s at the saturation of the last level that had one (the adaptive start's input), or null. */
    private Double lastKneeReceivedPerS;
    /** Connections open when the previous point started (minus those it lost). */
    private int openAtLastPoint;

    /**
     * @param server      samples the server process (null when no pid was given)
     * @param warnings    receives every warning the sweep finds (shared with the run summary)
     * @param onLevelDone called with all levels so far after each level (the writer saves partial results)
     */
    public Sweep(LoadEngine engine, SweepSettings settings, ProcessSampler server, SweepProgress progress,
                 List<String> warnings, Consumer<List<LevelResult>> onLevelDone) {
        this(engine, settings, server, null, progress, warnings, onLevelDone);
    }

    /**
     * @param serverGroup every serving process, whose RSS and CPU the idle record sums (null: none known)
     */
    public Sweep(LoadEngine engine, SweepSettings settings, ProcessSampler server, ProcessGroup serverGroup,
                 SweepProgress progress, List<String> warnings, Consumer<List<LevelResult>> onLevelDone) {
        this.serverGroup = serverGroup;
        this.engine = engine;
        this.settings = settings;
        this.server = server;
        this.progress = progress;
        this.warnings = warnings;
        this.onLevelDone = onLevelDone;
        this.churnPool = ChurnPool.of(settings.plan().churnPct());
    }

    /** Asks the sweep to stop after the current point (e.g. on Ctrl-C); the level ends "aborted". */
    public void abort() {
        abortRequested = true;
    }

    public List<LevelResult> run() throws InterruptedException {
        progress.sweepStarted(settings.plan(), settings.search().refineSteps() + 1, n -> settings.capFor(n).rate());
        if (settings.plan().idleHoldS() > 0) {
            // The idle server (after the runner's warm-up) and client, before any session exists:
            // what the levels' memory per session is measured against.
            serverBaseline = serverGroup == null ? null : serverGroup.read();
            clientRssBaseline = engine.idleSample().clientRssBytes();
        }
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
        ConnectProgress cp = open(n, null);
        double connectS = (System.nanoTime() - t0) / 1e9;
        progress.levelConnected(n, cp.connected(), cp.failed(), connectS);
        var plan = settings.plan();
        IdleRecord idle = null;
        int openAfterHold = cp.connected();
        if (plan.idleHoldS() > 0 && cp.connected() > 0 && !abortRequested) {
            idle = holdIdle(n);
            openAfterHold = Math.max(0, idle.sessions() - (int) idle.connectionsLost());
        }
        List<PointResult> points = new ArrayList<>();
        String endReason;
        LevelCap cap = settings.capFor(n);
        double start = new LevelStart(settings.plan(), settings.levelStartRates()).startFor(n, lastKneeReceivedPerS, cap.rate());
        progress.levelStart(n, start, settings.plan().startRate());
        // A sessions level is about N sessions: a ramp over fewer would be a smaller level's figure
        // under N's name, so it is not run (the connect and idle records keep what did open).
        boolean partialSessionsLevel = plan.allCopies() && cp.failed() > 0;
        if (partialSessionsLevel) {
            warnings.add(String.format(Locale.ROOT, "level %d: only %d of %d sessions opened, so its broadcast ramp "
                    + "was not run (end reason connect_failed); see levels[].connect.failures", n, cp.connected(), n));
        }
        if (cp.connected() == 0 || partialSessionsLevel) {
            endReason = "connect_failed";
        } else {
            // Connections lost during the idle hold are the hold's record, not the first point's.
            openAtLastPoint = steadyOf(openAfterHold);
            SaturationSearch search = new SaturationSearch(settings.plan(), settings.search(), n, start, cap);
            SaturationSearch.Step step = search.first();
            endReason = null;
            while (step != null) {
                if (step.fresh()) {
                    // New connections, so whatever state the last point left (queues, a stalled
                    // socket) cannot decide this one.
                    engine.closeAll(1000);
                    sleepNs((long) (settings.plan().settleS() * 1e9));
                    ConnectProgress again = open(n, String.format(Locale.ROOT,
                            "reopened for the %s point at rate %.1f/s", step.phase().jsonName(), step.rate()));
                    if (again.connected() == 0) {
                        endReason = "connect_failed";
                        break;
                    }
                    openAtLastPoint = steadyOf(again.connected());
                }
                PointResult p = runPoint(n, step.rate(), step.phase(), points.size());
                points.add(p);
                progress.agents(engine.agentsStatus());
                progress.point(n, p, settings.plan());
                if (p.agentLost() != null) {
                    endReason = "agent_lost";
                    abortRequested = true;
                    System.err.printf(Locale.ROOT, "sockbench: agent %s lost during level %d at rate %.1f/s: "
                            + "the level and the sweep stop here; the result keeps what was measured%n",
                            p.agentLost(), n, rate(p));
                    break;
                }
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
        LevelResult level = new LevelResult(n, cp.connected(), cp.failed(), connectS, points, sat, strict, endReason, start,
                cap.ceilingPerS());
        boolean sessionsFields = plan.allCopies() || plan.idleHoldS() > 0 || plan.connectRatePerS() > 0;
        if (!sessionsFields && engine.agentCount() == null) {
            return level;
        }
        ConnectRecord connect = sessionsFields
                ? ConnectRecord.of(plan.connectRatePerS(), cp.connected(), connectS, cp.failuresByReason()) : null;
        return level.withSessions(connect, idle, plan.allCopies(), engine.agentCount());
    }

    /**
     * The sessions a point's figures are about, given {@code opened} sessions of the level open:
     * all of them, or with churn or slow readers the ones the engine counts (the pool's and the slow
     * readers' are never the point's).
     */
    private int steadyOf(int opened) {
        return churnPool.active() || settings.slowReaders().active() ? engine.openConnections() : opened;
    }

    /**
     * Holds the level's sessions idle for the plan's hold: what the server and client spend per
     * session at rest, the heartbeats they exchange, and whether any session drops while idle.
     */
    private IdleRecord holdIdle(int n) throws InterruptedException {
        double holdS = settings.plan().idleHoldS();
        progress.idleHold(n, holdS);
        IdleSample before = engine.idleSample();
        ProcessSampler.Sample srv0 = serverGroup == null ? null : serverGroup.read();
        long t0 = System.nanoTime();
        sleepNs((long) (holdS * 1e9));
        ProcessSampler.Sample srv1 = serverGroup == null ? null : serverGroup.read();
        IdleSample after = engine.idleSample();
        double heldS = (System.nanoTime() - t0) / 1e9;
        long lost = Math.max(0, before.open() - after.open());
        IdleRecord idle = new IdleRecord(heldS, lost, Math.max(0, after.heartbeats() - before.heartbeats()),
                ProcessSampler.cpuPercent(srv0, srv1), srv1 == null ? null : srv1.rssBytes(),
                serverBaseline == null ? null : serverBaseline.rssBytes(), after.clientRssBytes(), clientRssBaseline,
                before.open(), after.lostReasonsSince(before));
        String warning = idle.warning(n);
        if (warning != null) {
            warnings.add(warning);
        }
        return idle;
    }

    /**
     * Opens the level's connections and warns when some fail, or when an agent's share is missing
     * because the agent was lost (then the warning names it, not a connect failure).
     *
     * @param reopenedFor why the level's sessions are opened again (a fresh point), or null for the level's opening
     */
    private ConnectProgress open(int n, String reopenedFor) throws InterruptedException {
        long perConnNs = (long) (settings.connectTimeoutS() * 1e9);
        // Openings are throttled, so the whole level may take longer than one timeout; bound it anyway.
        double rate = settings.plan().connectRatePerS();
        // Paced, the level takes n / rate seconds to start its connects: the bound grows with it.
        long pacedNs = rate > 0 ? (long) (n / rate * 1e9) : 0;
        ConnectProgress cp = engine.open(n, perConnNs + TimeUnit.SECONDS.toNanos(5) + n * 2_000_000L + pacedNs, rate);
        AgentLoss loss = engine.agentLoss();
        String warning = loss != null && cp.failuresByReason().containsKey(AgentLoss.CONNECT_REASON)
                ? AgentLossText.connectWarning(n, reopenedFor, cp, loss)
                : ConnectRecord.warning(n, n, cp.connected(), cp.failed(), cp.failuresByReason(), cp.firstError());
        if (warning != null) {
            warnings.add(warning);
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
        // Time for every I/O thread (and agent) to receive the schedule.
        long startNs = System.nanoTime() + engine.startLeadNs();
        int connected = openNow;
        Map<String, Integer> openByTransport = engine.openByTransport();
        ProcessSampler.Sample[] srv = new ProcessSampler.Sample[2];
        PointMeasurement m = engine.measure(
                new PointRequest(rate, index, plan.warmupS(), plan.stepS(), settings.payloadBytes(),
                        t.overloadTimeoutMs(), startNs, connected, plan.allCopies()),
                new LoadEngine.WindowListener() {
                    @Override
                    public void windowStarted() {
                        srv[0] = serverNow();
                    }

                    @Override
                    public void windowEnded() {
                        srv[1] = serverNow();
                    }
                });
        PointCounters c = m.total();
        long connectionsLost = c.get(Count.CONNECTIONS_LOST) + lostBetweenPoints;
        openAtLastPoint = Math.max(0, openAtLastPoint - (int) c.get(Count.CONNECTIONS_LOST));

        double duration = m.windowS();
        long sent = c.get(Count.SENT);
        long received = c.get(Count.RECEIVED_IN_WINDOW);
        long expected = sent * connected;
        long lost = Math.max(0, expected - c.get(Count.ARRIVED_MEASURED));
        LatencySummary rtt = LatencySummary.of(c.rttCorrectedMicros);
        LatencySummary rttUncorrected = LatencySummary.of(c.rttUncorrectedMicros);
        double clientCpu = PointMerge.clientCpuPct(m);
        Double serverCpu = ProcessSampler.cpuPercent(srv[0], srv[1]);
        Long serverRss = srv[1] == null ? null : srv[1].rssBytes();
        Double stealPct = PointMerge.stealPct(m);
        double sentPerS = sent / duration;
        boolean allCopies = plan.allCopies();
        LatencySummary fanout = allCopies ? LatencySummary.of(c.fanoutMicros) : null;
        CompletionSummary completion = allCopies ? completionOf(c, m.measureCount(), sent, connected, n, rate) : null;
        // A point missing an agent's share (or measured by nobody) is no verdict on the server, and
        // its nulls and zeros must not read as an ok point to anyone who reads the state.
        PointState state = m.agentLost() != null ? PointState.AGENT_LOST : allCopies
                ? PointRules.classifyFanout(fanout, rttUncorrected.max(), lost, connectionsLost, t)
                : PointRules.classify(rtt, rttUncorrected.max(), lost, connectionsLost, t);
        // A mix is judged by its worst transport: the average must not hide one transport's loss.
        List<TransportPointResult> byTransport = TransportBreakdown.of(c, sent, openByTransport, allCopies, t);
        for (TransportPointResult tr : byTransport) {
            state = TransportPointResult.worse(state, tr.state());
        }
        // Messages whose connection had closed could not be sent by any client: judge the
        // client's schedule-keeping on the rest (the lost connection already makes the point overloaded).
        double keepableRate = rate * (1.0 - (double) c.get(Count.SKIPPED_CLOSED) / Math.max(1, m.measureCount()));
        List<AgentPointResult> agents = PointMerge.agents(m, rate, t);
        List<String> reasons = PointMerge.clientBoundReasons(m, keepableRate, agents, t);
        Double delivered = PointRules.deliveredPct(received, expected);
        Double firstHalf = c.firstHalfMeanMs();
        Double secondHalf = c.secondHalfMeanMs();
        // Under the fan-out verdict the queue that matters is every copy's: compare their halves.
        boolean backlog = allCopies
                ? PointRules.backlogGrowing(c.fanoutFirstHalfMeanMs(), c.fanoutSecondHalfMeanMs(), rules)
                : PointRules.backlogGrowing(firstHalf, secondHalf, rules);
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
        if (m.agentLost() != null) {
            warnings.add(AgentLossText.pointWarning(where, m.agentLost(), engine.agentLoss(), !m.agents().isEmpty()));
        }
        ChurnRecord churn = churnPool.active()
                ? ChurnRecord.of(churnPool.size(n), c.get(Count.CHURN_CLOSES), c.get(Count.CHURN_RECONNECTS), duration,
                        c.churnFailures, c.churnReconnectMicros)
                : null;
        String churnWarning = churn == null ? null : churn.warning(where);
        if (churnWarning != null) {
            warnings.add(churnWarning); // churn the server could not serve must not pass silently
        }
        // The slow readers' copies and losses are theirs alone (PointCounters.slow): never the verdict.
        SlowClientsRecord slow = settings.slowReaders().active()
                ? slowClients(c.slow, sent) : null;
        if (c.get(Count.READS) > 0) {
            progress.diagnostics(c.get(Count.RECEIVED_ALL) / (double) c.get(Count.READS));
        }
        long windowEndNs = PointSchedule.of(rate, 1, startNs, plan.warmupS(), plan.stepS(), index, settings.payloadBytes())
                .windowEndNs();
        sleepNs(windowEndNs + (long) (plan.settleS() * 1e9) - System.nanoTime());
        // Only the fleet's per-agent parts are recorded: one process is the point itself.
        List<AgentPointResult> recorded = engine.agentsStatus().isEmpty() ? List.of() : agents;
        return PointResult.builder()
                .targetRate(rate).durationS(duration).sent(sent).sentPerS(sentPerS)
                .received(received).receivedPerS(received / duration).expectedReceived(expected).lost(lost)
                .connectionErrors(connectionsLost).rtt(rtt).rttUncorrected(rttUncorrected)
                .clientCpuPct(clientCpu).serverCpuPct(serverCpu).serverRssBytes(serverRss)
                .state(state).clientBoundReasons(reasons).outOfOrder(c.get(Count.OUT_OF_ORDER))
                .phase(phase).order(order).deliveredPct(delivered)
                .rttFirstHalfMeanMs(firstHalf).rttSecondHalfMeanMs(secondHalf)
                .backlogGrowing(backlog).okStrict(strict).stealPct(stealPct)
                .agents(recorded).agentLost(m.agentLost()).messagesPerFrame(c.messagesPerFrame())
                .fanout(fanout).completion(completion).churn(churn).transports(byTransport)
                .compression(settings.compression() == Compression.NONE ? null
                        : new CompressionBytes(c.get(Count.BYTES_READ), c.get(Count.INFLATED_BYTES)))
                .slowClients(slow).build();
    }

    /**
     * A point's {@code slow_clients} from the slow readers' counters ({@link PointCounters#slow};
     * null, as from a fleet, reads as none) and the messages {@code sent} in the window.
     */
    private static SlowClientsRecord slowClients(PointCounters slow, long sent) {
        if (slow == null) {
            return new SlowClientsRecord(0, 0, 0, 0, Map.of(), LatencySummary.of(LatencySummary.newHistogram()));
        }
        int sessions = (int) slow.get(Count.SESSIONS_AT_START);
        return new SlowClientsRecord(sessions, slow.get(Count.RECEIVED_IN_WINDOW), sent * sessions,
                slow.get(Count.CONNECTIONS_LOST), slow.lostReasons, LatencySummary.of(slow.fanoutMicros));
    }

    /**
     * The point's completion_ms from the merged per-message arrays; warns when the window had more
     * measured messages than the arrays track (their completion is then left out).
     */
    private CompletionSummary completionOf(PointCounters c, long measureCount, long sent, int connected, int n,
                                           double rate) {
        CopyCompletion arrays = c.completion();
        if (arrays == null) {
            return new CompletionSummary(0, 0, null, null, null, null); // no process answered with arrays
        }
        boolean covered = measureCount <= arrays.length();
        if (!covered) {
            warnings.add(String.format(Locale.ROOT, "level %d, rate %.1f/s: %d measured messages, but completion_ms "
                    + "tracks only the first %d (every copy is still in fanout_ms)", n, rate, measureCount,
                    arrays.length()));
        }
        return CompletionSummary.of(arrays.copiesArray(), arrays.slowestMicrosArray(), connected, covered ? sent : -1);
    }

    /**
     * The server now, for a point's CPU and RSS: every serving process summed when several were
     * given ({@code --server-pids}: the sessions profile's workers share the server's cores, so one
     * worker's CPU would read as a server idle at 1/k of its core and every figure as a floor),
     * else the one sampled process ({@code --server-pid}).
     */
    private ProcessSampler.Sample serverNow() {
        if (serverGroup != null && serverGroup.pids().size() > 1) {
            return serverGroup.read();
        }
        return server == null ? null : server.latest();
    }

    private static double rate(PointResult p) {
        return p.targetRate();
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
