package sockbench.client.fleet;

/**
 * Key names and message types of the fleet's bus, one place for coordinator and agent.
 *
 * <ul>
 *   <li>{@code sockbench:agent:<agent>}: hash, an agent's registration (run id, host, pid, CPUs,
 *       clock offset), kept alive with a {@link #HEARTBEAT_TTL_MS} time to live: an agent whose
 *       key expired is gone.</li>
 *   <li>{@code sockbench:run:<run>:commands}: stream, coordinator → agents (every agent reads all).</li>
 *   <li>{@code sockbench:run:<run>:replies}: stream, agents → coordinator (per-point results).</li>
 *   <li>{@code sockbench:run:<run>:sent:<point>}: hash, each agent's sent count once its window
 *       has ended (the drain waits for total sent × own connections copies).</li>
 * </ul>
 */
final class Protocol {

    static final long HEARTBEAT_TTL_MS = 3_000;
    static final long HEARTBEAT_EVERY_MS = 500;

    static final String ASSIGN = "assign";
    static final String OPEN = "open";
    static final String OPEN_COUNT = "open_count";
    /** Heartbeats received so far, connections open, sessions lost by reason and the agent's RSS (the coordinator's idle hold). */
    static final String IDLE_SAMPLE = "idle_sample";
    static final String CLOSE = "close";
    static final String POINT = "point";
    static final String STOP = "stop";

    private Protocol() {
    }

    static String agentKey(String agent) {
        return "sockbench:agent:" + agent;
    }

    static String agentPattern() {
        return "sockbench:agent:*";
    }

    static String commands(String run) {
        return "sockbench:run:" + run + ":commands";
    }

    static String replies(String run) {
        return "sockbench:run:" + run + ":replies";
    }

    static String sent(String run, long point) {
        return "sockbench:run:" + run + ":sent:" + point;
    }
}
