package sockbench.client.engine;

import java.util.Locale;

/** Which websocket endpoint of the SockJS app the client uses (docs/protocol.md §4.2). */
public enum Transport {
    /** Framed SockJS: {@code /<prefix>/<3 digits>/<session>/websocket}; frames o, h, a[...], c[...]. */
    SOCKJS,
    /** Raw WebSocket: {@code /<prefix>/websocket}; every text message is one application message. */
    RAW;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
