package sockbench.client.cli;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import sockbench.client.engine.Target;
import sockbench.client.fleet.AgentsMissingException;
import sockbench.client.fleet.FleetLoadEngine;
import sockbench.client.fleet.RedisBus;

/** The benchmark as the coordinator of agent processes: how many, on which bus, which run, how long to wait. */
final class FleetOptions {

    /** What a run id may be (it becomes part of Redis keys). */
    static final String RUN_ID_PATTERN = "[A-Za-z0-9._-]{1,200}";

    @Option(names = "--agents", paramLabel = "N",
            description = "Run as the coordinator of N agent processes (the 'agent' subcommand, 1..256) that hold the "
                    + "connections, client i on agent i mod N, through the Redis bus --bus; the sweep runs on their merged "
                    + "results. Default: none (this process holds every connection).")
    Integer agents;

    @Option(names = "--bus", paramLabel = "URL",
            description = "Redis URL of the fleet's bus, redis://HOST[:PORT][/DB]; needed with --agents. Default: none.")
    String bus;

    @Option(names = "--run-id", paramLabel = "ID",
            description = "Fleet run id the agents join (letters, digits, '.', '_', '-'); agents of another run are ignored. "
                    + "Default: the result's run id.")
    String fleetRunId;

    @Option(names = "--agent-join-timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "How long the coordinator waits for its --agents to register, seconds, > 0; fewer by then: "
                    + "one line and exit status 2. Default: ${DEFAULT-VALUE}.")
    double agentJoinTimeoutS;

    /** True with --agents: the agents hold the connections, not this process. */
    boolean coordinating() {
        return agents != null;
    }

    /** Usage errors for a fleet that cannot run (the bus URL is checked, not contacted). */
    void check(CommandSpec spec) {
        if (agents != null) {
            Usage.require(spec, agents >= 1 && agents <= 256, "--agents must be 1..256");
            Usage.require(spec, bus != null, "--agents needs --bus redis://HOST[:PORT][/DB]");
            Usage.require(spec, agentJoinTimeoutS > 0, "--agent-join-timeout must be > 0");
        } else {
            Usage.require(spec, bus == null && fleetRunId == null, "--bus and --run-id go with --agents N");
        }
        if (bus != null) {
            Usage.parse(spec, "--bus", () -> RedisBus.checkUrl(bus));
        }
        Usage.require(spec, fleetRunId == null || fleetRunId.matches(RUN_ID_PATTERN),
                "--run-id: letters, digits, '.', '_' or '-' only");
    }

    /** The run id the agents join: --run-id, else the result's run id. */
    String busRunId(String resultRunId) {
        return fleetRunId != null ? fleetRunId : resultRunId;
    }

    /**
     * Connects to the bus and waits for the agents; the connection settings go to every agent.
     *
     * @param churnPct percent of each level's sessions that churn ({@code --churn}), 0 = none
     *
     * @throws AgentsMissingException fewer agents than --agents registered in time
     */
    FleetLoadEngine start(Target target, String busRunId, ConnectionOptions connection, boolean validate, double churnPct,
                          PrintStream log)
            throws AgentsMissingException, InterruptedException {
        RedisBus redis = RedisBus.connect(bus);
        Map<String, String> assign = new LinkedHashMap<>();
        assign.put("url", target.url());
        assign.put("transport", target.transport().jsonName());
        assign.put("compression", target.compression().userName());
        assign.put("connect_timeout_ns", Long.toString(connection.connectTimeoutNs()));
        // The handshake limit protects the server's listen backlog: the agents share it.
        assign.put("connect_concurrency", Integer.toString(Math.max(1, connection.connectConcurrency / agents)));
        assign.put("read_coalesce_ns", Long.toString(connection.readCoalesceNs()));
        assign.put("validate", Boolean.toString(validate));
        // Each agent churns its own pool members, picked from the global client ids by the same rule.
        assign.put("churn_pct", Double.toString(churnPct));
        log.printf("sockbench: coordinator of run %s waiting for %d agent(s) on %s%n", busRunId, agents, bus);
        try {
            return FleetLoadEngine.start(redis, busRunId, agents, (long) (agentJoinTimeoutS * 1e9), assign, log);
        } catch (AgentsMissingException | RuntimeException | InterruptedException e) {
            redis.close();
            throw e;
        }
    }
}
