package sockbench.client.cli;

import picocli.CommandLine;

/** Entry point of the runnable jar. Exit status: 0 ok, 1 run failure, 2 usage error. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command tree: the benchmark itself, plus the firehose self-test commands. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new RunCommand());
        cl.addSubcommand("firehose", new FirehoseCommand());
        cl.addSubcommand("firehose-sender", new FirehoseSenderCommand());
        cl.setUsageHelpAutoWidth(true);
        return cl;
    }
}
