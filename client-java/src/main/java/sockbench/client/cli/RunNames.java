package sockbench.client.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import sockbench.client.sweep.ServerInfo;

/**
 * The names of one run: its run id and the result file it writes without --out. Both end in the
 * server's {@code <server>-<runtime>-<codec>-<mode>} ({@code na} for a missing codec or mode).
 */
final class RunNames {

    private static final DateTimeFormatter COMPACT =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DATE = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

    private RunNames() {
    }

    /** {@code <started compact UTC>-<server>-<runtime>-<codec>-<mode>}, e.g. 20261125T212400Z-sockbench-tornado-pypy-json-fast. */
    static String runId(Instant started, ServerInfo server) {
        return COMPACT.format(started) + "-" + serverTag(server);
    }

    /** {@code results/<date UTC>-<server>-<runtime>-<codec>-<mode>.json}, relative to the working directory. */
    static Path defaultResultFile(Instant started, ServerInfo server) {
        return Path.of("results", DATE.format(started) + "-" + serverTag(server) + ".json");
    }

    private static String serverTag(ServerInfo s) {
        return s.name() + "-" + s.runtime() + "-" + orNa(s.codec()) + "-" + orNa(s.mode());
    }

    private static String orNa(String s) {
        return s == null ? "na" : s;
    }
}
