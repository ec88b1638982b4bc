package sockbench.client.fleet;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import sockbench.client.sweep.AgentLoss;
import sockbench.client.sweep.AgentRecord;
import sockbench.client.sweep.AgentSample;
import sockbench.client.sweep.IdleSample;
import sockbench.client.sweep.LocalLoadEngine;
import sockbench.client.sweep.LoadEngine;
import sockbench.client.sweep.PointMeasurement;
import sockbench.client.sweep.PointRequest;
import sockbench.client.engine.ConnectProgress;
import sockbench.client.engine.Engine;
import sockbench.client.engine.PointSchedule;
import sockbench.client.stats.AgentPointResult;
import sockbench.client.stats.LevelResult;

/**
 * The coordinator's engine: the agents of this run hold the connections; each command goes out
 * on the run's command stream and every agent's reply comes back on the replies stream. Client i
 * of a level lives on agent i mod A. An agent whose heartbeat key expires, or that has not
 * replied by a command's deadline, is lost: the command returns what the others measured and
 * names it.
 */
public final class FleetLoadEngine implements LoadEngine {

    /** How far ahead a point starts: the command's trip through Redis and each agent's clock estimate. */
    private static final long START_LEAD_NS = 250_000_000;
    /** Slack after a command's own time for the replies to come back, ns. */
    private static final long REPLY_SLACK_NS = 10_000_000_000L;
    private static final long HEARTBEAT_CHECK_NS = 200_000_000;

    private final RedisBus bus;
    private final String runId;
    private final PrintStream log;
    private final List<String> agents;
    private final Map<String, Map<String, String>> registration;
    private final Map<String, int[]> connectionsMax = new TreeMap<>();
    private final Set<String> ignoredRuns = new HashSet<>();
    private int[] openPerAgent;
    private long seq;
    private String lastReply = "0-0";
    private String lost;
    private AgentLoss loss;
    /** The command whose replies are awaited, for naming what a lost agent missed. */
    private String awaiting = "";

    private FleetLoadEngine(RedisBus bus, String runId, PrintStream log, List<String> agents,
                            Map<String, Map<String, String>> registration) {
        this.bus = bus;
        this.runId = runId;
        this.log = log;
        this.agents = List.copyOf(agents);
        this.registration = registration;
        this.openPerAgent = new int[agents.size()];
    }

    /**
     * Waits until {@code expected} agents of run {@code runId} have registered, then assigns them
     * their index and the target.
     *
     * @param joinTimeoutNs how long to wait for the agents, nanoseconds
     * @param target        assignment fields every agent needs (url, transport, timeouts, ...)
     * @throws AgentsMissingException when fewer registered in time
     */
    public static FleetLoadEngine start(RedisBus bus, String runId, int expected, long joinTimeoutNs,
                                        Map<String, String> target, PrintStream log)
            throws AgentsMissingException, InterruptedException {
        long deadline = System.nanoTime() + joinTimeoutNs;
        Set<String> ignored = new HashSet<>();
        Map<String, Map<String, String>> mine = new TreeMap<>();
        while (true) {
            mine.clear();
            for (var e : bus.hashesMatching(Protocol.agentPattern()).entrySet()) {
                Map<String, String> h = e.getValue();
                String agent = h.get("agent");
                if (agent == null) {
                    continue;
                }
                if (!runId.equals(h.get("run"))) {
                    if (ignored.add(agent)) {
                        log.printf("sockbench: ignoring agent %s: it belongs to run %s, not %s%n", agent, h.get("run"), runId);
                    }
                    continue;
                }
                mine.put(agent, h);
            }
            if (mine.size() >= expected || System.nanoTime() >= deadline) {
                break;
            }
            Thread.sleep(100);
        }
        if (mine.size() < expected) {
            throw new AgentsMissingException(String.format(Locale.ROOT,
                    "only %d of %d agents of run %s registered on %s within %.1f s: start them with "
                            + "`make client-agent BROKER=%s RUN_ID=%s` (or lower --agents)",
                    mine.size(), expected, runId, bus.url(), joinTimeoutNs / 1e9, bus.url(), runId));
        }
        // Agents in registration order (then id), so a re-run with the same agents gets the same split.
        List<String> chosen = new ArrayList<>(mine.keySet());
        chosen.sort((a, b) -> {
            int c = Long.compare(Long.parseLong(mine.get(a).getOrDefault("registered_us", "0")),
                    Long.parseLong(mine.get(b).getOrDefault("registered_us", "0")));
            return c != 0 ? c : a.compareTo(b);
        });
        for (String extra : chosen.subList(expected, chosen.size())) {
            log.printf("sockbench: agent %s is not needed (%d asked); it will exit%n", extra, expected);
        }
        chosen = new ArrayList<>(chosen.subList(0, expected));
        FleetLoadEngine fleet = new FleetLoadEngine(bus, runId, log, chosen, new LinkedHashMap<>());
        fleet.ignoredRuns.addAll(ignored);
        Map<String, String> assign = new LinkedHashMap<>(target);
        assign.put("agents", String.join(",", chosen));
        Replies r = fleet.command(Protocol.ASSIGN, assign, fleet.agents, REPLY_SLACK_NS);
        if (r.lost != null) {
            throw new AgentsMissingException("agent " + r.lost + " registered but did not take its assignment");
        }
        fleet.registration.putAll(r.byAgent);
        log.printf("sockbench: agents %d/%d connected on %s (run %s): %s%n", chosen.size(), expected, bus.url(),
                runId, String.join(", ", chosen));
        return fleet;
    }

