package sockbench.client.engine;

import java.util.Locale;
import java.util.Optional;
import sockbench.client.http.HttpReceiveTransport;

/**
 * The SockJS transports a client session can use (sockjs-protocol 0.3.3): the websocket, or one
 * of the HTTP ones that receive on a streaming or polling request and send with {@code xhr_send}
 * POSTs. The one list of transport names: {@code --transports}, the result file and the runner's
 * {@code TRANSPORTS=} all use {@link #userName()}.
 */
public enum SessionTransport {
    /** {@code <session>/websocket}: one socket both ways. */
    WEBSOCKET(null),
    /** {@code <session>/xhr_streaming}: a chunked response re-opened every response_limit bytes. */
    XHR_STREAMING(HttpReceiveTransport.XHR_STREAMING),
    /** {@code <session>/eventsource}: a text/event-stream response, re-opened the same way. */
    EVENTSOURCE(HttpReceiveTransport.EVENTSOURCE),
    /** {@code <session>/xhr}: one frame per response, polled again at once. */
    XHR_POLLING(HttpReceiveTransport.XHR_POLLING);

    private static final SessionTransport[] ALL = values();

    private final HttpReceiveTransport http;

    SessionTransport(HttpReceiveTransport http) {
        this.http = http;
    }

    /** The HTTP receiving transport; null for the websocket. */
    public HttpReceiveTransport http() {
        return http;
    }

    /** The name users write ({@code websocket}, {@code xhr-streaming}, {@code eventsource}, {@code xhr-polling}). */
    public String userName() {
        return http == null ? "websocket" : http.userName();
    }

    /** The transport named {@code name} (exactly as {@link #userName()}, case-insensitive). */
    public static Optional<SessionTransport> byUserName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (SessionTransport t : ALL) {
            if (t.userName().equals(n)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** Every user name, comma-separated (for usage errors). */
    public static String userNames() {
        StringBuilder b = new StringBuilder();
        for (SessionTransport t : ALL) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(t.userName());
        }
        return b.toString();
    }
}
