package sockbench.client.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sockbench.client.firehose.FirehoseSender;

/** Runs the firehose sender alone (the firehose command starts it as a pinned child process). */
@Command(name = "firehose-sender", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Loopback sender for the firehose self-test: accepts framed SockJS websocket connections, "
                + "sends 'o', then pre-built a[...] frames as fast as the sockets take them. "
                + "Prints 'READY http://127.0.0.1:<port>' on stdout when listening; runs until killed.")
public final class FirehoseSenderCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "0",
            description = "TCP port on 127.0.0.1, 0..65535 (0: any free port). Default: ${DEFAULT-VALUE}.")
    int port;

    /** Most messages one a[...] frame carries; the firehose command holds its list of frame sizes to the same range. */
    static final int MAX_MESSAGES_PER_FRAME = 1000;

    @Option(names = "--messages-per-frame", paramLabel = "N", defaultValue = "1",
            description = "Messages in each a[...] frame, 1.." + MAX_MESSAGES_PER_FRAME + ". Default: ${DEFAULT-VALUE}.")
    int messagesPerFrame;

    @Mixin
    PayloadBytesOption payload;

    @Option(names = "--send-buffer-kib", paramLabel = "KIB", defaultValue = "0",
            description = "SO_SNDBUF per connection, KiB, 0 (kernel autotuning) or 4..65536. Default: ${DEFAULT-VALUE}.")
    int sendBufferKib;

    @Override
    public Integer call() throws Exception {
        Usage.require(spec, validMessagesPerFrame(messagesPerFrame), "--messages-per-frame must be 1.." + MAX_MESSAGES_PER_FRAME);
        Usage.require(spec, FirehoseSender.validSendBufferKib(sendBufferKib), "--send-buffer-kib must be 0 or 4..65536");
        int payloadBytes = payload.resolve(spec);
        try (FirehoseSender sender = new FirehoseSender(port, messagesPerFrame, payloadBytes, sendBufferKib * 1024)) {
            System.out.println("READY http://127.0.0.1:" + sender.port() + " server=sockbench-firehose");
            System.out.flush();
            sender.serve();
        }
        return 0;
    }

    /** A frame size both firehose commands accept: 1..MAX_MESSAGES_PER_FRAME messages. */
    static boolean validMessagesPerFrame(int messages) {
        return messages >= 1 && messages <= MAX_MESSAGES_PER_FRAME;
    }
}
