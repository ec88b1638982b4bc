package sockbench.client.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sockbench.client.firehose.FirehoseSender;

/** Runs the firehose sender alone (the firehose command starts it as a pinned child process). */
@Command(name = "firehose-sender", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Loopback sender for the firehose self-test: accepts framed SockJS websocket connections, "
                + "sends 'o', then pre-built a[...] frames as fast as the sockets take them. "
                + "Prints 'READY http://127.0.0.1:<port>' on stdout when listening; runs until killed.")
public final class FirehoseSenderCommand implements Callable<Integer> {

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "0",
            description = "TCP port on 127.0.0.1, 0..65535 (0: any free port). Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "--messages-per-frame", paramLabel = "N", defaultValue = "1",
            description = "Messages in each a[...] frame, 1..1000. Default: ${DEFAULT-VALUE}.")
    int messagesPerFrame;

    @Option(names = "--payload-bytes", paramLabel = "BYTES", defaultValue = "64",
            description = "Characters per message payload, 1..65536. Default: ${DEFAULT-VALUE}.")
    int payloadBytes;

    @Override
    public Integer call() throws Exception {
        try (FirehoseSender sender = new FirehoseSender(port, messagesPerFrame, payloadBytes)) {
            System.out.println("READY http://127.0.0.1:" + sender.port() + " server=sockbench-firehose");
            System.out.flush();
            sender.serve();
        }
        return 0;
    }
}
