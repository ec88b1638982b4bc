package sockbench.client.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** The --payload-bytes option of the firehose commands (sender and counter), and the one range every command checks. */
final class PayloadBytesOption {

    /** Largest payload, characters. */
    static final int MAX = 65536;

    @Option(names = "--payload-bytes", paramLabel = "BYTES", defaultValue = "64",
            description = "Characters per message payload, 1..65536. Default: ${DEFAULT-VALUE}.")
    int payloadBytes;

    /** The option's value; outside 1..65536 is a usage error (exit 2). */
    int resolve(CommandSpec spec) {
        return check(spec, payloadBytes);
    }

    /** {@code bytes} when it is 1..65536; a usage error naming --payload-bytes otherwise. */
    static int check(CommandSpec spec, int bytes) {
        Usage.require(spec, bytes >= 1 && bytes <= MAX, "--payload-bytes must be 1.." + MAX);
        return bytes;
    }
}
