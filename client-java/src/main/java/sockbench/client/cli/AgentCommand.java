package sockbench.client.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sockbench.client.fleet.Agent;
import sockbench.client.fleet.BusException;
import sockbench.client.fleet.RedisBus;
import sockbench.client.fleet.SourceAddresses;
import sockbench.client.sampling.MachineInfo;
import sockbench.client.sampling.ProcFiles;

/** One agent of a fleet run: holds a share of the connections for the coordinator (the benchmark run with --agents). */
@Command(name = "agent", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Joins fleet run RUN_ID on the Redis bus, holds client i of every level for i mod A == its index, "
                + "runs its share of every point and sends back its counts and RTT histograms. Serves one run, then exits "
                + "(0 done, 1 bus unreachable or no coordinator, 2 usage error).")
public final class AgentCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--bus", paramLabel = "URL", required = true,
            description = "Redis URL of the run's bus, redis://HOST[:PORT][/DB]. Required.")
    String bus;

    @Option(names = "--run-id", paramLabel = "ID", required = true,
            description = "The run to join (the coordinator prints it; the bench runner passes it). Required.")
    String runId;

    @Option(names = "--source-addresses", paramLabel = "auto|none|IP,...", defaultValue = SourceAddresses.AUTO,
            description = "Local addresses the connections bind to, client i to address i mod count (one address has "
                    + "~28,000 ports towards one server port). auto: 127.0.0.2..127.0.0.9 for a loopback server, the "
                    + "kernel's choice otherwise; none: never bind. Default: ${DEFAULT-VALUE}.")
    String sourceAddresses;

    @Mixin
    IoThreadsOption ioThreads;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS", defaultValue = "600",
            description = "Exit (status 1) when no command arrives for this long, seconds, > 0. Default: ${DEFAULT-VALUE}.")
    double idleTimeoutS;

    @Override
    public Integer call() throws Exception {
        Usage.parse(spec, "--bus", () -> RedisBus.checkUrl(bus));
        Usage.parse(spec, "--source-addresses", () -> {
            SourceAddresses.check(sourceAddresses);
            return sourceAddresses;
        });
        Usage.require(spec, idleTimeoutS > 0, "--idle-timeout must be > 0");
        List<Integer> cpus = ProcFiles.ownCpusOrAll();
        int threads = ioThreads.resolve(spec, cpus.size());
        try {
            return new Agent(bus, runId, sourceAddresses, cpus, threads, (long) (idleTimeoutS * 1e9),
                    MachineInfo.read().hostname(), System.err).run();
        } catch (BusException e) {
            System.err.println("sockbench agent: " + e.getMessage());
            return 1;
        }
    }

}
