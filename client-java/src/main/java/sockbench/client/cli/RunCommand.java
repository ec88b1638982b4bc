package sockbench.client.cli;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sockbench.client.engine.ChurnPool;
import sockbench.client.engine.Engine;
import sockbench.client.engine.SlowReaders;
import sockbench.client.engine.Target;
import sockbench.client.engine.Transport;
import sockbench.client.engine.TransportMix;
import sockbench.client.fleet.AgentFailedException;
import sockbench.client.fleet.AgentsMissingException;
import sockbench.client.fleet.BusException;
import sockbench.client.fleet.FleetLoadEngine;
import sockbench.client.fleet.SourceAddresses;
import sockbench.client.output.ProfileListWriter;
import sockbench.client.output.Progress;
import sockbench.client.plan.Profile;
import sockbench.client.plan.SweepPlan;
import sockbench.client.sampling.MachineInfo;
import sockbench.client.sampling.OpenFilesLimit;
import sockbench.client.sampling.ProcFiles;
import sockbench.client.sampling.ProcessGroup;
import sockbench.client.sampling.ProcessSampler;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.Thresholds;
import sockbench.client.sweep.ClientInfo;
import sockbench.client.sweep.LoadEngine;
import sockbench.client.sweep.LocalLoadEngine;
import sockbench.client.sweep.RunResult;
import sockbench.client.sweep.ServerInfo;
import sockbench.client.sweep.Sweep;
import sockbench.client.sweep.SweepSettings;
import sockbench.client.websocket.Compression;

/**
 * The benchmark: sweep one server and write the result file. Its options come in groups (the
 * mixins), each checking its own values; this class puts the run together in that order:
 * settings, engine (this process or a fleet), sweep, outputs.
 */
