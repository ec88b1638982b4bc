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
 * One of the repository's real SockJS servers (server-python on CPython, `make setup-python`;
 * server-node, `make setup-node`) on a free loopback port, for tests that need what the in-test
 * server does not do: heartbeats at a chosen interval, a separate process whose RSS and CPU can be
 * sampled. Closing stops it.
 */
public final class RepoSockJsServer implements AutoCloseable {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path PYTHON = REPO.resolve(".venv-cpython/bin/python");
    private static final Path NODE_APP = REPO.resolve("server-node/broadcast.js");
    private static final Path NODE_MODULES = REPO.resolve("server-node/node_modules");
    private static final Path SOCKJS_GO = REPO.resolve("bench/peers/sockjs_go/bin/sockjs-go-peer");

    private final Process process;
    private final String readyLine;

    private RepoSockJsServer(Process process, String readyLine) {
        this.process = process;
        this.readyLine = readyLine;
    }

    /**
     * server-python with heartbeats every {@code heartbeatS} seconds and {@code extra} flags (e.g.
     * {@code --max-sessions 5}), once it printed READY.
     */
    public static RepoSockJsServer python(double heartbeatS, String... extra) throws IOException, InterruptedException {
        if (!Files.isExecutable(PYTHON)) {
            throw new IOException(PYTHON + " is missing: run `make setup-python`");
        }
        java.util.List<String> argv = new java.util.ArrayList<>(java.util.List.of(PYTHON.toString(), "-m",
                "sockbench_server", "--port", "0", "--heartbeat", Double.toString(heartbeatS)));
        argv.addAll(java.util.List.of(extra));
        return start("server-python", new ProcessBuilder(argv).directory(REPO.resolve("server-python").toFile()));
    }

    /**
     * server-node (sockjs-node 0.3.24) with heartbeats every {@code heartbeatS} seconds and
     * {@code extra} flags (e.g. {@code --compression permessage-deflate}), once it printed READY. On websocket sessions it sends its heartbeat as a websocket ping.
     */
    public static RepoSockJsServer node(double heartbeatS, String... extra) throws IOException, InterruptedException {
        if (!Files.isDirectory(NODE_MODULES)) {
            throw new IOException(NODE_MODULES + " is missing: run `make setup-node`");
        }
        java.util.List<String> argv = new java.util.ArrayList<>(java.util.List.of("node", NODE_APP.toString(), "--port", "0",
                "--heartbeat", Double.toString(heartbeatS)));
        argv.addAll(java.util.List.of(extra));
        return start("server-node", new ProcessBuilder(argv).directory(REPO.resolve("server-node").toFile()));
    }

    /**
     * The sockjs-go v3 peer (`make peer-sockjs-go`) with heartbeats every {@code heartbeatS} seconds
     * and {@code extra} flags, once it printed READY.
     */
    public static RepoSockJsServer sockjsGo(double heartbeatS, String... extra) throws IOException, InterruptedException {
        if (!Files.isExecutable(SOCKJS_GO)) {
            throw new IOException(SOCKJS_GO + " is missing: run `make peer-sockjs-go`");
        }
        java.util.List<String> argv = new java.util.ArrayList<>(java.util.List.of(SOCKJS_GO.toString(), "--port", "0",
                "--heartbeat", Double.toString(heartbeatS)));
        argv.addAll(java.util.List.of(extra));
        return start("sockjs-go", new ProcessBuilder(argv));
    }

    private static RepoSockJsServer start(String name, ProcessBuilder launch) throws IOException, InterruptedException {
        Process p = launch.redirectError(ProcessBuilder.Redirect.INHERIT).start();
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
                throw new IOException(name + " did not print READY (got " + line + ")");
            }
            return new RepoSockJsServer(p, line);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            p.destroyForcibly();
            throw new IOException(name + " did not start: " + e, e);
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

    /** The port it listens on. */
    public int port() {
        return java.net.URI.create(readyLine.split(" ")[1]).getPort();
    }

    public long pid() {
        return process.pid();
    }

    /** Kills the server at once (SIGKILL): its sessions see the TCP connection close without a close frame. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** TCP connections the server has established on its port now (/proc/net/tcp and tcp6, state 01). */
    public int establishedSessions() throws IOException {
        String hexPort = String.format(":%04X", port());
        int n = 0;
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            Path p = Path.of(table);
            if (Files.exists(p)) {
                for (String line : Files.readAllLines(p)) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 3 && f[1].endsWith(hexPort) && f[3].equals("01")) {
                        n++;
                    }
                }
            }
        }
        return n;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: the server closes its sessions and exits
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
