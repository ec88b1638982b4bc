package sockbench.client.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import sockbench.client.engine.SlowReaders;
import sockbench.client.engine.Target;
import sockbench.client.engine.TransportMix;
import sockbench.client.sampling.ProcFiles;
import sockbench.client.sweep.ReadyLine;
import sockbench.client.sweep.ServerInfo;
import sockbench.client.websocket.Compression;

/** What the benchmark records about the server under test: its process, its READY line, names and legend label. */
final class ServerOptions {

    @Option(names = "--server-pid", paramLabel = "PID",
            description = "Server process id: samples its CPU %% and RSS from /proc/PID/stat and /proc/PID/statm. Default: none (null in results).")
    Long serverPid;

    @Option(names = "--server-pids", paramLabel = "PID,...", split = ",",
            description = "Every process serving the SockJS app (supervisor/primary and workers), each >= 1: their RSS and CPU "
                    + "are SUMMED for each level's idle record (memory per session, idle CPU during --idle-hold-s). "
                    + "Default: the --server-pid alone.")
    List<Long> serverPids;

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

    /**
     * The processes whose RSS and CPU the idle record sums: --server-pids, else --server-pid, else none
     * (a pid below 1 is a usage error).
     */
    List<Long> idleSampledPids(CommandSpec spec) {
        if (serverPids != null) {
            Usage.require(spec, !serverPids.isEmpty() && serverPids.stream().allMatch(p -> p != null && p >= 1),
                    "--server-pids: a comma list of process ids, each >= 1");
            return List.copyOf(serverPids);
        }
        return serverPid == null ? List.of() : List.of(serverPid);
    }

    /** The READY line, parsed (a usage error when it is not one), or null without --server-ready. */
    ReadyLine ready(CommandSpec spec) {
        return serverReady == null ? null : Usage.parse(spec, "--server-ready", () -> ReadyLine.parse(serverReady));
    }

    /** The server as recorded: the options first, then the READY line's keys, else 'unknown'. */
    ServerInfo server(ReadyLine ready, Target target) {
        Map<String, String> values = ready == null ? Map.of() : ready.values();
        String name = serverName != null ? serverName : values.getOrDefault("server", "unknown");
        String runtime = serverRuntime != null ? serverRuntime : values.getOrDefault("runtime", "unknown");
        String version = values.getOrDefault("runtime_version", "unknown");
        List<Integer> cpus = serverPid == null ? List.of() : ProcFiles.allowedCpus(Long.toString(serverPid));
        return new ServerInfo(name, peer, runtime, version, values.get("codec"), values.get("mode"), target.url(),
                serverPid, cpus, new LinkedHashMap<>(values));
    }

    /**
     * --label, else {@code <server> · <runtime> <version> · <codec> · <mode>} without the unknown
     * parts, then the sessions' transports, compression and slow readers when they are not the plain websocket.
     */
    String label(ServerInfo s, TransportMix transports, Compression compression, SlowReaders slow) {
        if (label != null) {
            return label;
        }
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
        if (!transports.websocketOnly()) { // the sessions' transports are part of what was measured
            b.append(" · ").append(transports.spec());
        }
        if (compression != Compression.NONE) { // so is what the upgrade negotiated
            b.append(" · ").append(compression.userName());
        }
        if (slow.active()) { // so are the slow readers: their run is never read as a plain one
            b.append(" · slow ").append(slow.spec());
        }
        return b.toString();
    }
}
