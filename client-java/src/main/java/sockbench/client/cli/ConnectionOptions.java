package sockbench.client.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import sockbench.client.websocket.Compression;

/**
 * How the benchmark's connections are opened and read: payload size, connect limits, I/O threads,
 * read coalescing, websocket compression.
 */
final class ConnectionOptions {

    @Mixin
    PayloadBytesOption payload;

    @Option(names = "--connect-timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "Per-connection limit for TCP connect + handshake (+ SockJS 'o'), seconds, > 0. Default: ${DEFAULT-VALUE}.")
    double connectTimeoutS;

    @Option(names = "--connect-concurrency", paramLabel = "N", defaultValue = "100",
            description = "Connections being opened at once, >= 1 (keeps the server's listen backlog from overflowing). Default: ${DEFAULT-VALUE}.")
    int connectConcurrency;

    @Mixin
    IoThreadsOption ioThreads;

    @Option(names = "--read-coalesce-us", paramLabel = "US", defaultValue = "100",
            description = "After an I/O round that found data, wait this long before reading again so each read syscall "
                    + "carries many frames, microseconds, 0..10000 (0 = off; adds at most this much to measured RTTs under load). Default: ${DEFAULT-VALUE}.")
    long readCoalesceUs;

    @Option(names = "--compression", paramLabel = "none|permessage-deflate", defaultValue = "none",
            description = "What each websocket upgrade offers: none, or permessage-deflate (RFC 7692; the server must "
                    + "accept it or the session fails to open; the client inflates, and sends uncompressed). "
                    + "docs/compression.md. Default: ${DEFAULT-VALUE}.")
    String compressionName;

    /** Usage errors for values out of range (payload size, connect limits, read coalescing). */
    void check(CommandSpec spec) {
        payload.resolve(spec);
        Usage.require(spec, connectTimeoutS > 0 && connectConcurrency >= 1,
                "--connect-timeout must be > 0 and --connect-concurrency >= 1");
        Usage.require(spec, readCoalesceUs >= 0 && readCoalesceUs <= 10_000, "--read-coalesce-us must be 0..10000");
        compression(spec);
    }

    /** --compression as a value; a usage error (exit 2) naming the choices when it is none of them. */
    Compression compression(CommandSpec spec) {
        return Usage.parse(spec, "--compression", () -> Compression.byUserName(compressionName).orElseThrow(
                () -> new IllegalArgumentException("'" + compressionName + "' is not one of none, permessage-deflate")));
    }

    long connectTimeoutNs() {
        return (long) (connectTimeoutS * 1e9);
    }

    long readCoalesceNs() {
        return readCoalesceUs * 1000;
    }
}
