package sockbench.client.cli;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import sockbench.client.sweep.ServerInfo;

/**
 * The name of one run: its run id, ending in the server's {@code <server>-<runtime>-<codec>-<mode>}
 * ({@code na} for a missing codec or mode). Result file names are not made here: the caller gives
 * --out, and the bench runner's bench/results_io.py is the one rule for the files it keeps.
 */
final class RunNames {

    private static final DateTimeFormatter COMPACT =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private RunNames() {
    }

    /** {@code <started compact UTC>-<server>-<runtime>-<codec>-<mode>}, e.g. 20261125T212400Z-sockbench-tornado-pypy-json-fast. */
    static String runId(Instant started, ServerInfo server) {
        return COMPACT.format(started) + "-" + serverTag(server);
    }

    private static String serverTag(ServerInfo s) {
        return s.name() + "-" + s.runtime() + "-" + orNa(s.codec()) + "-" + orNa(s.mode());
    }

    private static String orNa(String s) {
        return s == null ? "na" : s;
    }
}
