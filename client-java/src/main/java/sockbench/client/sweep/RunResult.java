package sockbench.client.sweep;

import java.time.Instant;
import java.util.List;
import sockbench.client.sampling.MachineInfo;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.PointResult;

/**
 * A whole run: one server swept over several levels (schema {@code sockbench.result/6},
 * results/README.md).
 *
 * @param runId      {@code <started compact>-<server>-<runtime>-<codec>-<mode>}
 * @param label      short human label for legends
 * @param startedAt  wall-clock start of the sweep
 * @param finishedAt wall-clock end of the sweep
 * @param machine    where it ran
 * @param client     the load generator
 * @param server     the server under test
 * @param settings   the sweep's parameters
 * @param levels     one entry per level, in the order run
 * @param warnings   every condition a reader must know about
 */
public record RunResult(String runId, String label, Instant startedAt, Instant finishedAt, MachineInfo machine,
                        ClientInfo client, ServerInfo server, SweepSettings settings,
                        List<LevelResult> levels, List<String> warnings) {

    public static final String SCHEMA = "sockbench.result/6";

    /** True when the two processes' CPU sets overlap. */
    public boolean sharedCpus() {
        return client.cpus().stream().anyMatch(server.cpus()::contains);
    }

    public boolean anyClientBound() {
        return levels.stream().flatMap(l -> l.points().stream()).anyMatch(PointResult::clientBound);
    }
}
