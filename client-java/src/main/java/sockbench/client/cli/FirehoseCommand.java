package sockbench.client.cli;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sockbench.client.engine.Engine;
import sockbench.client.engine.Target;
import sockbench.client.engine.Transport;
import sockbench.client.firehose.FirehoseCount;
import sockbench.client.firehose.FirehoseSender;
import sockbench.client.sampling.ProcFiles;
import sockbench.client.sweep.ReadyLine;

/**
 * The client self-test: starts the firehose sender as a child process pinned with
 * {@code taskset} (default CPU 0) and measures how many messages/s this process receives
 * through the real receive path. Pin this process yourself, e.g. {@code taskset -c 1 java -jar ...}.
 */
@Command(name = "firehose", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Client self-test: a pinned sender writes pre-built SockJS frames as fast as it can to N "
                + "connections; this process counts them through the real receive path and prints msgs/s, CPU and RSS "
                + "(a Markdown table on stdout). Run it pinned: taskset -c 1 java -jar sockbench-client.jar firehose")
public final class FirehoseCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--connections", paramLabel = "N", split = ",", defaultValue = "100,1000,5000",
            description = "Connection counts to measure, each 1..20000. Default: ${DEFAULT-VALUE}.")
    List<Integer> connections;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "10",
            description = "Counting window per connection count, seconds, > 0. Default: ${DEFAULT-VALUE}.")
    double durationS;

    @Option(names = "--settle", paramLabel = "SECONDS", defaultValue = "2",
            description = "Time after connecting before the window opens, seconds, >= 0. Default: ${DEFAULT-VALUE}.")
    double settleS;

    @Option(names = "--sender-cpus", paramLabel = "LIST", defaultValue = "0",
            description = "CPU list for the sender's taskset (empty: do not pin). Default: ${DEFAULT-VALUE}.")
    String senderCpus;

    @Option(names = "--messages-per-frame", paramLabel = "N", split = ",", defaultValue = "1,100",
            description = "Messages per a[...] frame the sender writes, each 1.." + FirehoseSenderCommand.MAX_MESSAGES_PER_FRAME
                    + "; one table row per (connections, messages per frame). 1 is a naive server (one frame per copy), "
                    + "100 a coalescing one. Default: ${DEFAULT-VALUE}.")
    List<Integer> messagesPerFrame;

    @Mixin
    PayloadBytesOption payload;

    // Why 256 KiB and not the kernel's autotuning: with autotuned (large) send buffers and few
    // connections, the reader's window limits each sender socket, so the sender's queued data is
    // transmitted from the softirq of the client's window updates, on the client's core (BBR's
    // pacing timer follows): 10-14 % of the client core measured at 100 connections, work that
    // belongs to the sender. A bounded send buffer keeps that work in the sender's own writes.
    @Option(names = "--sender-send-buffer-kib", paramLabel = "KIB", defaultValue = "256",
            description = "SO_SNDBUF of the sender's connections, KiB, 0 (kernel autotuning) or 4..65536; bounded so "
                    + "the sender's kernel transmit work stays on the sender's core. Default: ${DEFAULT-VALUE}.")
    int senderSendBufferKib;

    @Mixin
    IoThreadsOption ioThreads;

    @Override
    public Integer call() throws Exception {
        Usage.require(spec, durationS > 0 && settleS >= 0
                && messagesPerFrame.stream().allMatch(FirehoseSenderCommand::validMessagesPerFrame)
                && FirehoseSender.validSendBufferKib(senderSendBufferKib) && connections.stream().allMatch(n -> n >= 1 && n <= 20000),
                "an option is out of range (see --help)");
        int payloadBytes = payload.resolve(spec);
        List<Integer> cpus = ProcFiles.allowedCpus("self");
        int threads = ioThreads.resolve(spec, ProcFiles.cpuCount(cpus));
        record Row(int messagesPerFrame, FirehoseCount.Result result) {
        }
        List<Row> rows = new ArrayList<>();
        for (int perFrame : messagesPerFrame) {
            // One sender per frame size: its pre-built block is fixed at start.
            Process sender = startSender(perFrame);
            try {
                String url = readReady(sender) + "/broadcast";
                System.err.printf("firehose: sender pid %d on CPUs %s, client pid %d on CPUs %s, %d I/O thread(s), %d msg/frame, %d-byte payloads%n",
                        sender.pid(), senderCpus.isBlank() ? "(not pinned)" : senderCpus, ProcessHandle.current().pid(),
                        cpus, threads, perFrame, payloadBytes);
                try (Engine engine = Engine.builder(new Target(url, Transport.SOCKJS)).ioThreads(threads)
                        .connectTimeoutNs(30_000_000_000L).connectConcurrency(200).start()) {
                    for (int n : connections) {
                        FirehoseCount.Result r = FirehoseCount.measure(engine, n, settleS, durationS, sender.pid());
                        rows.add(new Row(perFrame, r));
                        System.err.printf(Locale.ROOT, "firehose: N=%d, %d msg/frame done: %.0f msgs/s%n",
                                n, perFrame, r.receivedPerS());
                    }
                }
            } finally {
                sender.destroy();
                sender.waitFor();
            }
        }
        System.out.println("| connections | msgs/frame | connected | msgs/s received | client CPU % | sender CPU % "
                + "| client RSS MiB | parse errors | wire bytes/msg | KiB/read |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Row row : rows) {
            FirehoseCount.Result r = row.result();
            System.out.printf(Locale.ROOT, "| %d | %d | %d | %,.0f | %.0f | %.0f | %.0f | %d | %.1f | %.1f |%n",
                    r.connections(), row.messagesPerFrame(), r.connected(), r.receivedPerS(), r.clientCpuPct(),
                    r.senderCpuPct(), r.clientRssBytes() / 1048576.0, r.malformed(), r.bytesPerMessage(),
                    r.bytesPerRead() / 1024);
        }
        return 0;
    }

    private Process startSender(int perFrame) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        String jar = new File(FirehoseCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        List<String> cmd = new ArrayList<>();
        if (!senderCpus.isBlank()) {
            cmd.addAll(List.of("taskset", "-c", senderCpus));
        }
        cmd.addAll(List.of(java, "-cp", jar, Main.class.getName(), "firehose-sender",
                "--messages-per-frame", Integer.toString(perFrame),
                "--payload-bytes", Integer.toString(payload.payloadBytes),
                "--send-buffer-kib", Integer.toString(senderSendBufferKib)));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static String readReady(Process p) throws Exception {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = r.readLine();
        if (line == null) {
            throw new IllegalStateException("firehose sender did not start (no READY line)");
        }
        try {
            return ReadyLine.parse(line).baseUrl();
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("firehose sender did not start (" + e.getMessage() + ")", e);
        }
    }
}
