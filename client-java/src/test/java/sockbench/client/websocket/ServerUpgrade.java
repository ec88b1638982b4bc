package sockbench.client.websocket;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The server's side of the upgrade, for tests that play the server (RFC 6455 section 4.2.2). */
public final class ServerUpgrade {

    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private ServerUpgrade() {
    }

    /**
     * The answer to the upgrade {@code request}: 101 with the Sec-WebSocket-Accept its key asks
     * for or, with {@code rightAccept} false, a wrong one (20 zero bytes, base64: same length).
     */
    public static String response(String request, boolean rightAccept) {
        return response(request, rightAccept, "");
    }

    /** As {@link #response(String, boolean)}, with {@code extraHeaders} (each ending in CRLF) before the blank line. */
    public static String response(String request, boolean rightAccept, String extraHeaders) {
        Matcher key = Pattern.compile("(?i)Sec-WebSocket-Key: (\\S+)\r\n").matcher(request);
        assertTrue(key.find(), "no Sec-WebSocket-Key in " + request);
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-1").digest((key.group(1) + GUID).getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        String accept = Base64.getEncoder().encodeToString(rightAccept ? digest : new byte[20]);
        return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: " + accept + "\r\n" + extraHeaders + "\r\n";
    }
}
