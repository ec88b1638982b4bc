package sockbench.client.fleet;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import sockbench.client.sweep.AgentSample;
import sockbench.client.sweep.LoadEngine;
import sockbench.client.sweep.LocalLoadEngine;
import sockbench.client.sweep.PointRequest;
import sockbench.client.engine.ChurnPool;
import sockbench.client.engine.ConnectProgress;
import sockbench.client.engine.Engine;
import sockbench.client.engine.PointCounters.Count;
import sockbench.client.engine.Target;
import sockbench.client.sampling.OpenFilesLimit;
import sockbench.client.engine.Transport;
import sockbench.client.websocket.Compression;

/**
 * One agent: registers on the bus under its run id (a hash with a heartbeat time to live), waits
 * for the coordinator's assignment, then holds its share of every level's connections and runs
 * its share of every point, replying with its counters and histograms. Serves one run, then exits.
 */
public final class Agent {

    private final String busUrl;
    private final String runId;
    /** --source-addresses as given ("auto" is decided by the target of the assignment). */
    private final String sourceAddresses;
    private List<InetAddress> boundTo = List.of();
    private final List<Integer> cpus;
    private final int ioThreads;
    private final long idleTimeoutNs;
    private final PrintStream log;
    private final String host;
    private final String id;

    /**
     * @param sourceAddresses "auto", "none" or IP literals to bind connections to ({@link SourceAddresses})
     * @param cpus            CPUs this process may use (recorded; the client-bound CPU rule's cores)
     * @param ioThreads       I/O threads, 1..64
     * @param idleTimeoutNs   exit with an error when no command arrives for this long, nanoseconds
     */
    public Agent(String busUrl, String runId, String sourceAddresses, List<Integer> cpus, int ioThreads,
                 long idleTimeoutNs, String host, PrintStream log) {
        this.busUrl = busUrl;
        this.runId = runId;
        this.sourceAddresses = sourceAddresses;
        this.cpus = List.copyOf(cpus);
        this.ioThreads = ioThreads;
        this.idleTimeoutNs = idleTimeoutNs;
        this.host = host;
        this.log = log;
        this.id = host + ":" + ProcessHandle.current().pid();
    }

    public String id() {
        return id;
    }

    /** Serves one run; returns the exit status (0 done, 1 failure). */
    public int run() throws InterruptedException, IOException {
        try (RedisBus bus = RedisBus.connect(busUrl); RedisBus beatBus = RedisBus.connect(busUrl)) {
            ClockSync clock = ClockSync.measure(bus);
            Map<String, String> reg = new LinkedHashMap<>();
            reg.put("agent", id);
            reg.put("run", runId);
            reg.put("host", host);
            reg.put("pid", Long.toString(ProcessHandle.current().pid()));
            reg.put("cpus", FleetLoadEngine.join(cpus.stream().mapToInt(Integer::intValue).toArray()));
            reg.put("io_threads", Integer.toString(ioThreads));
            reg.put("clock_offset_us", Long.toString(clock.offsetMicros()));
            reg.put("clock_rtt_us", Long.toString(clock.rttMicros()));
            reg.put("registered_us", Long.toString(bus.timeMicros()));
            Heartbeat beat = new Heartbeat(beatBus, reg);
            beat.start();
            log.printf("sockbench agent %s: registered for run %s on %s%n", id, runId, busUrl);
            try {
                return serve(bus, reg);
            } finally {
                beat.stopAndForget();
            }
        }
    }

