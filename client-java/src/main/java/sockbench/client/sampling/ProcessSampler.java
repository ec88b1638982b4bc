package sockbench.client.sampling;

import java.io.IOException;

/**
 * Samples a process's CPU time and RSS on its own thread every {@code periodMs}, so the
 * controller can take the CPU used between two instants without touching {@code /proc} on
 * the measuring path. CPU over an interval is computed between the samples' own timestamps.
 */
public final class ProcessSampler implements AutoCloseable {

    /** One sample: when (nanoTime), CPU ticks so far, RSS bytes. Null fields mean unreadable. */
    public record Sample(long atNs, long cpuTicks, long rssBytes) {
    }

    private final String pid;
    private final Thread thread;
    private final long periodMs;
    private volatile Sample latest;
    private volatile boolean running = true;

    /**
     * @param pid      process id (or {@code self})
     * @param periodMs sampling period, milliseconds, ≥ 1
     */
    public ProcessSampler(String pid, long periodMs) {
        this.pid = pid;
        this.periodMs = Math.max(1, periodMs);
        this.latest = read();
        this.thread = new Thread(this::loop, "sockbench-sampler-" + pid);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void loop() {
        while (running) {
            try {
                Thread.sleep(periodMs);
            } catch (InterruptedException e) {
                return;
            }
            Sample s = read();
            if (s != null) {
                latest = s;
            }
        }
    }

    private Sample read() {
        try {
            long now = System.nanoTime();
            return new Sample(now, ProcFiles.cpuTicks(pid), ProcFiles.rssBytes(pid));
        } catch (IOException | RuntimeException e) {
            return null; // process gone or not readable
        }
    }

    /** The most recent sample, or null if the process could never be read. */
    public Sample latest() {
        return latest;
    }

    /** CPU used between two samples, percent of one core; null if either is missing or they coincide. */
    public static Double cpuPercent(Sample from, Sample to) {
        if (from == null || to == null || to.atNs() <= from.atNs()) {
            return null;
        }
        double cpuS = (to.cpuTicks() - from.cpuTicks()) / (double) ProcFiles.CLOCK_TICKS_PER_S;
        return Math.max(0, 100.0 * cpuS / ((to.atNs() - from.atNs()) / 1e9));
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
