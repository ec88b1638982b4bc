package sockbench.client.engine;

import java.util.ArrayList;
import java.util.Arrays;
import sockbench.client.engine.PointCounters.Count;

/**
 * How many messages each data frame carried, for one I/O thread over one point's window: the
 * distribution over frames, and each connection's frames and messages (its own mean). This is
 * what shows whether a server coalesces (fast mode: {@code a["m1","m2",...]} per loop turn) or
 * frames every message alone (naive), so results of the two can be compared like for like.
 *
 * <p>It runs once per frame on the receive path, which at one message per frame is once per
 * message, so it costs no allocation and no histogram arithmetic there: frames of fewer than
 * {@link #EXACT} messages bump one slot of a plain array (larger ones, rare, go straight into the
 * histogram), and the connection's two counters. The array is folded into
 * {@link PointCounters#messagesPerFrame} and the connections' means into
 * {@link PointCounters#connectionMeanHundredths} once, when the point ends ({@link #completeInto}).
 *
 * <p>Owned and called by one I/O thread only.
 */
final class FrameCounts {

    /** Frame sizes below this are tallied in {@link #framesOfSize}; above, in the histogram directly. */
    static final int EXACT = 128;

    /** framesOfSize[m] = frames of m messages since the last {@link #reset}. */
    private final long[] framesOfSize = new long[EXACT];
    /** Connections that received a frame in this round, each once (their counters hold the round's figures). */
    private final ArrayList<Connection> seen = new ArrayList<>();
    /** Tells this point's per-connection counters from stale ones; never 0, a new connection's value. */
    private int round = 1;

    /**
     * A data frame of {@code messages} (≥ 1) messages arrived on {@code c} inside the window.
     *
     * @param counters the point's counters: where frames of {@link #EXACT} or more messages are recorded at once
     */
    void record(Connection c, int messages, PointCounters counters) {
        if (c.frameRound != round) {
            c.frameRound = round;
            c.windowFrames = 0;
            c.windowFrameMessages = 0;
            seen.add(c);
        }
        c.windowFrames++;
        c.windowFrameMessages += messages;
        if (messages < EXACT) {
            framesOfSize[messages]++;
        } else {
            counters.messagesPerFrame.recordValue(messages);
        }
    }

    /**
     * Adds the round's frames to {@code counters}: the frame-size tally into its histogram, every
     * connection's frames and messages into {@link Count#FRAMES_IN_WINDOW} and
     * {@link Count#FRAME_MESSAGES_IN_WINDOW}, and each connection's mean messages per frame,
     * × 100 and rounded, into its per-connection histogram. Then starts a new round.
     */
    void completeInto(PointCounters counters) {
        for (int m = 1; m < EXACT; m++) {
            if (framesOfSize[m] != 0) {
                counters.messagesPerFrame.recordValueWithCount(m, framesOfSize[m]);
            }
        }
        for (Connection c : seen) {
            counters.add(Count.FRAMES_IN_WINDOW, c.windowFrames);
            counters.add(Count.FRAME_MESSAGES_IN_WINDOW, c.windowFrameMessages);
            counters.connectionMeanHundredths.recordValue(Math.round(100.0 * c.windowFrameMessages / c.windowFrames));
        }
        reset();
    }

    /** Forgets the round: the next frame of every connection starts its counts from zero. */
    void reset() {
        Arrays.fill(framesOfSize, 0);
        seen.clear();
        round = round == Integer.MAX_VALUE ? 1 : round + 1;
    }
}
