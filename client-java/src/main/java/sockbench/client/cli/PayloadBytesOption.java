package sockbench.client.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The --payload-bytes option of every command that sends payloads (the benchmark run, firehose,
 * firehose-sender): one doc, one default, one range.
 */
final class PayloadBytesOption {

    /** Largest payload, characters. */
    static final int MAX = 65536;

    @Option(names = "--payload-bytes", paramLabel = "BYTES", defaultValue = "64",
            description = "Payload string size, bytes (ASCII characters), 1..65536; longer if the header needs it. Default: ${DEFAULT-VALUE}.")
    int payloadBytes;

    /** The option's value; outside 1..65536 is a usage error (exit 2). */
    int resolve(CommandSpec spec) {
        Usage.require(spec, payloadBytes >= 1 && payloadBytes <= MAX, "--payload-bytes must be 1.." + MAX);
        return payloadBytes;
    }
}
