package sockbench.client.fleet;

/** Fewer agents of this run registered than the coordinator was asked to wait for. */
public final class AgentsMissingException extends Exception {
    private static final long serialVersionUID = 1L;

    public AgentsMissingException(String message) {
        super(message);
    }
}
