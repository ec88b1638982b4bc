package sockbench.client.cli;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import sockbench.client.stats.LevelResult;
import sockbench.client.sweep.Sweep;

/**
 * Ctrl-C or SIGTERM during a sweep: the sweep finishes its current point, the run writes what it
 * has, then the JVM exits (after at most 20 s of writing).
 */
final class ShutdownAbort {

    private static final long WRITE_GRACE_S = 20;

    private final CountDownLatch written = new CountDownLatch(1);

    /** Runs the sweep with the hook armed; the hook is gone when this returns. */
    List<LevelResult> run(Sweep sweep) throws InterruptedException {
        Thread hook = new Thread(() -> {
            sweep.abort();
            try {
                written.await(WRITE_GRACE_S, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                // exiting anyway
            }
        });
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return sweep.run();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down already
            }
        }
    }

    /** The run has written its files (or failed): a waiting hook lets the JVM exit. */
    void done() {
        written.countDown();
    }
}