    @Override
    public ConnectProgress open(int n, long overallTimeoutNs) throws InterruptedException {
        return open(n, overallTimeoutNs, 0);
    }

    /** Every agent paces its share at {@code connectRatePerS} ÷ agents, so the fleet together keeps the rate. */
    @Override
    public ConnectProgress open(int n, long overallTimeoutNs, double connectRatePerS) throws InterruptedException {
        Map<String, String> f0 = new LinkedHashMap<>();
        f0.put("n", Integer.toString(n));
        f0.put("timeout_ns", Long.toString(overallTimeoutNs));
        f0.put("connect_rate", Double.toString(connectRatePerS / agents.size()));
        Replies r = command(Protocol.OPEN, f0, alive(), overallTimeoutNs + REPLY_SLACK_NS);
        int connected = 0;
        int failed = 0;
        String first = null;
        Map<String, Integer> reasons = new TreeMap<>();
        for (int i = 0; i < agents.size(); i++) {
            Map<String, String> f = r.byAgent.get(agents.get(i));
            if (f == null) {
                int missing = SlotAssignment.clientIdsOf(n, i, agents.size()).size();
                failed += missing;
                reasons.merge(AgentLoss.CONNECT_REASON, missing, Integer::sum);
                continue;
            }
            connected += Integer.parseInt(f.get("connected"));
            failed += Integer.parseInt(f.get("failed"));
            decodeReasons(f.get("failures")).forEach((k, v) -> reasons.merge(k, v, Integer::sum));
            if (first == null && !f.getOrDefault("first_error", "").isEmpty()) {
                first = agents.get(i) + ": " + f.get("first_error");
            }
        }
        return ConnectProgress.of(n, connected, failed, first, reasons);
    }

    /**
     * Every agent's heartbeats, open connections and lost sessions by reason added up; RSS of this
     * coordinator plus every agent.
     */
    @Override
    public IdleSample idleSample() {
        try {
            Replies r = command(Protocol.IDLE_SAMPLE, Map.of(), alive(), replyTimeoutNs(0, 3));
            long heartbeats = 0;
            int open = 0;
            Map<String, Integer> lostReasons = new TreeMap<>();
            Long rss = LocalLoadEngine.selfRssBytes();
            for (String agent : agents) {
                Map<String, String> f = r.byAgent.get(agent);
                if (f == null) {
                    rss = null; // a lost agent's memory is unknown: no sum at all rather than a low one
                    continue;
                }
                heartbeats += Long.parseLong(f.get("heartbeats"));
                open += Integer.parseInt(f.get("open"));
                decodeReasons(f.get("lost_reasons")).forEach((k, v) -> lostReasons.merge(k, v, Integer::sum));
                String agentRss = f.getOrDefault("rss_bytes", "");
                rss = rss == null || agentRss.isEmpty() ? null : rss + Long.parseLong(agentRss);
            }
            return new IdleSample(heartbeats, open, rss, lostReasons);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new IdleSample(0, 0, null, Map.of());
        }
    }

    @Override
    public AgentLoss agentLoss() {
        return loss;
    }

    @Override
    public Integer agentCount() {
        return agents.size();
    }

    /** Failures by reason as one stream field: a "count TAB reason" line each (reasons hold no newline). */
    static String encodeReasons(Map<String, Integer> reasons) {
        StringBuilder b = new StringBuilder();
        reasons.forEach((k, v) -> b.append(v).append('\t').append(k.replace('\n', ' ').replace('\t', ' ')).append('\n'));
        return b.toString();
    }

    static Map<String, Integer> decodeReasons(String field) {
        Map<String, Integer> out = new TreeMap<>();
        if (field == null || field.isEmpty()) {
            return out;
        }
        for (String line : field.split("\n")) {
            int tab = line.indexOf('\t');
            if (tab > 0) {
                out.merge(line.substring(tab + 1), Integer.parseInt(line.substring(0, tab)), Integer::sum);
            }
        }
        return out;
    }

