package sockbench.client.sampling;

import java.io.IOException;
import java.util.List;

/**
 * Several processes read as one: their CPU ticks and RSS summed, for a server that serves from
 * more than one process (a supervisor or primary and its workers, {@code --server-pids}). Read on
 * demand (the idle hold reads it at its start and end), not on a sampling thread.
 */
public final class ProcessGroup {

    private final List<String> pids;

    /** @param pids process ids (or {@code self}), at least one */
    public ProcessGroup(List<String> pids) {
        if (pids.isEmpty()) {
            throw new IllegalArgumentException("a process group needs at least one pid");
        }
        this.pids = List.copyOf(pids);
    }

    public List<String> pids() {
        return pids;
    }

    /**
     * The group now: CPU ticks and RSS summed over every process; null when any of them cannot be
     * read (a sum missing a worker would read as the server shrinking).
     */
    public ProcessSampler.Sample read() {
        long ticks = 0;
        long rss = 0;
        long now = System.nanoTime();
        try {
            for (String pid : pids) {
                ticks += ProcFiles.cpuTicks(pid);
                rss += ProcFiles.rssBytes(pid);
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return new ProcessSampler.Sample(now, ticks, rss);
    }
}
