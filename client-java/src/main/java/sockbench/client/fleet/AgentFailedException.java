package sockbench.client.fleet;

/**
 * An agent answered a command with an error (e.g. its share of a level does not fit its
 * open-files limit); the message is the agent's one line, and the coordinator stops with it.
 */
public final class AgentFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AgentFailedException(String message) {
        super(message);
    }
}