    @Override
    public int openConnections() {
        try {
            Replies r = command(Protocol.OPEN_COUNT, Map.of(), alive(), replyTimeoutNs(0, 1));
            int[] open = new int[agents.size()];
            int total = 0;
            for (int i = 0; i < agents.size(); i++) {
                Map<String, String> f = r.byAgent.get(agents.get(i));
                open[i] = f == null ? 0 : Integer.parseInt(f.get("open"));
                total += open[i];
            }
            openPerAgent = open;
            return total;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    @Override
    public void closeAll(long graceMs) throws InterruptedException {
        // The close, the last count of open sessions and the forced close each wait for the I/O threads (Engine.closeAll).
        command(Protocol.CLOSE, Map.of("grace_ms", Long.toString(graceMs)), alive(),
                replyTimeoutNs(TimeUnit.MILLISECONDS.toNanos(graceMs), 3));
    }

    /**
     * How long the agents get to answer a command: what the agent's own handling may take before it
     * gives up with an error ({@code ownNs}, plus {@code ioWaits} waits for its I/O threads, each
     * bounded by Engine.IO_THREAD_ANSWER_NS), plus the reply slack. An agent holding 16,667
     * sessions on a core it shares with five others is slow, not lost: with only grace + slack
     * (11 s) for a close, a live agent was called lost after a 100,000-session point and the sweep
     * stopped. A dead or stalled agent is still found within the heartbeat's time to live.
     */
    static long replyTimeoutNs(long ownNs, int ioWaits) {
        return ownNs + ioWaits * Engine.IO_THREAD_ANSWER_NS + REPLY_SLACK_NS;
    }

    @Override
    public PointMeasurement measure(PointRequest req, WindowListener window) throws InterruptedException {
        PointSchedule s = PointSchedule.of(req.rate(), Math.max(1, req.connected()), req.startNs(), req.warmupS(),
                req.stepS(), req.index(), req.payloadBytes());
        if (lost != null) {
            return PointMeasurement.merge(List.of(), s.measureCount(), s.windowS(), lost);
        }
        ClockSync clock = ClockSync.measure(bus);
        Map<String, String> f = new LinkedHashMap<>();
        f.put("rate", Double.toString(req.rate()));
        f.put("index", Long.toString(req.index()));
        f.put("warmup_s", Double.toString(req.warmupS()));
        f.put("step_s", Double.toString(req.stepS()));
        f.put("payload_bytes", Integer.toString(req.payloadBytes()));
        f.put("overload_timeout_ms", Double.toString(req.overloadTimeoutMs()));
        f.put("start_us", Long.toString(clock.toBusMicros(req.startNs())));
        f.put("open_per_agent", join(openPerAgent));
        f.put("all_copies", Boolean.toString(req.allCopies()));
        long id = send(Protocol.POINT, f);
        awaiting = Protocol.POINT;
        sleepUntil(s.windowStartNs());
        window.windowStarted();
        sleepUntil(s.windowEndNs());
        window.windowEnded();
        long waitNs = s.windowEndNs() - System.nanoTime() + (long) (req.overloadTimeoutMs() * 1e6) + REPLY_SLACK_NS;
        Replies r = await(id, alive(), waitNs);
        List<AgentSample> samples = new ArrayList<>();
        for (String agent : agents) {
            Map<String, String> a = r.byAgent.get(agent);
            if (a == null) {
                continue;
            }
            samples.add(new AgentSample(agent, registration.get(agent).get("host"), CountersCodec.decode(a),
                    Integer.parseInt(a.get("connected")), Double.parseDouble(a.get("cpu_pct")),
                    parseInts(registration.get(agent).get("cpus")),
                    a.get("steal_pct").isEmpty() ? null : Double.parseDouble(a.get("steal_pct")),
                    Long.parseLong(a.get("measure_count"))));
            connectionsMax.computeIfAbsent(agent, k -> new int[1])[0] =
                    Math.max(connectionsMax.getOrDefault(agent, new int[1])[0], Integer.parseInt(a.get("connected")));
        }
        return PointMeasurement.merge(samples, s.measureCount(), s.windowS(), r.lost);
    }

    /** Every agent of the run, in agent order, as the result records them, with its client-bound points in {@code levels}. */
    public List<AgentRecord> records(List<LevelResult> levels) {
        Map<String, Integer> clientBoundPoints = new TreeMap<>();
        Map<String, Set<String>> clientBoundReasons = new TreeMap<>();
        for (LevelResult level : levels) {
            for (var p : level.points()) {
                for (AgentPointResult a : p.agents()) {
                    if (!a.clientBoundReasons().isEmpty()) {
                        clientBoundPoints.merge(a.agent(), 1, Integer::sum);
                        clientBoundReasons.computeIfAbsent(a.agent(), k -> new LinkedHashSet<>()).addAll(a.clientBoundReasons());
                    }
                }
            }
        }
        List<AgentRecord> out = new ArrayList<>();
        for (String agent : agents) {
            Map<String, String> reg = registration.getOrDefault(agent, Map.of());
            out.add(new AgentRecord(agent, reg.getOrDefault("host", "unknown"),
                    Long.parseLong(reg.getOrDefault("pid", "0")), parseInts(reg.get("cpus")),
                    Integer.parseInt(reg.getOrDefault("io_threads", "0")),
                    reg.getOrDefault("source_addresses", "").isEmpty() ? List.of()
                            : List.of(reg.get("source_addresses").split(",")),
                    connectionsMax.getOrDefault(agent, new int[1])[0],
                    Long.parseLong(reg.getOrDefault("clock_offset_us", "0")),
                    Long.parseLong(reg.getOrDefault("clock_rtt_us", "0")),
                    clientBoundPoints.getOrDefault(agent, 0),
                    List.copyOf(clientBoundReasons.getOrDefault(agent, Set.of()))));
        }
        return out;
    }

    public String runId() {
        return runId;
    }

    @Override
    public long startLeadNs() {
        return START_LEAD_NS;
    }

    @Override
    public String agentsStatus() {
        return "agents " + alive().size() + "/" + agents.size();
    }

    @Override
    public void close() {
        try {
            send(Protocol.STOP, Map.of());
        } catch (BusException e) {
            log.println("sockbench: could not tell the agents to stop: " + e.getMessage());
        }
        bus.close();
    }

    // --- commands and replies ----------------------------------------------------------------

    private record Replies(Map<String, Map<String, String>> byAgent, String lost) {
    }

    private List<String> alive() {
        List<String> out = new ArrayList<>(agents);
        if (lost != null) {
            out.remove(lost);
        }
        return out;
    }

    private long send(String type, Map<String, String> fields) {
        long id = ++seq;
        Map<String, String> f = new LinkedHashMap<>(fields);
        f.put("type", type);
        f.put("seq", Long.toString(id));
        bus.append(Protocol.commands(runId), f);
        return id;
    }

    private Replies command(String type, Map<String, String> fields, List<String> from, long timeoutNs)
            throws InterruptedException {
        awaiting = type;
        return await(send(type, fields), from, timeoutNs);
    }

    /**
     * Replies to command {@code id} from every agent in {@code from}. An agent whose heartbeat key
     * expires is lost at once; the others are still waited for (their part of a point is kept),
     * until {@code timeoutNs}, after which the first silent agent is lost.
     */
    private Replies await(long id, List<String> from, long timeoutNs) throws InterruptedException {
        Map<String, Map<String, String>> got = new LinkedHashMap<>();
        List<String> pending = new ArrayList<>(from);
        long deadline = System.nanoTime() + timeoutNs;
        long nextCheck = System.nanoTime() + HEARTBEAT_CHECK_NS;
        while (!pending.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                lose(pending.get(0), "no reply within " + timeoutNs / 1_000_000 + " ms");
                break;
            }
            for (RedisBus.Entry e : bus.read(Protocol.replies(runId), lastReply, (int) Math.max(1, Math.min(200, left / 1_000_000)))) {
                lastReply = e.id();
                Map<String, String> f = e.fields();
                if (!Long.toString(id).equals(f.get("seq")) || !pending.contains(f.get("agent"))) {
                    continue;
                }
                if (f.containsKey("error")) {
                    throw new AgentFailedException("agent " + f.get("agent") + " failed: " + f.get("error"));
                }
                got.put(f.get("agent"), f);
                pending.remove(f.get("agent"));
            }
            if (System.nanoTime() >= nextCheck && !pending.isEmpty()) {
                nextCheck = System.nanoTime() + HEARTBEAT_CHECK_NS;
                for (String agent : List.copyOf(pending)) {
                    if (!bus.exists(Protocol.agentKey(agent))) {
                        lose(agent, "its heartbeat key expired (process gone or stalled)");
                        pending.remove(agent);
                    }
                }
            }
        }
        return new Replies(got, lost);
    }

    private void lose(String agent, String why) {
        if (lost == null) {
            lost = agent;
            loss = new AgentLoss(agent, awaiting, why);
        }
        log.printf("sockbench: agent %s lost: %s%n", agent, why);
    }

    static String join(int[] values) {
        StringBuilder b = new StringBuilder();
        for (int v : values) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(v);
        }
        return b.toString();
    }

    static int[] parseIntArray(String csv) {
        return csv == null || csv.isEmpty() ? new int[0] : Arrays.stream(csv.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    static List<Integer> parseInts(String csv) {
        return Arrays.stream(parseIntArray(csv)).boxed().toList();
    }

    private static void sleepUntil(long deadlineNs) throws InterruptedException {
        long ns = deadlineNs - System.nanoTime();
        if (ns > 0) {
            TimeUnit.NANOSECONDS.sleep(ns);
        }
    }
}
