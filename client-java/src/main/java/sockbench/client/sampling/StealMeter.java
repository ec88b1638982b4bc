package sockbench.client.sampling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Hypervisor steal time of the whole machine, from the aggregate {@code cpu} line of
 * {@code /proc/stat}: the time the hypervisor ran something else while this VM's vCPUs wanted
 * to run. A point measured while the host stole several percent of the CPU measured the host,
 * not the server; the sweep records it per point and warns above a threshold.
 */
public final class StealMeter {

    /** Cumulative CPU times of all CPUs, clock ticks: their total and the steal part. */
    public record Times(long total, long steal) {
    }

    private StealMeter() {
    }

    /** The machine's CPU times now, or null when {@code /proc/stat} cannot be read. */
    public static Times read() {
        try {
            return parse(Files.readString(Path.of("/proc/stat")));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Parses the {@code cpu} line: user nice system idle iowait irq softirq steal [guest guest_nice].
     * Total is the sum of the first eight (guest time is already counted in user and nice).
     *
     * @throws IllegalArgumentException if there is no well-formed {@code cpu} line
     */
    public static Times parse(String procStat) {
        for (String line : procStat.split("\n")) {
            if (line.startsWith("cpu ")) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 9) {
                    throw new IllegalArgumentException("cpu line has no steal column: " + line);
                }
                long total = 0;
                for (int i = 1; i <= 8; i++) {
                    total += Long.parseLong(f[i]);
                }
                return new Times(total, Long.parseLong(f[8]));
            }
        }
        throw new IllegalArgumentException("no aggregate cpu line in /proc/stat");
    }

    /** Steal between two readings, percent of all CPU time in between; null if either is missing or no time passed. */
    public static Double percent(Times before, Times after) {
        if (before == null || after == null || after.total() <= before.total()) {
            return null;
        }
        return 100.0 * (after.steal() - before.steal()) / (after.total() - before.total());
    }
}
