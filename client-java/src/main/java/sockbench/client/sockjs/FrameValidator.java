package sockbench.client.sockjs;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The {@code --validate} debug mode's check of one websocket text message: strict UTF-8
 * (RFC 6455 §8.1 requires a client to fail the connection on invalid UTF-8) and the full SockJS
 * grammar with every JSON escape interpreted ({@link SockJsFrameParser}). The hot path skips
 * both because this client's payloads are ASCII by construction; this mode is for checking a
 * server that might not send what we expect, at the cost of a String per frame.
 *
 * <p>One instance per I/O thread (it owns a decoder).
 */
public final class FrameValidator {

    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private final SockJsFrameParser parser = new SockJsFrameParser();
    private final boolean sockjs;

    /** @param sockjs true: the messages are SockJS frames; false (raw transport): only UTF-8 is checked */
    public FrameValidator(boolean sockjs) {
        this.sockjs = sockjs;
    }

    /**
     * @throws SockJsProtocolException if the message is not valid UTF-8 or (SockJS) not a valid frame
     */
    public void check(byte[] b, int start, int end) {
        String text;
        try {
            text = utf8.reset().decode(ByteBuffer.wrap(b, start, end - start)).toString();
        } catch (CharacterCodingException e) {
            throw new SockJsProtocolException("invalid UTF-8 (" + e.getMessage() + ")",
                    new String(b, start, Math.min(200, end - start), StandardCharsets.ISO_8859_1));
        }
        if (sockjs) {
            parser.parse(text, IGNORE);
        }
    }

    private static final FrameHandler IGNORE = new FrameHandler() {
        @Override
        public void onOpen() {
        }

        @Override
        public void onHeartbeat() {
        }

        @Override
        public void onMessage(CharSequence text, int start, int end) {
        }

        @Override
        public void onClose(int code, String reason) {
        }
    };
}
