package sockbench.client.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import sockbench.client.output.JsonResultWriter;
import sockbench.client.sampling.MachineInfo;
import sockbench.client.stats.LevelResult;
import sockbench.client.sweep.ClientInfo;
import sockbench.client.sweep.RunResult;
import sockbench.client.sweep.ServerInfo;
import sockbench.client.sweep.SweepSettings;

/**
 * What one benchmark run writes: the result document, assembled from the run's fixed parts and the
 * levels so far, saved after every level (a crash keeps what was measured) and at the end with the
 * legacy files; then the one line that says where it went.
 */
final class RunOutputs {

    /** What is known when the sweep starts and stays fixed for the run. */
    record Run(String runId, String label, Instant started, MachineInfo machine, ServerInfo server,
               SweepSettings settings) {
    }

    private final Run run;
    private final Function<List<LevelResult>, ClientInfo> clientOf;
    private final List<String> warnings;
    private final Path resultFile;
    private final LegacyOutputOptions legacy;
    private final PrintStream log;
    private final JsonResultWriter json = new JsonResultWriter();

    /**
     * @param clientOf   the client record for the levels so far (a fleet's agents' records grow with them)
     * @param warnings   the run's warnings, shared with the sweep (synchronized: the sweep adds while a level is written)
     * @param resultFile --out, or the default name (RunNames)
     */
    RunOutputs(Run run, Function<List<LevelResult>, ClientInfo> clientOf, List<String> warnings, Path resultFile,
               LegacyOutputOptions legacy, PrintStream log) {
        this.run = run;
        this.clientOf = clientOf;
        this.warnings = warnings;
        this.resultFile = resultFile;
        this.legacy = legacy;
        this.log = log;
    }

    /** Saves the levels so far; a failure is reported and the sweep goes on. */
    void writePartial(List<LevelResult> levelsSoFar) {
        try {
            json.writeFile(result(levelsSoFar), resultFile);
        } catch (IOException e) {
            log.println("sockbench: cannot write partial result " + resultFile + ": " + e.getMessage());
        }
    }

    /** The finished run; client-bound points add a warning at the top, where no reader misses it. */
    RunResult finish(List<LevelResult> levels) {
        RunResult result = result(levels);
        if (result.anyClientBound()) {
            warnings.add(0, String.format(Locale.ROOT, "CLIENT-BOUND points present: the client could not keep its "
                    + "schedule or used >= %.0f%% of its CPUs; those points measure the client, not the server",
                    run.settings().thresholds().clientBoundCpuRatio() * 100));
            result = result(levels);
        }
        return result;
    }

    /** Writes the result file and every legacy file asked for. */
    void write(RunResult result) throws IOException {
        json.writeFile(result, resultFile);
        legacy.write(result);
    }

    /**
     * The last line of a run on stderr, {@code sockbench: wrote <result file>}: the path as given
     * with --out, else the default name relative to the working directory. Callers read it to learn
     * where the result went.
     */
    void announce() {
        log.println("sockbench: wrote " + resultFile);
    }

    private RunResult result(List<LevelResult> levels) {
        List<String> w;
        synchronized (warnings) {
            w = List.copyOf(new LinkedHashSet<>(warnings));
        }
        return new RunResult(run.runId(), run.label(), run.started(), Instant.now(), run.machine(), clientOf.apply(levels),
                run.server(), run.settings(), levels, w);
    }
}
