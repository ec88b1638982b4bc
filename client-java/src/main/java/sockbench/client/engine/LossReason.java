package sockbench.client.engine;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why an open session closed without the client asking, as a short stable key for counting
 * (a level's {@code idle.lost_reasons}): the close code and text of the server's SockJS close frame
 * or websocket close ({@code "SockJS close 3000 Go away!"}, {@code "websocket close 1001 going away"}),
 * the I/O error's message ({@code "Connection reset by peer"}), or {@code "EOF"} for a TCP close
 * without a close frame. Thousands of sessions lost at once usually share one cause; the key lets
 * them be counted under it.
 */
public final class LossReason {

    /** What a {@link Connection} says when the server closed the TCP connection without a close frame. */
    static final String SERVER_EOF = "server closed the TCP connection";

    private static final Pattern SOCKJS_CLOSE = Pattern.compile("SockJS close frame c\\[(-?\\d+),\"(.*)\"\\]", Pattern.DOTALL);
    private static final Pattern WEBSOCKET_CLOSE = Pattern.compile("websocket closed: (-?\\d+) ?(.*)", Pattern.DOTALL);
    /** The I/O step a connection names before the error ("read: Connection reset by peer"). */
    private static final Pattern IO_STEP = Pattern.compile("(read|write|send|close): (.*)", Pattern.DOTALL);
    private static final int MAX_LENGTH = 80;

    private LossReason() {
    }

    /** The key of a connection's close reason (as {@link ConnectionEvents#closed} reports it). */
    public static String of(String closeReason) {
        if (closeReason == null || closeReason.isBlank()) {
            return "unknown";
        }
        String r = closeReason.strip();
        if (r.equals(SERVER_EOF)) {
            return "EOF";
        }
        Matcher m = SOCKJS_CLOSE.matcher(r);
        if (m.matches()) {
            return cut(withText("SockJS close " + m.group(1), m.group(2)));
        }
        m = WEBSOCKET_CLOSE.matcher(r);
        if (m.matches()) {
            return cut(withText("websocket close " + m.group(1), m.group(2)));
        }
        m = IO_STEP.matcher(r);
        if (m.matches()) {
            return cut(exceptionMessage(m.group(2)));
        }
        return cut(r);
    }

    private static String withText(String code, String text) {
        return text.isBlank() ? code : code + " " + text.strip();
    }

    /**
     * The message of an exception as {@code toString()} writes it ("java.io.IOException: Broken
     * pipe" → "Broken pipe"); a bare class name becomes its simple name.
     */
    private static String exceptionMessage(String s) {
        int colon = s.indexOf(": ");
        if (colon > 0 && s.substring(0, colon).matches("[\\w.$]+")) {
            return s.substring(colon + 2);
        }
        if (s.matches("[a-z][\\w]*(\\.[\\w$]+)+")) {
            return s.substring(s.lastIndexOf('.') + 1);
        }
        return s;
    }

    private static String cut(String s) {
        return s.length() > MAX_LENGTH ? s.substring(0, MAX_LENGTH) : s;
    }
}