    private int serve(RedisBus bus, Map<String, String> reg) throws InterruptedException, IOException {
        String last = "0-0";
        LocalLoadEngine local = null;
        int index = -1;
        int agents = 0;
        long idleSince = System.nanoTime();
        try {
            while (true) {
                List<RedisBus.Entry> got = bus.read(Protocol.commands(runId), last, 1000);
                if (got.isEmpty() && System.nanoTime() - idleSince > idleTimeoutNs) {
                    log.printf("sockbench agent %s: no command from the coordinator of run %s for %.0f s; exiting%n",
                            id, runId, idleTimeoutNs / 1e9);
                    return 1;
                }
                for (RedisBus.Entry e : got) {
                    last = e.id();
                    idleSince = System.nanoTime();
                    Map<String, String> c = e.fields();
                    String type = c.get("type");
                    if (Protocol.STOP.equals(type)) {
                        log.printf("sockbench agent %s: run %s finished%n", id, runId);
                        return 0;
                    }
                    if (Protocol.ASSIGN.equals(type)) {
                        List<String> list = List.of(c.get("agents").split(","));
                        index = list.indexOf(id);
                        if (index < 0) {
                            log.printf("sockbench agent %s: not needed in run %s (agents %s); exiting%n", id, runId, list);
                            return 0;
                        }
                        agents = list.size();
                        local = engineFor(c);
                        Map<String, String> info = new LinkedHashMap<>(reg);
                        info.put("source_addresses",
                                String.join(",", boundTo.stream().map(InetAddress::getHostAddress).toList()));
                        reply(bus, c, info);
                        continue;
                    }
                    if (local == null) {
                        continue; // a command of a run this agent was not assigned to yet
                    }
                    try {
                        reply(bus, c, handle(bus, local, c, index, agents));
                    } catch (RuntimeException ex) {
                        reply(bus, c, Map.of("error", String.valueOf(ex.getMessage()).replace('\n', ' ')));
                    }
                }
            }
        } finally {
            if (local != null) {
                local.close();
            }
        }
    }

    private LocalLoadEngine engineFor(Map<String, String> c) throws IOException {
        // A coordinator from before --compression sends none: no compression.
        Compression compression = Compression.byUserName(c.getOrDefault("compression", "none")).orElseThrow(
                () -> new IllegalArgumentException("unknown compression in the assignment: " + c.get("compression")));
        Target target = new Target(c.get("url"), Transport.valueOf(c.get("transport").toUpperCase(Locale.ROOT)), compression);
        boundTo = SourceAddresses.parse(sourceAddresses, target);
        Engine engine = Engine.builder(target).ioThreads(ioThreads)
                .connectTimeoutNs(Long.parseLong(c.get("connect_timeout_ns")))
                .connectConcurrency(Integer.parseInt(c.get("connect_concurrency")))
                .readCoalesceNs(Long.parseLong(c.get("read_coalesce_ns")))
                .validate(Boolean.parseBoolean(c.get("validate"))).sourceAddresses(boundTo)
                .churnPool(ChurnPool.of(Double.parseDouble(c.getOrDefault("churn_pct", "0")))).start();
        return new LocalLoadEngine(engine, id, host, cpus);
    }

    private Map<String, String> handle(RedisBus bus, LocalLoadEngine local, Map<String, String> c, int index, int agents)
            throws InterruptedException {
        Map<String, String> out = new LinkedHashMap<>();
        switch (c.get("type")) {
            case Protocol.OPEN -> {
                int n = Integer.parseInt(c.get("n"));
                List<Integer> ids = SlotAssignment.clientIdsOf(n, index, agents);
                // This agent's share must fit its own open-files limit (it may run on another host).
                var limit = OpenFilesLimit.softLimit(OpenFilesLimit.SELF);
                if (limit.isPresent() && OpenFilesLimit.needed(ids.size()) > limit.getAsLong()) {
                    throw new IllegalArgumentException(String.format(Locale.ROOT,
                            "its share of level %d is %d sessions, needing %d open files, but it may hold %d "
                                    + "(ulimit -n); run more agents or lower --levels",
                            n, ids.size(), OpenFilesLimit.needed(ids.size()), limit.getAsLong()));
                }
                ConnectProgress p = local.open(ids, Long.parseLong(c.get("timeout_ns")),
                        Double.parseDouble(c.getOrDefault("connect_rate", "0")));
                out.put("connected", Integer.toString(p.connected()));
                out.put("failed", Integer.toString(p.failed()));
                out.put("first_error", p.firstError() == null ? "" : p.firstError());
                out.put("failures", FleetLoadEngine.encodeReasons(p.failuresByReason()));
            }
            case Protocol.IDLE_SAMPLE -> {
                var s = local.idleSample();
                out.put("heartbeats", Long.toString(s.heartbeats()));
                out.put("open", Integer.toString(s.open()));
                out.put("rss_bytes", s.clientRssBytes() == null ? "" : Long.toString(s.clientRssBytes()));
                out.put("lost_reasons", FleetLoadEngine.encodeReasons(s.lostReasons()));
            }
            case Protocol.OPEN_COUNT -> out.put("open", Integer.toString(local.openConnections()));
            case Protocol.CLOSE -> local.closeAll(Long.parseLong(c.get("grace_ms")));
            case Protocol.POINT -> out.putAll(point(bus, local, c, index, agents));
            default -> throw new IllegalArgumentException("unknown command " + c.get("type"));
        }
        return out;
    }

