package sockbench.client.stats;

import java.util.List;

/**
 * One concurrency level (results/README.md, {@code levels[]}).
 *
 * @param concurrency   connections requested (N)
 * @param connected     connections that completed the handshake (SockJS: received {@code o})
 * @param connectErrors connections that failed or timed out while opening
 * @param connectS      time to open all connections, seconds
 * @param points        measured points in increasing target rate
 * @param saturation    the ok point with the highest received/s, or null
 * @param saturationStrict the strictly ok point with the highest received/s, or null
 * @param endReason     overloaded, saturated, max_rate, client_ceiling, connect_failed, aborted or agent_lost
 * @param startRate     the target rate this level started at, messages/s (adaptive, given or the plan's);
 *                      null when not known (the level never got to measure)
 * @param clientCeilingPerS the client's measured receive ceiling for this level, messages/s received by all
 *                      connections together ({@code --client-ceilings}); null when not known
 * @param connect       how the connections opened (paced target, achieved rate, failures by reason);
 *                      null when the plan neither paces, holds idle nor times all copies (not written)
 * @param idle          the idle hold after connecting; null without one (not written)
 * @param fanoutSaturation the highest ok all-copies point in copies/s; null when none was ok
 * @param writeFanoutSaturation whether the level carries {@code fanout_saturation} (all-copies plans), null or not
 * @param agents        client processes that held the level (a coordinating client); null for one process (not written)
 */
public record LevelResult(int concurrency, int connected, int connectErrors, double connectS,
                          List<PointResult> points, SaturationPoint saturation,
                          SaturationPoint saturationStrict, String endReason, Double startRate,
                          Double clientCeilingPerS, ConnectRecord connect, IdleRecord idle,
                          FanoutSaturation fanoutSaturation, boolean writeFanoutSaturation, Integer agents) {

    public LevelResult {
        points = List.copyOf(points);
    }

    /** A level without the sessions fields (connect, idle, fan-out saturation, agents). */
    public LevelResult(int concurrency, int connected, int connectErrors, double connectS,
                       List<PointResult> points, SaturationPoint saturation,
                       SaturationPoint saturationStrict, String endReason, Double startRate,
                       Double clientCeilingPerS) {
        this(concurrency, connected, connectErrors, connectS, points, saturation, saturationStrict, endReason, startRate,
                clientCeilingPerS, null, null, null, false, null);
    }

    /** This level with the sessions fields. */
    public LevelResult withSessions(ConnectRecord connectRecord, IdleRecord idleRecord, boolean allCopies,
                                    Integer agentCount) {
        return new LevelResult(concurrency, connected, connectErrors, connectS, points, saturation, saturationStrict,
                endReason, startRate, clientCeilingPerS, connectRecord, idleRecord,
                allCopies ? FanoutSaturation.of(points) : null, allCopies, agentCount);
    }

    /** A level without a known client ceiling. */
    public LevelResult(int concurrency, int connected, int connectErrors, double connectS,
                       List<PointResult> points, SaturationPoint saturation,
                       SaturationPoint saturationStrict, String endReason, Double startRate) {
        this(concurrency, connected, connectErrors, connectS, points, saturation, saturationStrict, endReason, startRate,
                null);
    }

    /** A level without a recorded start rate. */
    public LevelResult(int concurrency, int connected, int connectErrors, double connectS,
                       List<PointResult> points, SaturationPoint saturation,
                       SaturationPoint saturationStrict, String endReason) {
        this(concurrency, connected, connectErrors, connectS, points, saturation, saturationStrict, endReason, null, null);
    }
}
