package sockbench.client.sweep;

import sockbench.client.engine.ConnectProgress;

/**
 * What the sweep drives: the connections of a level and the points measured over them. Two
 * implementations: {@link LocalLoadEngine} (this process holds every connection) and
 * {@code fleet.FleetLoadEngine} (agents hold them, coordinated through Redis). The sweep's rules
 * run unchanged on the merged {@link PointMeasurement} either way.
 */
public interface LoadEngine extends AutoCloseable {

    /**
     * Opens the level's {@code n} connections (client ids 0..n-1) and waits until each has opened,
     * failed or timed out.
     *
     * @param overallTimeoutNs give up waiting after this long, nanoseconds
     */
    ConnectProgress open(int n, long overallTimeoutNs) throws InterruptedException;

    /**
     * As {@link #open(int, long)}, starting at most {@code connectRatePerS} connections per second
     * in all (0 = unpaced): the level's connects are spread evenly over its I/O threads and agents.
     */
    ConnectProgress open(int n, long overallTimeoutNs, double connectRatePerS) throws InterruptedException;

    /** Heartbeats received so far, connections open and the client processes' RSS (the idle hold's readings). */
    IdleSample idleSample();

    /** Client processes holding the connections, for the level's {@code agents}; null for this one process. */
    default Integer agentCount() {
        return null;
    }

    /** The agent this engine lost and what it missed, or null (a single process never loses one). */
    default AgentLoss agentLoss() {
        return null;
    }

    /**
     * Connections of the level still open that take part in points: every one without churn; with a
     * churn pool the steady ones only (the pool's come and go and are never counted).
     */
    int openConnections();

    /**
     * As {@link #openConnections()} per SockJS transport, by name, when the sessions use a mix of
     * transports; empty otherwise (and from a fleet, which runs websocket sessions only).
     */
    default java.util.Map<String, Integer> openByTransport() {
        return java.util.Map.of();
    }

    /** Closes the level's connections: a polite close frame, then after {@code graceMs} (ms) a hard close. */
    void closeAll(long graceMs) throws InterruptedException;

    /**
     * Runs one point: warm-up, window, drain. {@code window} is told when the window starts and
     * ends on this process's clock (the sweep samples the server then).
     */
    PointMeasurement measure(PointRequest request, WindowListener window) throws InterruptedException;

    /** How far ahead of "now" a point's schedule starts so every sender has it in time, nanoseconds. */
    long startLeadNs();

    /** "agents C/E" for the progress line, or "" for one process. */
    String agentsStatus();

    @Override
    void close();

    /** Called on the sweep's thread at the window's start and end. */
    interface WindowListener {
        void windowStarted();

        void windowEnded();
    }
}
