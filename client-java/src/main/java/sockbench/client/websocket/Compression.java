package sockbench.client.websocket;

import java.util.Optional;

/**
 * Whether the websocket upgrade asks for per-message compression ({@code --compression}, the
 * results' {@code parameters.compression}). docs/compression.md says what is negotiated and what
 * it costs the client.
 */
public enum Compression {
    /** No extension offered: the upgrade request has no {@code Sec-WebSocket-Extensions}. */
    NONE("none"),
    /** RFC 7692 permessage-deflate offered; a server that does not accept it fails the session's open. */
    PERMESSAGE_DEFLATE("permessage-deflate");

    private final String userName;

    Compression(String userName) {
        this.userName = userName;
    }

    /** The name on the command line, in results and on the READY line: {@code none}, {@code permessage-deflate}. */
    public String userName() {
        return userName;
    }

    /** The value {@code name} spells (exactly, as the command line and results write it), or empty. */
    public static Optional<Compression> byUserName(String name) {
        for (Compression c : values()) {
            if (c.userName.equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
