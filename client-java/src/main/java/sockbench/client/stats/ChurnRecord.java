package sockbench.client.stats;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * A point's {@code churn}: the reconnect storm that ran through its measured window, as the
 * client saw it (results/README.md). What the storm did to the other sessions is the point's own
 * figures; this says how much storm there was, and whether the server kept up with it.
 *
 * @param pool         sessions in the level's churn pool, all agents together
 * @param closes       pool closes started inside the window
 * @param reconnects   new pool sessions that opened (SockJS {@code o} received) inside the window
 * @param connectsPerS reconnects ÷ window seconds: the connects/s the server served
 * @param failures     reconnects that failed inside the window by short reason (and pool sessions
 *                     the server dropped on its own, as {@code "lost: <reason>"}); empty when none
 * @param reconnectMs  close started → the new session's open, ms (count, p50, p90, p99 and max are written)
 */
public record ChurnRecord(int pool, long closes, long reconnects, double connectsPerS, Map<String, Integer> failures,
                          LatencySummary reconnectMs) {

    /** A point whose churn failed more than this share of its closes is warned about. */
    public static final double FAILURE_WARN_RATIO = 0.01;
    /** A point whose churn served less than this share of the asked pool/s is warned about. */
    public static final double SERVED_WARN_RATIO = 0.90;

    public ChurnRecord {
        failures = new TreeMap<>(failures);
    }

    /** The record of a window of {@code windowS} seconds from its counts and reconnect-time histogram (µs). */
    public static ChurnRecord of(int pool, long closes, long reconnects, double windowS, Map<String, Integer> failures,
                                 Histogram reconnectMicros) {
        return new ChurnRecord(pool, closes, reconnects, windowS > 0 ? reconnects / windowS : 0, failures,
                LatencySummary.of(reconnectMicros));
    }

    /** Failed reconnects (and dropped pool sessions), every reason together. */
    public long failed() {
        return failures.values().stream().mapToLong(Integer::longValue).sum();
    }

    /** The connects/s asked: every pool session once a second. */
    public double askedPerS() {
        return pool;
    }

    /**
     * The warning line when the server did not serve the churn: more than 1 % of the closes failed
     * to come back, or fewer than 90 % of the asked connects/s were served; null otherwise.
     *
     * @param where "level N, rate R/s (phase)" of the point
     */
    public String warning(String where) {
        boolean failing = failed() > FAILURE_WARN_RATIO * closes;
        boolean slow = connectsPerS < SERVED_WARN_RATIO * askedPerS();
        if (!failing && !slow) {
            return null;
        }
        String reason = failures.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .map(e -> "; " + failed() + " failed, most often: " + e.getKey() + " (" + e.getValue() + ")")
                .findFirst().orElse("; no reconnect failed");
        return String.format(Locale.ROOT, "%s: churn asked %.0f connects/s of the server (pool %d), it served %.1f "
                + "(%d closes, %d reconnects in the window%s)", where, askedPerS(), pool, connectsPerS, closes,
                reconnects, reason);
    }
}
