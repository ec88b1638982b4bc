package sockbench.client.firehose;

/** Test helper: a real loopback {@link FirehoseSender} already serving on a daemon thread. */
public final class ServingSenders {

    private ServingSenders() {
    }

    /**
     * A sender on any free port writing {@code a[...]} frames of {@code messagesPerFrame} messages of
     * {@code payloadBytes} characters, serving until the caller closes it.
     */
    public static FirehoseSender serving(int messagesPerFrame, int payloadBytes) throws Exception {
        FirehoseSender sender = new FirehoseSender(0, messagesPerFrame, payloadBytes);
        Thread t = new Thread(() -> {
            try {
                sender.serve();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "firehose-sender");
        t.setDaemon(true);
        t.start();
        return sender;
    }
}
