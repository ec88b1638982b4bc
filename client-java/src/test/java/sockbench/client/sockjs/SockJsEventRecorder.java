package sockbench.client.sockjs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Records what the byte scanner or the frame parser reports, one readable string per event, so
 * both tests state their expectations in the same words.
 */
final class SockJsEventRecorder implements SockJsByteHandler, FrameHandler {
    final List<String> events = new ArrayList<>();

    @Override
    public void onOpen() {
        events.add("open");
    }

    @Override
    public void onHeartbeat() {
        events.add("heartbeat");
    }

    /** A message as the scanner reports it: a byte range, still escaped. */
    @Override
    public void onMessage(byte[] buf, int start, int end) {
        events.add("msg:" + new String(buf, start, end - start, StandardCharsets.UTF_8));
    }

    /** A message as the parser reports it: unescaped text. */
    @Override
    public void onMessage(CharSequence text, int start, int end) {
        events.add("msg:" + text.subSequence(start, end));
    }

    @Override
    public void onClose(int code, String reason) {
        events.add("close:" + code + ":" + reason);
    }
}
