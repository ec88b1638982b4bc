package sockbench.client.testserver;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import sockbench.client.fleet.RedisBus;

/**
 * A real redis-server (Debian's, `make setup-redis`) on a free loopback port, no persistence,
 * for the fleet tests. Fails loudly when redis-server is not installed.
 */
public final class RedisServerProcess implements AutoCloseable {

    private final Process process;
    private final int port;

    private RedisServerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    public static RedisServerProcess start() throws IOException, InterruptedException {
        int port = freePort();
        Process p;
        try {
            p = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no")
                    .redirectErrorStream(true).redirectOutput(new File("/dev/null")).start();
        } catch (IOException e) {
            throw new IOException("redis-server is not installed: run `make setup-redis` (" + e.getMessage() + ")", e);
        }
        RedisServerProcess r = new RedisServerProcess(p, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (RedisBus bus = RedisBus.connect(r.url())) {
                return r;
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline || !p.isAlive()) {
                    r.close();
                    throw new IOException("redis-server did not start on port " + port, e);
                }
                Thread.sleep(50);
            }
        }
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    public String url() {
        return "redis://127.0.0.1:" + port + "/0";
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
