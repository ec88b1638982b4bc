package sockbench.client.fleet;

/** The Redis bus failed or could not be reached; the message is one line saying what and how to fix it. */
public final class BusException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BusException(String message, Throwable cause) {
        super(message, cause);
    }
}
