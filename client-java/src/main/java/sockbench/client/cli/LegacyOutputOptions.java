package sockbench.client.cli;

import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;
import sockbench.client.output.LegacyCsvWriter;
import sockbench.client.output.LegacyFlotWriter;
import sockbench.client.sweep.RunResult;

/** The original client's file formats, written beside the result file when asked for. */
final class LegacyOutputOptions {

    @Option(names = "--legacy-csv", paramLabel = "FILE", description = "Also write the original CSV (concurrency,rate,n,min,mean,max,stdev; uncorrected RTT, ms). Default: not written.")
    Path legacyCsv;

    @Option(names = "--legacy-flot-sent", paramLabel = "FILE", description = "Also write the original flot JSON of sent/s per target rate. Default: not written.")
    Path legacyFlotSent;

    @Option(names = "--legacy-flot-received", paramLabel = "FILE", description = "Also write the original flot JSON of received/s per target rate. Default: not written.")
    Path legacyFlotReceived;

    /** Writes every legacy file asked for. */
    void write(RunResult result) throws IOException {
        if (legacyCsv != null) {
            new LegacyCsvWriter().writeFile(result, legacyCsv);
        }
        if (legacyFlotSent != null) {
            new LegacyFlotWriter(LegacyFlotWriter.Series.SENT).writeFile(result, legacyFlotSent);
        }
        if (legacyFlotReceived != null) {
            new LegacyFlotWriter(LegacyFlotWriter.Series.RECEIVED).writeFile(result, legacyFlotReceived);
        }
    }
}
