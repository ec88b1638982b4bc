package sockbench.client.sockjs;

/** A frame that is not valid SockJS: the connection that sent it is broken and must be closed. */
public final class SockJsProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SockJsProtocolException(String message, CharSequence frame) {
        super(message + " in frame: " + abbreviate(frame));
    }

    private static String abbreviate(CharSequence frame) {
        return frame.length() <= 80 ? frame.toString() : frame.subSequence(0, 77) + "...";
    }
}
