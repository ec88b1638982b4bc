package sockbench.client.engine;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ThreadLocalRandom;
import sockbench.client.websocket.Compression;

/**
 * Where the connections go: the SockJS app URL (e.g. {@code http://127.0.0.1:8080/broadcast})
 * and the transport, which together give each connection's websocket path, and what the
 * websocket upgrade asks of that endpoint ({@link Compression}).
 */
public final class Target {

    private final String url;
    private final String host;
    private final int port;
    private final String prefix;
    private final Transport transport;
    private final InetSocketAddress address;
    private final Compression compression;

    /** A target whose websocket upgrades offer no extension. */
    public Target(String url, Transport transport) {
        this(url, transport, Compression.NONE);
    }

    /**
     * @param url         SockJS app URL: {@code http://} or {@code ws://}, host, port, path prefix
     * @param transport   sockjs (framed) or raw websocket
     * @param compression what every websocket upgrade offers (HTTP transports are never compressed)
     * @throws IllegalArgumentException if the URL is not of that form
     */
    public Target(String url, Transport transport, Compression compression) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: " + url);
        }
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("ws"))) {
            throw new IllegalArgumentException("URL must start with http:// or ws:// (TLS is not supported): " + url);
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("URL has no host: " + url);
        }
        this.url = url;
        this.host = uri.getHost();
        this.port = uri.getPort() == -1 ? 80 : uri.getPort();
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        this.prefix = path;
        this.transport = transport;
        this.address = new InetSocketAddress(host, port);
        this.compression = compression;
    }

    public String url() {
        return url;
    }

    public Transport transport() {
        return transport;
    }

    /** What every websocket upgrade offers: no extension, or permessage-deflate. */
    public Compression compression() {
        return compression;
    }

    public InetSocketAddress address() {
        return address;
    }

    /** Value of the HTTP Host header. */
    public String hostHeader() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * The websocket path for one connection. SockJS sessions get a random 3-digit server id
     * and a session id unique within the process (the client index plus random letters).
     */
    public String websocketPath(int clientIndex) {
        if (transport == Transport.RAW) {
            return prefix + "/websocket";
        }
        return sessionPath(clientIndex) + "/websocket";
    }

    /**
     * A new SockJS session's base path, {@code <prefix>/<server>/<session>}, to which each
     * transport appends its own segment ({@code /websocket}, {@code /xhr_streaming}, …): a random
     * 3-digit server id and a session id unique within the process (the client index plus random
     * letters), so a reconnect is a new session.
     */
    public String sessionPath(int clientIndex) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String server = String.format("%03d", r.nextInt(1000));
        String session = "c" + clientIndex + "-" + Long.toString(r.nextLong() & Long.MAX_VALUE, 36);
        return prefix + "/" + server + "/" + session;
    }
}
