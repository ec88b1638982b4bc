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
        cl.addSubcommand("agent", new AgentCommand());
        cl.setUsageHelpAutoWidth(true);
        // A typo: the error, suggestions, then the full usage, all on stderr; exit status 2.
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println(c.getColorScheme().errorText(ex.getMessage()));
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, c.getErr());
            c.usage(c.getErr());
            c.getErr().flush();
            return 2;
        });
        return cl;
    }
}
