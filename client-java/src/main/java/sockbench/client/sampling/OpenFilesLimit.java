package sockbench.client.sampling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * The open-files check before a sweep: every session is a socket, so a level whose share for one
 * process exceeds that process's soft RLIMIT_NOFILE fails connection by connection ("Too many
 * open files") minutes into the run. Checked up front instead, with one line saying how many
 * agents the level needs.
 */
public final class OpenFilesLimit {

    /** Files a client process needs besides its sessions: the JVM's jars, selectors, the bus, /proc reads. */
    public static final int SPARE = 64;
    /** Where the running process's limits are; a parameter so the parser can be fed a fixture. */
    public static final Path SELF = Path.of("/proc/self/limits");

    private OpenFilesLimit() {
    }

    /**
     * The soft "Max open files" of a {@code /proc/PID/limits} file; empty when it says unlimited or
     * cannot be read (then nothing is checked).
     */
    public static OptionalLong softLimit(Path limitsFile) {
        try {
            for (String line : Files.readAllLines(limitsFile, StandardCharsets.US_ASCII)) {
                if (line.startsWith("Max open files")) {
                    String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                    return f.length == 0 || f[0].equals("unlimited") ? OptionalLong.empty()
                            : OptionalLong.of(Long.parseLong(f[0]));
                }
            }
        } catch (IOException | RuntimeException e) {
            // unreadable: no check rather than a false refusal
        }
        return OptionalLong.empty();
    }

    /** Open files a process holding {@code sessions} sessions needs: one per session + {@link #SPARE}. */
    public static long needed(long sessions) {
        return sessions + SPARE;
    }

    /**
     * Why level {@code level} cannot run with {@code agents} client processes (each holding ⌈level / agents⌉
     * sessions) under a soft limit of {@code softLimit} open files, as one line; null when it fits.
     */
    public static String refusal(int level, int agents, long softLimit) {
        int processes = Math.max(1, agents);
        long share = (level + (long) processes - 1) / processes;
        long need = needed(share);
        if (need <= softLimit) {
            return null;
        }
        long perProcess = Math.max(1, softLimit - SPARE);
        long agentsNeeded = (level + perProcess - 1) / perProcess;
        return String.format(java.util.Locale.ROOT,
                "sockbench: level %d needs %d open files in one client process but this process may hold %d (ulimit -n); "
                        + "run the level with --agents %d (AGENTS=%d) or lower --levels",
                level, need, softLimit, agentsNeeded, agentsNeeded);
    }
}
