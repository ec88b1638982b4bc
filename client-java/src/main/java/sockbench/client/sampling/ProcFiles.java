package sockbench.client.sampling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Readers for the few {@code /proc} files the kit uses: {@code stat} (CPU time), {@code statm}
 * (resident memory; never {@code smaps}, which is slow on big processes) and {@code status}
 * (allowed CPUs). {@code pid} may be {@code "self"}.
 */
public final class ProcFiles {

    /** Clock ticks per second of {@code /proc/PID/stat} times (USER_HZ; 100 on every Linux we target). */
    public static final long CLOCK_TICKS_PER_S = 100;
    /** Page size used by {@code statm}, bytes. */
    public static final long PAGE_BYTES = 4096;

    private ProcFiles() {
    }

    /** utime + stime of the process from {@code /proc/PID/stat}, in clock ticks. */
    public static long cpuTicks(String pid) throws IOException {
        return parseCpuTicks(Files.readString(Path.of("/proc", pid, "stat")));
    }

    /** Parses utime + stime (fields 14 and 15) from a {@code stat} line; the command name may contain spaces. */
    static long parseCpuTicks(String stat) {
        int close = stat.lastIndexOf(')');
        String[] f = stat.substring(close + 2).trim().split("\\s+");
        // f[0] is field 3 (state), so field k is f[k - 3].
        return Long.parseLong(f[14 - 3]) + Long.parseLong(f[15 - 3]);
    }

    /** Resident set size from {@code /proc/PID/statm}, bytes. */
    public static long rssBytes(String pid) throws IOException {
        return parseRssPages(Files.readString(Path.of("/proc", pid, "statm"))) * PAGE_BYTES;
    }

    static long parseRssPages(String statm) {
        return Long.parseLong(statm.trim().split("\\s+")[1]);
    }

    /** The CPUs the process may run on ({@code Cpus_allowed_list} of {@code /proc/PID/status}); empty if unknown. */
    public static List<Integer> allowedCpus(String pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return CpuList.parse(line.substring(line.indexOf(':') + 1));
                }
            }
        } catch (IOException | RuntimeException e) {
            // unknown
        }
        return List.of();
    }

    /** How many CPUs {@code allowed} names; every CPU the JVM sees when it is empty (unknown). */
    public static int cpuCount(List<Integer> allowed) {
        return allowed.isEmpty() ? Runtime.getRuntime().availableProcessors() : allowed.size();
    }

    /** The CPUs this process may run on; every CPU the JVM sees, numbered from 0, when /proc does not say. */
    public static List<Integer> ownCpusOrAll() {
        List<Integer> cpus = allowedCpus("self");
        if (!cpus.isEmpty()) {
            return cpus;
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            all.add(i);
        }
        return all;
    }
}