@Command(name = "sockbench-client", mixinStandardHelpOptions = true, version = ClientInfo.VERSION,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Ramps the broadcast message rate against one SockJS server, concurrency level by level, "
                + "until the server saturates; writes a sockbench.result/6 JSON file (see results/README.md). "
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

    @Option(names = "--transports", paramLabel = "MIX", defaultValue = "websocket",
            description = "Which SockJS transport each session uses: one name (websocket, xhr-streaming, eventsource, "
                    + "xhr-polling) or weighted entries, e.g. websocket:80,xhr-streaming:10,eventsource:5,xhr-polling:5 "
                    + "(integer weights 0..1000000, client i gets the i-th of an even, deterministic interleaving). "
                    + "HTTP transports need --transport sockjs; a fleet (--agents) runs websocket sessions only. Default: ${DEFAULT-VALUE}.")
    String transports;

    @Option(names = "--slow-clients", paramLabel = "PCT%:KIB",
            description = "Slow readers: PCT percent of each level's sessions (0 < PCT <= 50; ids 0, 100/PCT, ...) read "
                    + "at most KIB KiB/s each (1..1000000), so the server must buffer for them or cut them off. They never "
                    + "send and their copies are kept apart: the points' verdicts and figures are the other sessions'; "
                    + "each point records theirs as slow_clients (docs/slow-readers.md). Websocket sessions only; not with "
                    + "--churn or --agents. "
                    + "Default: none.")
    String slowClients;

    @Option(names = "--check-slow-clients",
            description = "Check --slow-clients (with --transports, --churn, --levels) and print its canonical form "
                    + "(PCT%%:KIB) on stdout, then exit (exit 2 with the reason when it is wrong). The bench runner asks "
                    + "this before it starts a server.")
    boolean checkSlowClients;

    @Option(names = "--profile", paramLabel = "NAME", defaultValue = "standard", completionCandidates = ProfileNames.class,
            description = "${COMPLETION-CANDIDATES} (see client-java/README.md). Default: ${DEFAULT-VALUE}.")
    String profile;

    @Option(names = "--out", paramLabel = "FILE",
            description = "Result JSON file (required): its name is the caller's to choose (the bench runner names every file it keeps; bench/results_io.py).")
    Path out;

    @Mixin
    PlanOptions plan;

    @Mixin
    ConnectionOptions connection;

    @Mixin
    ThresholdOptions thresholds;

    @Mixin
    SearchOptions search;

    @Option(names = "--list-profiles",
            description = "Print the profiles (levels, ramp, timings, search rules) as one JSON document on stdout and exit. "
                    + "Takes no other option.")
    boolean listProfiles;

    @Option(names = "--check-transports",
            description = "Check --transports (and --transport) and print the mix's canonical form on stdout, then exit "
                    + "(exit 2 with the reason when it is wrong). The bench runner asks this before it starts a server.")
    boolean checkTransports;

    @Option(names = "--validate",
            description = "Debug: check every received frame fully (strict UTF-8, SockJS grammar with escapes); a bad frame "
                    + "closes its connection and is counted as malformed. Costs a String per frame. Default: off.")
    boolean validate;

    @Mixin
    FleetOptions fleet;

    @Option(names = "--source-addresses", paramLabel = "auto|none|IP,...", defaultValue = SourceAddresses.NONE,
            description = "Without --agents: local addresses this process's connections bind to, client i to address i mod "
                    + "count (auto: 127.0.0.2..127.0.0.9 for a loopback server). Agents take their own. Default: ${DEFAULT-VALUE}.")
    String sourceAddresses;

    @Mixin
    ServerOptions server;

    @Mixin
    LegacyOutputOptions legacy;

    /** The profile names for --profile's help, from the one table. */
    static final class ProfileNames extends ArrayList<String> {
        ProfileNames() {
            for (Profile p : Profile.values()) {
                add(p.jsonName());
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        if (listProfiles) {
            Usage.require(spec, spec.commandLine().getParseResult().matchedOptions().size() == 1,
                    "--list-profiles takes no other option");
            new ProfileListWriter().write(spec.commandLine().getOut());
            return 0;
        }
        // Every option is checked before anything starts: a bad value is a usage error (exit 2).
        Transport tr = Usage.parseEnum(spec, Transport.class, transport, "--transport");
        TransportMix mix = Usage.parse(spec, "--transports", () -> TransportMix.parse(transports));
        Usage.require(spec, !mix.anyHttp() || tr == Transport.SOCKJS,
                "--transports " + mix.spec() + " has HTTP transports: they need --transport sockjs");
        if (checkTransports) {
            spec.commandLine().getOut().println(mix.spec());
            spec.commandLine().getOut().flush();
            return 0;
        }
        SlowReaders slow = slowClients == null ? SlowReaders.NONE
                : Usage.parse(spec, "--slow-clients", () -> SlowReaders.parse(slowClients));
        Usage.require(spec, !checkSlowClients || slow.active(), "--check-slow-clients needs --slow-clients PCT%:KIB");
        Usage.require(spec, url != null || checkSlowClients, "Missing required option: '--url=URL'");
        Compression compression = connection.compression(spec);
        Usage.require(spec, compression == Compression.NONE || mix.websocketOnly(),
                "--compression " + compression.userName() + " compresses websocket sessions only: use --transports websocket");
        Profile base = Usage.parseEnum(spec, Profile.class, profile, "--profile");
        SweepPlan sweepPlan = plan.plan(spec, base, search.adaptiveStart());
        String slowRefusal = slowReadersRefusal(slow, sweepPlan, fleet.coordinating(), mix);
        if (slowRefusal != null) {
            // One line, as the runner shows it (its SLOW_CLIENTS= check asks this very code).
            spec.commandLine().getErr().println(slowRefusal);
            spec.commandLine().getErr().flush();
            return 2;
        }
        if (checkSlowClients) {
            spec.commandLine().getOut().println(slow.spec());
            spec.commandLine().getOut().flush();
            return 0;
        }
        Target target = Usage.parse(spec, "--url", () -> new Target(url, tr, compression));
        if (sweepPlan.churnPct() > 0 && !sweepPlan.allCopies()) {
            // Churn is judged by what it does to the other sessions' copies: the own-copy verdict
            // would not see it. One line, as the runner's refusal is.
            spec.commandLine().getErr().println("--churn needs the all-copies verdict (PROFILE=sessions or --all-copies)");
            spec.commandLine().getErr().flush();
            return 2;
        }
        Map<Integer, Double> ceilings = search.clientCeilings(spec, sweepPlan);
        Map<Integer, Double> startRates = search.levelStartRates(spec, sweepPlan, !ceilings.isEmpty() && !plan.maxRateGiven());
        Thresholds limits = thresholds.thresholds(spec);
        connection.check(spec);
        ServerInfo serverInfo = server.server(server.ready(spec), target);
        List<Long> idlePids = server.idleSampledPids(spec);
        List<Integer> clientCpus = ProcFiles.allowedCpus("self");
        int cores = ProcFiles.cpuCount(clientCpus);
        List<InetAddress> sources = Usage.parse(spec, "--source-addresses", () -> SourceAddresses.parse(sourceAddresses, target));
        fleet.check(spec);
        Usage.require(spec, mix.websocketOnly() || !fleet.coordinating(),
                "--transports " + mix.spec() + ": a fleet (--agents) runs websocket sessions only so far; run one client process");
        int threads = connection.ioThreads.resolve(spec, cores);
        Usage.require(spec, out != null, "Missing required option: '--out=FILE'");
        SweepSettings settings = SweepSettings.builder(sweepPlan).thresholds(limits)
                .connectTimeoutS(connection.connectTimeoutS).payloadBytes(connection.payload.payloadBytes).clientCores(cores)
                .search(search.search(spec, base)).levelStartRates(startRates)
                .clientCeilings(ceilings).maxRateGiven(plan.maxRateGiven()).transports(mix).compression(compression)
                .slowReaders(slow).build();

        // Every session is a socket: a level this process (or each agent) cannot hold would fail
        // connection by connection minutes in; refuse it now, in one line (exit 2, no stack trace).
        // A coordinator holds no sessions: each agent checks its own share against its own limit
        // (agents on other hosts may have other limits), so only a lone client checks here.
        String tooFewFiles = fleet.coordinating() ? null : openFilesRefusal(sweepPlan, mix);
        if (tooFewFiles != null) {
            System.err.println(tooFewFiles);
            return 2;
        }

        ClientInfo localClient = new ClientInfo(ClientInfo.NAME, ClientInfo.VERSION, System.getProperty("java.version"),
                System.getProperty("java.vendor"), tr.jsonName(), clientCpus, threads, Runtime.getRuntime().maxMemory());
        MachineInfo machine = MachineInfo.read();
        Instant started = Instant.now();
        String runId = RunNames.runId(started, serverInfo);
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        if (!serverInfo.cpus().isEmpty() && clientCpus.stream().anyMatch(serverInfo.cpus()::contains)) {
            warnings.add("client CPUs " + clientCpus + " overlap server CPUs " + serverInfo.cpus()
                    + ": the client competes with the server for CPU");
        }
        if (server.serverPid != null && serverInfo.cpus().isEmpty()) {
            warnings.add("could not read /proc/" + server.serverPid + "/status: server CPUs unknown");
        }

        LoadEngine loadEngine;
        try {
            loadEngine = fleet.coordinating()
                    ? fleet.start(target, fleet.busRunId(runId), connection, validate, sweepPlan.churnPct(), System.err)
                    : LocalLoadEngine.forThisProcess(Engine.builder(target).ioThreads(threads)
                            .connectTimeoutNs(connection.connectTimeoutNs()).connectConcurrency(connection.connectConcurrency)
                            .readCoalesceNs(connection.readCoalesceNs()).validate(validate).sourceAddresses(sources)
                            .churnPool(ChurnPool.of(sweepPlan.churnPct())).transports(mix).slowReaders(slow).start());
        } catch (BusException e) {
            System.err.println("sockbench: " + e.getMessage());
            return 1;
        } catch (AgentsMissingException e) {
            System.err.println("sockbench: " + e.getMessage());
            return 2;
        }
        Function<List<LevelResult>, ClientInfo> clientOf = loadEngine instanceof FleetLoadEngine f
                ? levelsSoFar -> localClient.withAgents(f.runId(), f.records(levelsSoFar))
                : levelsSoFar -> localClient;
        RunOutputs outputs = new RunOutputs(
                new RunOutputs.Run(runId, server.label(serverInfo, mix, compression, slow), started, machine, serverInfo, settings),
                clientOf, warnings, out, legacy, System.err);
        return sweep(loadEngine, settings, warnings, outputs, idlePids);
    }

    /**
     * Why {@code slow} cannot run with this plan, in one line, or null when it can. Churn and slow
     * readers are refused together: both take sessions out of the point's figures by id, and a slow
     * churning session would measure neither. Slow readers are websocket sessions: with a mix, the
     * slow ids (every 10th for 10 %) fall in step with the mix's cycle (80/20 is a cycle of 5), so
     * one transport would get every slow session. A fleet does not carry the slow readers'
     * counters on its bus yet. A level of one session would have no healthy session to measure.
     */
    static String slowReadersRefusal(SlowReaders slow, SweepPlan plan, boolean agents, TransportMix mix) {
        if (!slow.active()) {
            return null;
        }
        if (!mix.websocketOnly()) {
            return "--slow-clients " + slow.spec() + " runs on websocket sessions only (--transports websocket), not "
                    + mix.spec();
        }
        if (plan.churnPct() > 0) {
            return "--slow-clients " + slow.spec() + " and --churn together are not supported: run them separately";
        }
        if (agents) {
            return "--slow-clients " + slow.spec() + ": a fleet (--agents) runs no slow readers so far; run one client process";
        }
        int smallest = plan.levels().stream().mapToInt(Integer::intValue).min().orElse(0);
        if (smallest < 2) {
            return "--slow-clients " + slow.spec() + " needs levels of at least 2 sessions (level " + smallest
                    + " would have no healthy session to measure)";
        }
        return null;
    }

    /**
     * The open-files refusal of the plan's largest level for this lone client's soft limit, or null when
     * it fits. An HTTP session holds two sockets (receiving and xhr_send), a websocket one.
     */
    static String openFilesRefusal(SweepPlan plan, TransportMix mix) {
        var limit = OpenFilesLimit.softLimit(OpenFilesLimit.SELF);
        if (limit.isEmpty()) {
            return null;
        }
        int largest = plan.levels().stream().mapToInt(Integer::intValue).max().orElse(0);
        long http = 0;
        for (var t : mix.transports()) {
            if (t.http() != null) {
                http += mix.sessionsOf(t, largest);
            }
        }
        if (http == 0) {
            return OpenFilesLimit.refusal(largest, 1, limit.getAsLong());
        }
        long need = OpenFilesLimit.needed(largest + http);
        return need <= limit.getAsLong() ? null : String.format(java.util.Locale.ROOT,
                "sockbench: level %d with --transports %s needs %d open files (%d HTTP sessions hold two sockets each) "
                        + "but this process may hold %d (ulimit -n); lower --levels",
                largest, mix.spec(), need, http, limit.getAsLong());
    }

    /** Runs the sweep on the engine (closed at the end) and writes the outputs; exit status 1 when an agent was lost. */
    private int sweep(LoadEngine loadEngine, SweepSettings settings, List<String> warnings, RunOutputs outputs,
                      List<Long> idlePids) throws Exception {
        ProcessGroup serverGroup = idlePids.isEmpty() ? null
                : new ProcessGroup(idlePids.stream().map(String::valueOf).toList());
        if (serverGroup != null && settings.plan().idleHoldS() > 0 && serverGroup.read() == null) {
            warnings.add("server pids " + idlePids + " are not all readable in /proc: the idle record's server CPU and RSS are null");
        }
        Long serverPid = server.serverPid;
        Progress progress = new Progress(System.err);
        ShutdownAbort shutdown = new ShutdownAbort();
        try (LoadEngine engine = loadEngine;
             ProcessSampler serverSampler = serverPid == null ? null : new ProcessSampler(Long.toString(serverPid), 100)) {
            if (serverSampler != null && serverSampler.latest() == null) {
                warnings.add("server pid " + serverPid + " is not readable in /proc: server CPU and RSS are null");
            }
            Sweep sweep = new Sweep(engine, settings, serverSampler, serverGroup, progress, warnings, outputs::writePartial);
            List<LevelResult> levelResults = shutdown.run(sweep);
            RunResult result = outputs.finish(levelResults);
            outputs.write(result);
            progress.warnings(result.warnings(), result.anyClientBound());
            outputs.announce();
            return levelResults.stream().anyMatch(l -> "agent_lost".equals(l.endReason())) ? 1 : 0;
        } catch (BusException | AgentFailedException e) {
            System.err.println("sockbench: " + e.getMessage());
            return 1;
        } finally {
            shutdown.done();
        }
    }
}
