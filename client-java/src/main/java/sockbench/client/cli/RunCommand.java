package sockbench.client.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import sockbench.client.sweep.ClientInfo;
import sockbench.client.sweep.LevelStart;
import sockbench.client.sweep.LoadEngine;
import sockbench.client.sweep.LocalLoadEngine;
import sockbench.client.sweep.ReadyLine;
import sockbench.client.sweep.RunResult;
import sockbench.client.sweep.ServerInfo;
import sockbench.client.sweep.Sweep;
import sockbench.client.sweep.SweepSettings;
import sockbench.client.engine.Engine;
import sockbench.client.engine.Target;
import sockbench.client.engine.Transport;
import sockbench.client.fleet.AgentsMissingException;
import sockbench.client.fleet.BusException;
import sockbench.client.fleet.FleetLoadEngine;
import sockbench.client.fleet.RedisBus;
import sockbench.client.fleet.SourceAddresses;
import sockbench.client.output.JsonResultWriter;
import sockbench.client.output.LegacyCsvWriter;
import sockbench.client.output.LegacyFlotWriter;
import sockbench.client.output.Progress;
import sockbench.client.output.ProfileListWriter;
import sockbench.client.plan.Profile;
import sockbench.client.plan.Ramp;
import sockbench.client.plan.SweepPlan;
import sockbench.client.sampling.MachineInfo;
import sockbench.client.sampling.ProcFiles;
import sockbench.client.sampling.ProcessSampler;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.SearchRules;
import sockbench.client.stats.Thresholds;

/** The benchmark: sweep one server and write the result file. */
@Command(name = "sockbench-client", mixinStandardHelpOptions = true, version = ClientInfo.VERSION,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Ramps the broadcast message rate against one SockJS server, concurrency level by level, "
                + "until the server saturates; writes a sockbench.result/3 JSON file (see results/README.md). "
                + "Progress goes to stderr. Subcommands: firehose (client self-test), firehose-sender.")
