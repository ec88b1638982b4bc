package sockbench.client.engine;

import sockbench.client.sockjs.FrameValidator;
import sockbench.client.sockjs.SockJsByteHandler;
import sockbench.client.sockjs.SockJsByteScanner;
import sockbench.client.websocket.WsFrameDecoder;
import sockbench.client.websocket.WsFrameSink;

/**
 * Where one connection's decoded frames go: text messages to the SockJS scanner (or straight
 * to the loop for raw websockets), the messages in them to {@link ConnectionEvents#message},
 * how many each data frame carried to {@link ConnectionEvents#frame}, and pings, close frames
 * and SockJS {@code o} / {@code c[...]} to the {@link Connection}'s state machine.
 *
 * <p>This is the hot path: {@link WsFrameDecoder} calls {@link #onText} with a range of the
 * read buffer and every message is passed on as a range of it too, so nothing is allocated or
 * copied per frame or per message (client-java/README.md, "The receive path").
 */
final class ReceiveSink implements WsFrameSink, SockJsByteHandler {

    private final Connection connection;
    private final ConnectionEvents events;
    private final boolean raw;
    /** Full UTF-8 and SockJS grammar check of every message ({@code --validate}); null normally. */
    private final FrameValidator validator;

    ReceiveSink(Connection connection, ConnectionEvents events, Transport transport, boolean validate) {
        this.connection = connection;
        this.events = events;
        this.raw = transport == Transport.RAW;
        this.validator = validate ? new FrameValidator(transport == Transport.SOCKJS) : null;
    }

    // --- WsFrameSink: frames decoded by WsFrameDecoder --------------------------------------

    @Override
    public void onText(byte[] buf, int start, int end) {
        if (connection.state() == Connection.State.CLOSED) {
            return;
        }
        if (validator != null) {
            validator.check(buf, start, end);
        }
        if (raw) {
            events.message(connection, buf, start, end);
            events.frame(connection, 1);
        } else {
            int messages = SockJsByteScanner.scan(buf, start, end, this);
            if (messages != 0) { // o, h, c[...] and an empty a[] carry no messages: not data frames
                events.frame(connection, messages);
            }
        }
    }

    @Override
    public void onPing(byte[] buf, int start, int end) {
        connection.answerPing(buf, start, end);
        // A server's heartbeat too: sockjs-node 0.3.24 keeps a websocket session alive with a
        // websocket ping every heartbeat interval instead of the SockJS "h" frame.
        events.heartbeat(connection);
    }

    @Override
    public void onCloseFrame(int code, String reason) {
        connection.closeFrameReceived(code, reason);
    }

    // --- SockJsByteHandler: SockJS frames ----------------------------------------------------

    @Override
    public void onOpen() {
        connection.sessionOpened();
    }

    @Override
    public void onHeartbeat() {
        events.heartbeat(connection);
    }

    @Override
    public void onMessage(byte[] buf, int start, int end) {
        events.message(connection, buf, start, end);
    }

    @Override
    public void onClose(int code, String reason) {
        connection.sessionClosed(code, reason);
    }
}
