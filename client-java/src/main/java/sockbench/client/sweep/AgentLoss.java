package sockbench.client.sweep;

/**
 * An agent the coordinator lost, and what it was waiting for from it then: a loss while the
 * level's sessions were closed and reopened for a point is not a loss inside a measured window,
 * and the warnings must not say it was.
 *
 * @param agent    host:pid
 * @param during   the command it did not answer: {@code open}, {@code close}, {@code point},
 *                 {@code idle_sample}, {@code open_count}
 * @param why      its heartbeat key expired, or no reply by the command's deadline
 */
public record AgentLoss(String agent, String during, String why) {

    /** The reason a lost agent's share of a level's sessions is counted under in a connect's failures. */
    public static final String CONNECT_REASON = "agent lost";

    /** The command the agent missed in words: "while sessions were being closed", ... */
    public String duringText() {
        return switch (during) {
            case "open" -> "while its sessions were being opened";
            case "close" -> "while sessions were being closed";
            case "point" -> "during the point";
            default -> "while the coordinator waited for its " + during.replace('_', ' ');
        };
    }
}