public final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--url", paramLabel = "URL",
            description = "SockJS app URL of the server, e.g. http://127.0.0.1:8080/broadcast (http:// or ws://). Required, no default.")
    String url;

    @Option(names = "--transport", paramLabel = "sockjs|raw", defaultValue = "sockjs",
            description = "sockjs: framed /<prefix>/<3 digits>/<session>/websocket; raw: /<prefix>/websocket. Default: ${DEFAULT-VALUE}.")
    String transport;

    @Option(names = "--profile", paramLabel = "NAME", defaultValue = "standard",
            description = "smoke, quick, standard, legacy or full (see client-java/README.md). Default: ${DEFAULT-VALUE}.")
    String profile;

    @Option(names = "--out", paramLabel = "FILE",
            description = "Result JSON file. Default: results/<date>-<server>-<runtime>-<codec>-<mode>.json.")
    Path out;

    @Option(names = "--levels", paramLabel = "N", split = ",",
            description = "Concurrency levels (connections, each >= 1). Default: the profile's.")
    List<Integer> levels;

    @Option(names = "--ramp", paramLabel = "geometric|additive", description = "Rate ramp (profile becomes 'custom'). Default: the profile's.")
    String ramp;

    @Option(names = "--rate-factor", paramLabel = "X", description = "Geometric ramp multiplier, > 1 (profile becomes 'custom'). Default: the profile's (1.25 for legacy with --ramp geometric).")
    Double rateFactor;

    @Option(names = "--start-rate", paramLabel = "MSG/S", description = "First target rate of each level, messages/s sent by all clients together, > 0 (profile becomes 'custom'). Default: the profile's.")
    Double startRate;

    @Option(names = "--max-rate", paramLabel = "MSG/S", description = "A level ends when the next target rate would exceed this, messages/s (profile becomes 'custom'). Default: the profile's.")
    Double maxRate;

    @Option(names = "--step", paramLabel = "SECONDS", description = "Measured window per point, seconds, > 0 (profile becomes 'custom'). Default: the profile's.")
    Double stepS;

    @Option(names = "--settle", paramLabel = "SECONDS", description = "Minimum pause after each window, seconds, >= 0 (profile becomes 'custom'). Default: the profile's.")
    Double settleS;

    @Option(names = "--warmup", paramLabel = "SECONDS", description = "Unrecorded warm-up before each window, seconds, >= 0 (profile becomes 'custom'). Default: the profile's.")
    Double warmupS;

    @Option(names = "--payload-bytes", paramLabel = "BYTES", defaultValue = "64",
            description = "Payload string size, bytes (ASCII characters), 1..65536; longer if the header needs it. Default: ${DEFAULT-VALUE}.")
    int payloadBytes;

    @Option(names = "--connect-timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "Per-connection limit for TCP connect + handshake (+ SockJS 'o'), seconds, > 0. Default: ${DEFAULT-VALUE}.")
    double connectTimeoutS;

    @Option(names = "--connect-concurrency", paramLabel = "N", defaultValue = "100",
            description = "Connections being opened at once, >= 1 (keeps the server's listen backlog from overflowing). Default: ${DEFAULT-VALUE}.")
    int connectConcurrency;

    @Mixin
    IoThreadsOption ioThreads;

    @Option(names = "--read-coalesce-us", paramLabel = "US", defaultValue = "100",
            description = "After an I/O round that found data, wait this long before reading again so each read syscall "
                    + "carries many frames, microseconds, 0..10000 (0 = off; adds at most this much to measured RTTs under load). Default: ${DEFAULT-VALUE}.")
    long readCoalesceUs;

    @Option(names = "--ok-mean-ms", paramLabel = "MS", defaultValue = "200",
            description = "A point is ok while its mean corrected RTT is below this, ms. Default: ${DEFAULT-VALUE}.")
    double okMeanMs;

    @Option(names = "--overload-mean-ms", paramLabel = "MS", defaultValue = "1500",
            description = "Mean corrected RTT at or above this makes a point overloaded, ms. Default: ${DEFAULT-VALUE}.")
    double overloadMeanMs;

    @Option(names = "--overload-timeout-ms", paramLabel = "MS", defaultValue = "5000",
            description = "A message not back within this makes a point overloaded, ms. Default: ${DEFAULT-VALUE}.")
    double overloadTimeoutMs;

    @Option(names = "--refine-steps", paramLabel = "N",
            description = "After the first not-ok point, bisect geometrically between the last ok and that rate "
                    + "this many times, 0..20 (0 = report the grid point). Default: the profile's (4 in standard, 3 elsewhere).")
    Integer refineSteps;

    @Option(names = "--no-confirm",
            description = "Believe the first not-ok point without re-running it on fresh connections. Default: confirm.")
    boolean noConfirm;

    @Option(names = "--no-adaptive-start",
            description = "Start every level at the start rate instead of at next_level_start_fraction of the rate the "
                    + "previous level's saturation predicts (see --list-profiles). The profile name is kept; each level "
                    + "records its start_rate. Default: adaptive where the profile sets a fraction.")
    boolean noAdaptiveStart;

    @Option(names = "--level-start-rates", paramLabel = "N:RATE,...",
            description = "First target rate of the listed levels, messages/s sent by all clients together, each in "
                    + "(0, max rate], e.g. 25:12000,100:4800; overrides the adaptive start for those levels. If a level's "
                    + "first point is not ok (after its re-run), it re-ramps from the start rate. Default: none.")
    String levelStartRates;

    @Option(names = "--list-profiles",
            description = "Print the profiles (levels, ramp, timings, search rules) as one JSON document on stdout and exit. "
                    + "Takes no other option.")
    boolean listProfiles;

    @Option(names = "--validate",
            description = "Debug: check every received frame fully (strict UTF-8, SockJS grammar with escapes); a bad frame "
                    + "closes its connection and is counted as malformed. Costs a String per frame. Default: off.")
    boolean validate;

    @Option(names = "--agents", paramLabel = "N",
            description = "Run as the coordinator of N agent processes (the 'agent' subcommand, 1..256) that hold the "
                    + "connections, client i on agent i mod N, through the Redis bus --bus; the sweep runs on their merged "
                    + "results. Default: none (this process holds every connection).")
    Integer agents;

    @Option(names = "--bus", paramLabel = "URL",
            description = "Redis URL of the fleet's bus, redis://HOST[:PORT][/DB]; needed with --agents. Default: none.")
    String bus;

    @Option(names = "--run-id", paramLabel = "ID",
            description = "Fleet run id the agents join (letters, digits, '.', '_', '-'); agents of another run are ignored. "
                    + "Default: the result's run id.")
    String fleetRunId;

    @Option(names = "--agent-join-timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "How long the coordinator waits for its --agents to register, seconds, > 0; fewer by then: "
                    + "one line and exit status 2. Default: ${DEFAULT-VALUE}.")
    double agentJoinTimeoutS;

    @Option(names = "--source-addresses", paramLabel = "auto|none|IP,...", defaultValue = SourceAddresses.NONE,
            description = "Without --agents: local addresses this process's connections bind to, client i to address i mod "
                    + "count (auto: 127.0.0.2..127.0.0.9 for a loopback server). Agents take their own. Default: ${DEFAULT-VALUE}.")
    String sourceAddresses;

    @Option(names = "--server-pid", paramLabel = "PID",
            description = "Server process id: samples its CPU %% and RSS from /proc/PID/stat and /proc/PID/statm. Default: none (null in results).")
    Long serverPid;

    @Option(names = "--server-ready", paramLabel = "LINE",
            description = "The server's READY line, verbatim; its key=value tokens go to server.ready and give name/runtime/version/codec/mode. Default: none (runtime_version 'unknown', codec and mode null).")
    String serverReady;

    @Option(names = "--server-name", paramLabel = "NAME", description = "Server implementation name. Default: the READY line's 'server', else 'unknown'.")
    String serverName;

    @Option(names = "--server-runtime", paramLabel = "NAME", description = "Server runtime: cpython, pypy, node. Default: the READY line's 'runtime', else 'unknown'.")
    String serverRuntime;

    @Option(names = "--peer", description = "The server is a third-party reference implementation (server.peer = true). Default: false.")
    boolean peer;

    @Option(names = "--label", paramLabel = "TEXT", description = "Legend label. Default: '<server> · <runtime> <version> · <codec> · <mode>'.")
    String label;

    @Option(names = "--legacy-csv", paramLabel = "FILE", description = "Also write the original CSV (concurrency,rate,n,min,mean,max,stdev; uncorrected RTT, ms). Default: not written.")
    Path legacyCsv;

    @Option(names = "--legacy-flot-sent", paramLabel = "FILE", description = "Also write the original flot JSON of sent/s per target rate. Default: not written.")
    Path legacyFlotSent;

    @Option(names = "--legacy-flot-received", paramLabel = "FILE", description = "Also write the original flot JSON of received/s per target rate. Default: not written.")
    Path legacyFlotReceived;

    @Override
    public Integer call() throws Exception {
        if (listProfiles) {
            if (spec.commandLine().getParseResult().matchedOptions().size() > 1) {
                throw new ParameterException(spec.commandLine(), "--list-profiles takes no other option");
            }
            new ProfileListWriter().write(spec.commandLine().getOut());
            return 0;
        }
        if (url == null) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--url=URL'");
        }
        Transport tr = parseEnum(Transport.class, transport, "--transport");
        Target target;
        try {
            target = new Target(url, tr);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--url: " + e.getMessage());
        }
        SweepPlan plan = buildPlan();
        Map<Integer, Double> startRates = Map.of();
        if (levelStartRates != null) {
            try {
                startRates = LevelStart.parse(levelStartRates, plan);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--level-start-rates: " + e.getMessage());
            }
        }
        Thresholds thresholds;
        try {
            thresholds = new Thresholds(okMeanMs, overloadMeanMs, overloadTimeoutMs, 0.95, 0.9);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (payloadBytes < 1 || payloadBytes > 65536) {
            throw new ParameterException(spec.commandLine(), "--payload-bytes must be 1..65536");
        }
        if (!(connectTimeoutS > 0) || connectConcurrency < 1) {
            throw new ParameterException(spec.commandLine(), "--connect-timeout must be > 0 and --connect-concurrency >= 1");
        }
        ReadyLine ready = null;
        if (serverReady != null) {
            try {
                ready = ReadyLine.parse(serverReady);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--server-ready: " + e.getMessage());
            }
        }
        List<Integer> clientCpus = ProcFiles.allowedCpus("self");
        int cores = clientCpus.isEmpty() ? Runtime.getRuntime().availableProcessors() : clientCpus.size();
        List<java.net.InetAddress> sources;
        try {
            sources = SourceAddresses.parse(sourceAddresses, target);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--source-addresses: " + e.getMessage());
        }
        if (agents != null) {
            if (agents < 1 || agents > 256) {
                throw new ParameterException(spec.commandLine(), "--agents must be 1..256");
            }
            if (bus == null) {
                throw new ParameterException(spec.commandLine(), "--agents needs --bus redis://HOST[:PORT][/DB]");
            }
            if (!(agentJoinTimeoutS > 0)) {
                throw new ParameterException(spec.commandLine(), "--agent-join-timeout must be > 0");
            }
        } else if (bus != null || fleetRunId != null) {
            throw new ParameterException(spec.commandLine(), "--bus and --run-id go with --agents N");
        }
        if (bus != null) {
            try {
                RedisBus.checkUrl(bus);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--bus: " + e.getMessage());
            }
        }
        if (fleetRunId != null && !fleetRunId.matches("[A-Za-z0-9._-]{1,200}")) {
            throw new ParameterException(spec.commandLine(), "--run-id: letters, digits, '.', '_' or '-' only");
        }
        int threads = ioThreads.resolve(spec, cores);

        ServerInfo server = serverInfo(ready, target);
        ClientInfo localClient = new ClientInfo(ClientInfo.NAME, ClientInfo.VERSION, System.getProperty("java.version"),
                System.getProperty("java.vendor"), tr.jsonName(), clientCpus, threads, Runtime.getRuntime().maxMemory());
        SearchRules search;
        try {
            search = SearchRules.DEFAULT
                    .withRefineSteps(refineSteps != null ? refineSteps : baseProfile().refineSteps())
                    .withConfirm(!noConfirm && baseProfile().confirm());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--refine-steps: " + e.getMessage());
        }
        SweepSettings settings = new SweepSettings(plan, thresholds, connectTimeoutS, payloadBytes, cores, search, startRates);
        MachineInfo machine = MachineInfo.read();
        Instant started = Instant.now();
        String runId = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(started)
                + "-" + server.name() + "-" + server.runtime() + "-" + orNa(server.codec()) + "-" + orNa(server.mode());
        String legend = label != null ? label : defaultLabel(server);
        Path outFile = out != null ? out : Path.of("results", DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC)
                .format(started) + "-" + server.name() + "-" + server.runtime() + "-" + orNa(server.codec())
                + "-" + orNa(server.mode()) + ".json");

        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        if (!server.cpus().isEmpty() && clientCpus.stream().anyMatch(server.cpus()::contains)) {
            warnings.add("client CPUs " + clientCpus + " overlap server CPUs " + server.cpus()
                    + ": the client competes with the server for CPU");
        }
        if (serverPid != null && server.cpus().isEmpty()) {
            warnings.add("could not read /proc/" + serverPid + "/status: server CPUs unknown");
        }
        Progress progress = new Progress(System.err);
        JsonResultWriter json = new JsonResultWriter();
        CountDownLatch finished = new CountDownLatch(1);

        if (readCoalesceUs < 0 || readCoalesceUs > 10_000) {
            throw new ParameterException(spec.commandLine(), "--read-coalesce-us must be 0..10000");
        }
        String busRunId = fleetRunId != null ? fleetRunId : runId;
        LoadEngine loadEngine;
        try {
            loadEngine = agents == null
                    ? LocalLoadEngine.forThisProcess(new Engine(target, threads, (long) (connectTimeoutS * 1e9),
                            connectConcurrency, readCoalesceUs * 1000, validate, sources))
                    : startFleet(target, busRunId, connectConcurrency);
        } catch (BusException e) {
            System.err.println("sockbench: " + e.getMessage());
            return 1;
        } catch (AgentsMissingException e) {
            System.err.println("sockbench: " + e.getMessage());
            return 2;
        }
        FleetLoadEngine fleet = loadEngine instanceof FleetLoadEngine f ? f : null;
        java.util.function.Function<List<LevelResult>, ClientInfo> clientOf = levelsSoFar -> fleet == null ? localClient
                : localClient.withAgents(fleet.runId(), fleet.records(levelsSoFar));
        try (LoadEngine engine = loadEngine;
             ProcessSampler serverSampler = serverPid == null ? null : new ProcessSampler(Long.toString(serverPid), 100)) {
            if (serverSampler != null && serverSampler.latest() == null) {
                warnings.add("server pid " + serverPid + " is not readable in /proc: server CPU and RSS are null");
            }
            Sweep sweep = new Sweep(engine, settings, serverSampler, progress, warnings, levelsSoFar -> {
                try {
                    json.writeFile(result(runId, legend, started, machine, clientOf.apply(levelsSoFar), server, settings,
                            levelsSoFar, warnings), outFile);
                } catch (java.io.IOException e) {
                    System.err.println("sockbench: cannot write partial result " + outFile + ": " + e.getMessage());
                }
            });
            // Ctrl-C / SIGTERM: finish the current point, write what we have, then exit.
            Thread hook = new Thread(() -> {
                sweep.abort();
                try {
                    finished.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException ignored) {
                    // exiting anyway
                }
            });
            Runtime.getRuntime().addShutdownHook(hook);
            List<LevelResult> levelResults;
            try {
                levelResults = sweep.run();
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException ignored) {
                    // shutting down already
                }
            }
            ClientInfo client = clientOf.apply(levelResults);
            RunResult result = result(runId, legend, started, machine, client, server, settings, levelResults, warnings);
            if (result.anyClientBound()) {
                warnings.add(0, "CLIENT-BOUND points present: the client could not keep its schedule or used >= 90% of its CPUs; "
                        + "those points measure the client, not the server");
                result = result(runId, legend, started, machine, client, server, settings, levelResults, warnings);
            }
            json.writeFile(result, outFile);
            if (legacyCsv != null) {
                new LegacyCsvWriter().writeFile(result, legacyCsv);
            }
            if (legacyFlotSent != null) {
                new LegacyFlotWriter(LegacyFlotWriter.Series.SENT).writeFile(result, legacyFlotSent);
            }
            if (legacyFlotReceived != null) {
                new LegacyFlotWriter(LegacyFlotWriter.Series.RECEIVED).writeFile(result, legacyFlotReceived);
            }
            progress.warnings(result.warnings(), result.anyClientBound());
            System.err.println("sockbench: wrote " + outFile);
            return levelResults.stream().anyMatch(l -> "agent_lost".equals(l.endReason())) ? 1 : 0;
        } catch (BusException e) {
            System.err.println("sockbench: " + e.getMessage());
            return 1;
        } finally {
            finished.countDown();
        }
    }

    private FleetLoadEngine startFleet(Target target, String busRunId, int connectConcurrency)
            throws AgentsMissingException, InterruptedException {
        RedisBus redis = RedisBus.connect(bus);
        Map<String, String> assign = new LinkedHashMap<>();
        assign.put("url", target.url());
        assign.put("transport", target.transport().jsonName());
        assign.put("connect_timeout_ns", Long.toString((long) (connectTimeoutS * 1e9)));
        // The handshake limit protects the server's listen backlog: the agents share it.
        assign.put("connect_concurrency", Integer.toString(Math.max(1, connectConcurrency / agents)));
        assign.put("read_coalesce_ns", Long.toString(readCoalesceUs * 1000));
        assign.put("validate", Boolean.toString(validate));
        System.err.printf("sockbench: coordinator of run %s waiting for %d agent(s) on %s%n", busRunId, agents, bus);
        try {
            return FleetLoadEngine.start(redis, busRunId, agents, (long) (agentJoinTimeoutS * 1e9), assign, System.err);
        } catch (AgentsMissingException | RuntimeException | InterruptedException e) {
            redis.close();
            throw e;
        }
    }

    /** CPUs this process may run on; every CPU the JVM sees when /proc does not say. */
    static List<Integer> allowedCpus() {
        List<Integer> cpus = ProcFiles.allowedCpus("self");
        if (!cpus.isEmpty()) {
            return cpus;
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            all.add(i);
        }
        return all;
    }

    private static RunResult result(String runId, String label, Instant started, MachineInfo machine, ClientInfo client,
                                    ServerInfo server, SweepSettings settings, List<LevelResult> levels,
                                    List<String> warnings) {
        List<String> w;
        synchronized (warnings) {
            w = List.copyOf(new java.util.LinkedHashSet<>(warnings));
        }
        return new RunResult(runId, label, started, Instant.now(), machine, client, server, settings, levels, w);
    }

    private Profile baseProfile() {
        return parseEnum(Profile.class, profile, "--profile");
    }

    private SweepPlan buildPlan() {
        SweepPlan p = baseProfile().plan();
        boolean custom = ramp != null || rateFactor != null || startRate != null || maxRate != null
                || stepS != null || settleS != null || warmupS != null;
        Ramp r = ramp != null ? parseEnum(Ramp.class, ramp, "--ramp") : p.ramp();
        double factor = rateFactor != null ? rateFactor : (p.ramp() == Ramp.GEOMETRIC ? p.rateFactor() : 1.25);
        try {
            return new SweepPlan(custom ? "custom" : p.profile(), levels != null ? levels : p.levels(), r, factor,
                    startRate != null ? startRate : p.startRate(), stepS != null ? stepS : p.stepS(),
                    settleS != null ? settleS : p.settleS(), warmupS != null ? warmupS : p.warmupS(),
                    maxRate != null ? maxRate : p.maxRate(),
                    noAdaptiveStart || r != Ramp.GEOMETRIC ? null : p.nextLevelStartFraction());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private ServerInfo serverInfo(ReadyLine ready, Target target) {
        Map<String, String> values = ready == null ? Map.of() : ready.values();
        String name = serverName != null ? serverName : values.getOrDefault("server", "unknown");
        String runtime = serverRuntime != null ? serverRuntime : values.getOrDefault("runtime", "unknown");
        String version = values.getOrDefault("runtime_version", "unknown");
        List<Integer> cpus = serverPid == null ? List.of() : ProcFiles.allowedCpus(Long.toString(serverPid));
        return new ServerInfo(name, peer, runtime, version, values.get("codec"), values.get("mode"), target.url(),
                serverPid, cpus, new LinkedHashMap<>(values));
    }

    private static String defaultLabel(ServerInfo s) {
        StringBuilder b = new StringBuilder(s.name()).append(" · ").append(s.runtime());
        if (!"unknown".equals(s.runtimeVersion())) {
            b.append(' ').append(s.runtimeVersion());
        }
        if (s.codec() != null) {
            b.append(" · ").append(s.codec());
        }
        if (s.mode() != null) {
            b.append(" · ").append(s.mode());
        }
        return b.toString();
    }

    private static String orNa(String s) {
        return s == null ? "na" : s;
    }

    private <E extends Enum<E>> E parseEnum(Class<E> type, String value, String option) {
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            List<String> names = new ArrayList<>();
            for (E c : type.getEnumConstants()) {
                names.add(c.name().toLowerCase(Locale.ROOT));
            }
            throw new ParameterException(spec.commandLine(), option + ": '" + value + "' is not one of " + names);
        }
    }
}
