package sockbench.client.testserver;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The repository's real SockJS server (server-python on CPython, `make setup-python`) on a free
 * loopback port, for tests that need what the in-test server does not do: SockJS heartbeats at a
 * chosen interval, a separate process whose RSS and CPU can be sampled. Closing stops it.
 */
public final class PythonSockJsServer implements AutoCloseable {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path PYTHON = REPO.resolve(".venv-cpython/bin/python");

    private final Process process;
    private final String readyLine;

    private PythonSockJsServer(Process process, String readyLine) {
        this.process = process;
        this.readyLine = readyLine;
    }

    /** Starts the server with heartbeats every {@code heartbeatS} seconds and waits for its READY line. */
    public static PythonSockJsServer start(double heartbeatS) throws IOException, InterruptedException {
        if (!Files.isExecutable(PYTHON)) {
            throw new IOException(PYTHON + " is missing: run `make setup-python`");
        }
        Process p = new ProcessBuilder(PYTHON.toString(), "-m", "sockbench_server", "--port", "0",
                "--heartbeat", Double.toString(heartbeatS))
                .directory(REPO.resolve("server-python").toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        });
        try {
            String line = ready.get(30, TimeUnit.SECONDS);
            if (line == null || !line.startsWith("READY ")) {
                throw new IOException("server-python did not print READY (got " + line + ")");
            }
            return new PythonSockJsServer(p, line);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            p.destroyForcibly();
            throw new IOException("server-python did not start: " + e, e);
        } catch (IOException e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /** The READY line, verbatim (for --server-ready). */
    public String readyLine() {
        return readyLine;
    }

    /** The SockJS app URL, e.g. http://127.0.0.1:PORT/broadcast. */
    public String url() {
        return readyLine.split(" ")[1] + "/broadcast";
    }

    public long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: the server closes its sessions and exits
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
