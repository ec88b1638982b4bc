package sockbench.client.stats;

import java.util.Map;
import java.util.TreeMap;

/**
 * A level's {@code connect}: how its connections opened.
 *
 * @param ratePerS     the paced target, connections started per second; null = unpaced
 * @param achievedPerS connections opened ÷ connect time, per second; null when the time was 0
 * @param failures     failed connections by short reason ("Connection refused", "Too many open files",
 *                     "timeout", ...); empty when none failed
 */
public record ConnectRecord(Double ratePerS, Double achievedPerS, Map<String, Integer> failures) {

    public ConnectRecord {
        failures = new TreeMap<>(failures);
    }

    /** The record of {@code connected} connections opened in {@code connectS} seconds at target {@code ratePerS} (0 = unpaced). */
    public static ConnectRecord of(double ratePerS, int connected, double connectS, Map<String, Integer> failures) {
        return new ConnectRecord(ratePerS > 0 ? ratePerS : null, connectS > 0 ? connected / connectS : null, failures);
    }

    /**
     * The warning line when some connections failed, e.g.
     * {@code level 5000: 4990 of 5000 connections opened; 10 failed: Too many open files (10)}; null when none failed.
     */
    public static String warning(int level, int requested, int connected, int failed, Map<String, Integer> byReason,
                                 String firstError) {
        if (failed <= 0) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        b.append("level ").append(level).append(": ").append(connected).append(" of ").append(requested)
                .append(" connections opened; ").append(failed).append(" failed: ");
        if (byReason.isEmpty()) {
            b.append(firstError == null ? "unknown" : firstError);
        } else {
            b.append(reasonsText(byReason));
        }
        return b.toString();
    }

    /** Failures by reason as {@code Too many open files (7), timeout (3)}: most frequent first, the one to fix. */
    public static String reasonsText(Map<String, Integer> byReason) {
        return byReason.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()
                        .thenComparing(Map.Entry.comparingByKey()))
                .map(e -> e.getKey() + " (" + e.getValue() + ")")
                .reduce((x, y) -> x + ", " + y).orElse("");
    }
}
