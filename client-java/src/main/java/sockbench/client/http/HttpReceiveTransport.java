package sockbench.client.http;

import java.util.Optional;

/**
 * The SockJS HTTP transports that carry frames from the server to the client (SockJS protocol
 * 0.3.3). Messages from the client always go the same way for all three: {@code POST
 * <session>/xhr_send} ({@link HttpRequests#send}).
 *
 * <p>A <em>streaming</em> transport's response carries many frames and ends when the server has
 * written its {@code response_limit} (128 KiB by default in sockjs-node and sockjs-tornado); a
 * polling response carries exactly one frame. Either way the client then sends the next receiving
 * request for the same session.
 */
public enum HttpReceiveTransport {
    /** {@code POST <session>/xhr_streaming}: a prelude line of 2048 {@code h}, then one frame per line. */
    XHR_STREAMING("xhr-streaming", "xhr_streaming", "POST", true),
    /** {@code GET <session>/eventsource}: a {@code \r\n} prelude, then one {@code data: <frame>\r\n\r\n} event per frame. */
    EVENTSOURCE("eventsource", "eventsource", "GET", true),
    /** {@code POST <session>/xhr}: exactly one frame and {@code \n} per response. */
    XHR_POLLING("xhr-polling", "xhr", "POST", false);

    private final String userName;
    private final String pathSuffix;
    private final String method;
    private final boolean streaming;

    HttpReceiveTransport(String userName, String pathSuffix, String method, boolean streaming) {
        this.userName = userName;
        this.pathSuffix = pathSuffix;
        this.method = method;
        this.streaming = streaming;
    }

    /**
     * The name users give the transport ({@code TRANSPORTS=xhr-streaming}), as sockjs-client names
     * it; never null.
     */
    public String userName() {
        return userName;
    }

    /**
     * The last path segment of the receiving request, appended to {@code <prefix>/<server>/<session>/}
     * (no slash of its own, e.g. {@code xhr_streaming}).
     */
    public String pathSuffix() {
        return pathSuffix;
    }

    /** The receiving request's HTTP method: {@code "POST"} or {@code "GET"}. */
    public String method() {
        return method;
    }

    /**
     * True when one response carries many frames until the server's {@code response_limit}; false
     * for polling (one frame per response).
     */
    public boolean streaming() {
        return streaming;
    }

    /**
     * The transport a user name stands for.
     *
     * @param userName {@link #userName()} exactly (case-sensitive, as the other names of the kit are); null gives empty
     * @return the transport, or empty for any other name (including {@code websocket})
     */
    public static Optional<HttpReceiveTransport> byUserName(String userName) {
        for (HttpReceiveTransport t : values()) {
            if (t.userName.equals(userName)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
