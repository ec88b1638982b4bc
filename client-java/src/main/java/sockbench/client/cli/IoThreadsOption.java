package sockbench.client.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The --io-threads option of the commands that hold connections (the benchmark run and the agent): one doc, one default, one range. */
final class IoThreadsOption {

    @Option(names = "--io-threads", paramLabel = "N",
            description = "I/O threads driving the connections, 1..64. Default: the number of CPUs this process may use (at most 8).")
    Integer ioThreads;

    /** The thread count to use: the option's value, else min(8, cpuCount); outside 1..64 is a usage error (exit 2). */
    int resolve(CommandSpec spec, int cpuCount) {
        int threads = ioThreads != null ? ioThreads : Math.min(8, cpuCount);
        if (threads < 1 || threads > 64) {
            throw new ParameterException(spec.commandLine(), "--io-threads must be 1..64");
        }
        return threads;
    }
}
