package sockbench.client.engine;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts how the connections of one level opened; written by the I/O threads, read by the
 * controller. Failures are counted by reason ({@link #reasonKey}): at 50,000 sessions a level can
 * fail for several reasons at once (the open-files limit, the server's backlog, timeouts), and the
 * first error alone hides which one dominated.
 */
public final class ConnectProgress {
    final int requested;
    final AtomicInteger connected = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    /** First failure reason seen, for the warning line. */
    volatile String firstError;
    private final ConcurrentHashMap<String, Integer> failures = new ConcurrentHashMap<>();

    ConnectProgress(int requested) {
        this.requested = requested;
    }

    /** A finished level opening as reported by others (the agents of a fleet, added up). */
    public static ConnectProgress of(int requested, int connected, int failed, String firstError,
                                     Map<String, Integer> failuresByReason) {
        ConnectProgress p = new ConnectProgress(requested);
        p.connected.set(connected);
        p.failed.set(failed);
        p.firstError = firstError;
        p.failures.putAll(failuresByReason);
        return p;
    }

    public int requested() {
        return requested;
    }

    public int connected() {
        return connected.get();
    }

    public int failed() {
        return failed.get();
    }

    public String firstError() {
        return firstError;
    }

    /** Failed connections by reason ({@link #reasonKey}), sorted by reason; empty when none failed. */
    public Map<String, Integer> failuresByReason() {
        return new TreeMap<>(failures);
    }

    public boolean done() {
        return connected.get() + failed.get() >= requested;
    }

    void fail(String reason) {
        if (firstError == null) {
            firstError = reason;
        }
        failures.merge(reasonKey(reason), 1, Integer::sum);
        failed.incrementAndGet();
    }

    /**
     * A failure's short stable reason: "timeout" for every timeout, the exception's own message
     * for a connect error ("Connection refused", "Too many open files"), otherwise the reason as
     * given (e.g. "handshake: HTTP 503"), at most 80 characters.
     */
    /** The status a server refused the websocket upgrade with, in Java-WebSocket's close reason. */
    private static final java.util.regex.Pattern REFUSED_HANDSHAKE =
            java.util.regex.Pattern.compile("Invalid status code received: (\\d{3})");

    public static String reasonKey(String reason) {
        if (reason == null || reason.isBlank()) {
            return "unknown";
        }
        String r = reason.strip();
        if (r.startsWith("timed out") || r.startsWith("level did not finish opening")) {
            return "timeout";
        }
        java.util.regex.Matcher refused = REFUSED_HANDSHAKE.matcher(r);
        if (refused.find()) {
            // Java-WebSocket's "websocket closed: 1002 Invalid status code received: 503 Status line: ..."
            return "handshake: HTTP " + refused.group(1);
        }
        if (r.startsWith("connect: ")) {
            // "connect: java.net.ConnectException: Connection refused" -> "Connection refused"
            int colon = r.lastIndexOf(": ");
            r = colon > "connect".length() ? r.substring(colon + 2) : r.substring("connect: ".length());
        }
        return r.length() > 80 ? r.substring(0, 80) : r;
    }
}
