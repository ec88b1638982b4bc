package sockbench.client.engine;

import java.util.concurrent.atomic.AtomicInteger;

/** Counts how the connections of one level opened; written by the I/O threads, read by the controller. */
public final class ConnectProgress {
    final int requested;
    final AtomicInteger connected = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    /** First failure reason seen, for the warning line. */
    volatile String firstError;

    ConnectProgress(int requested) {
        this.requested = requested;
    }

    /** A finished level opening as reported by others (the agents of a fleet, added up). */
    public static ConnectProgress of(int requested, int connected, int failed, String firstError) {
        ConnectProgress p = new ConnectProgress(requested);
        p.connected.set(connected);
        p.failed.set(failed);
        p.firstError = firstError;
        return p;
    }

    public int requested() {
        return requested;
    }

    public int connected() {
        return connected.get();
    }

    public int failed() {
        return failed.get();
    }

    public String firstError() {
        return firstError;
    }

    public boolean done() {
        return connected.get() + failed.get() >= requested;
    }

    void fail(String reason) {
        if (firstError == null) {
            firstError = reason;
        }
        failed.incrementAndGet();
    }
}