    private Map<String, String> point(RedisBus bus, LocalLoadEngine local, Map<String, String> c, int index, int agents)
            throws InterruptedException {
        long pointIndex = Long.parseLong(c.get("index"));
        int[] open = FleetLoadEngine.parseIntArray(c.get("open_per_agent"));
        int total = 0;
        for (int n : open) {
            total += n;
        }
        int[] slots = SlotAssignment.slotsOf(open, index);
        PointRequest r = new PointRequest(Double.parseDouble(c.get("rate")), pointIndex,
                Double.parseDouble(c.get("warmup_s")), Double.parseDouble(c.get("step_s")),
                Integer.parseInt(c.get("payload_bytes")), Double.parseDouble(c.get("overload_timeout_ms")), 0, total,
                Boolean.parseBoolean(c.get("all_copies")));
        ClockSync clock = ClockSync.measure(bus);
        long localStart = clock.toLocalNanos(Long.parseLong(c.get("start_us")));
        String sentKey = Protocol.sent(runId, pointIndex);
        boolean[] published = new boolean[1];
        AgentSample s = local.measureShare(r, localStart, total,
                // A connection that closed since the coordinator counted leaves a slot unused.
                rank -> rank < slots.length ? slots[rank] : slots[slots.length - 1],
                NO_WINDOW, counters -> {
                    if (!published[0]) {
                        bus.hset(sentKey, id, Long.toString(counters.get(Count.SENT)), 600);
                        published[0] = true;
                    }
                    Map<String, String> all = bus.hgetAll(sentKey);
                    if (all.size() < agents) {
                        return -1;
                    }
                    return all.values().stream().mapToLong(Long::parseLong).sum();
                });
        Map<String, String> out = new LinkedHashMap<>(CountersCodec.encode(s.counters()));
        out.put("connected", Integer.toString(s.connected()));
        out.put("cpu_pct", Double.toString(s.cpuPct()));
        out.put("steal_pct", s.stealPct() == null ? "" : Double.toString(s.stealPct()));
        out.put("measure_count", Long.toString(s.measureCount()));
        out.put("clock_offset_us", Long.toString(clock.offsetMicros()));
        return out;
    }

    private void reply(RedisBus bus, Map<String, String> command, Map<String, String> fields) {
        Map<String, String> f = new LinkedHashMap<>(fields);
        f.put("agent", id);
        f.put("seq", command.get("seq"));
        f.put("type", command.get("type"));
        bus.append(Protocol.replies(runId), f);
    }

    private static final LoadEngine.WindowListener NO_WINDOW = new LoadEngine.WindowListener() {
        @Override
        public void windowStarted() {
        }

        @Override
        public void windowEnded() {
        }
    };

    /** Keeps the registration alive: an agent whose key expires is lost to the coordinator. */
    private final class Heartbeat extends Thread {
        private final RedisBus bus;
        private final Map<String, String> reg;
        private volatile boolean running = true;

        Heartbeat(RedisBus bus, Map<String, String> reg) {
            super("sockbench-agent-heartbeat");
            setDaemon(true);
            this.bus = bus;
            this.reg = reg;
        }

        @Override
        public void run() {
            while (running) {
                try {
                    bus.putExpiring(Protocol.agentKey(id), reg, Protocol.HEARTBEAT_TTL_MS);
                } catch (BusException e) {
                    log.println("sockbench agent " + id + ": heartbeat failed: " + e.getMessage());
                }
                try {
                    TimeUnit.MILLISECONDS.sleep(Protocol.HEARTBEAT_EVERY_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void stopAndForget() throws InterruptedException {
            running = false;
            interrupt();
            join(2000);
            try {
                bus.delete(Protocol.agentKey(id));
            } catch (BusException ignored) {
                // the key expires anyway
            }
        }
    }
}
