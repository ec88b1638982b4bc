"""The HAProxy configuration that puts several one-worker servers behind one port (PROXY=haproxy).

One job: the text of the configuration (render) and the file (write); proxy_front.py starts the
servers and haproxy with it. docs/scaling-out.md ("HTTP transports through a proxy") is the design.

Why a proxy at all: a polling or streaming SockJS session is several HTTP requests (xhr_streaming
then xhr_send, one xhr poll after another), and only the process that created the session knows
it. So every request of one session must reach the same backend: the proxy routes on the session
path segment, `/<prefix>/<server>/<session>/<transport>`, by a hash of `<session>` alone. Every
other request (`<prefix>/info`, `iframe*.html`, the greeting, the raw `<prefix>/websocket`) holds
no session state and may go anywhere: those are spread round-robin, so raw websockets, all of which
share one URL, do not all land on one backend as a hash of their path would make them.

Every directive below carries a comment saying why it is there; the unit test checks that the
rendered text is a configuration haproxy accepts (`haproxy -c`).
"""

import math

#: The HTTP transports and the framed websocket: the last path segment of a session's requests
#: (docs/protocol.md §4). The framed websocket is one connection, but routing it by session as well
#: costs nothing and keeps one rule for every session URL.
SESSION_TRANSPORTS = ("xhr", "xhr_send", "xhr_streaming", "eventsource", "htmlfile", "jsonp", "jsonp_send",
                      "websocket")

#: The response header naming the backend that served a request: the end-to-end test checks with it
#: that every request of one session reached one backend, and an operator sees it with curl -i.
BACKEND_HEADER = "X-Sockbench-Backend"

#: How long a websocket (after the upgrade, a tunnel to haproxy) may stay silent. A framed SockJS
#: websocket hears a heartbeat every interval, but a raw one (`/websocket`) hears nothing while the
#: application sends nothing; an hour keeps an idle benchmark connection open through any hold.
TUNNEL_TIMEOUT_S = 3600


def idle_timeout_s(heartbeat_s):
    """How long a request may wait for the server's next byte: a long poll or a stream is silent for
    up to one heartbeat interval, so twice that plus 10 s (a heartbeat late on a loaded server must
    not cut a session), and never under the 60 s SockJS's own long-poll clients expect."""
    return max(60, math.ceil(2 * heartbeat_s) + 10)


def render(listen_host, listen_port, backends, heartbeat_s, maxconn):
    """The configuration text.

    listen_host, listen_port: the public address (the server's HOST and PORT). backends: [(name,
    host, port), ...], one per one-worker server process, at least one. heartbeat_s: the servers'
    SockJS heartbeat, seconds > 0 (it bounds how long a request may be silent). maxconn: the most
    connections haproxy holds at once (proxy_front.py derives it from the open-files limit).
    """
    if not backends:
        raise ValueError("at least one backend")
    idle = idle_timeout_s(heartbeat_s)
    host = listen_host.strip("[]")
    servers = [f"    server {name} {h}:{p}" for name, h, p in backends]
    transports = "|".join(SESSION_TRANSPORTS)
    lines = [
        "# Written by docs/contract/sockbench_contract/haproxy_config.py for one run; not edited by hand.",
        "global",
        "    # Every connection holds one descriptor on each side; haproxy raises its own open-files limit",
        "    # to fit this (up to the hard limit, from which proxy_front.py derived it).",
        f"    maxconn {maxconn}",
        "    # No 'log' line: nothing is logged, since a log line per request is CPU the benchmark would",
        "    # count as the proxy's. No 'nbthread': haproxy starts one thread per CPU it may run on, and",
        "    # it inherits the server's CPU set (SERVER_CPU), so it uses the cores the servers use.",
        "",
        "defaults",
        "    # HTTP mode: haproxy must read each request's path to route it (a TCP proxy could not).",
        "    mode http",
        "    # Same as the global limit: a frontend's own default (2000 in some versions) would refuse",
        "    # connections long before the processes behind it are full.",
        f"    maxconn {maxconn}",
        "    # Keep both sides' connections open between requests. haproxy still routes every request on",
        "    # its own, so one browser connection may carry requests of sessions on different backends;",
        "    # http-server-close would cost a backend connect per poll of every polling session.",
        "    option http-keep-alive",
        "    # Send every byte as soon as the server sent it. Without this haproxy tells the kernel more",
        "    # of a chunked response is coming (MSG_MORE), which holds a streaming frame (xhr_streaming,",
        "    # eventsource, htmlfile) up to 200 ms: a latency the servers never caused. Nothing else",
        "    # buffers a response: no compression is configured, and request buffering is off by default.",
        "    option http-no-delay",
        "    # Local backends answer a connect at once; 5 s only bounds a backend that stopped.",
        "    timeout connect 5s",
        "    # A request's headers must arrive within 10 s (a slow-header client cannot hold a slot).",
        "    timeout http-request 10s",
        "    # An idle keep-alive connection between two requests: sockjs-client polls again at once,",
        "    # so the idle timeout below is plenty.",
        f"    timeout http-keep-alive {idle}s",
        f"    # Long polls and streams are silent for up to one heartbeat ({heartbeat_s:g} s): twice that",
        "    # plus a margin on both sides, so no session is cut between two heartbeats.",
        f"    timeout client {idle}s",
        f"    timeout server {idle}s",
        "    # After the websocket upgrade the connection is a tunnel; a raw websocket has no heartbeat.",
        f"    timeout tunnel {TUNNEL_TIMEOUT_S}s",
        "    # A side that closed its half is gone: do not keep the other half for the tunnel's hour.",
        "    timeout client-fin 5s",
        "    timeout server-fin 5s",
        "",
        "frontend sockjs",
        "    # The public address: what the servers' READY line would have named without the proxy.",
        f"    bind {host}:{listen_port}",
        "    # A session's URL: /<prefix>/<server>/<session>/<transport>; server and session ids contain",
        "    # neither '/' nor '.' (SockJS), and sockjs-node accepts a trailing slash.",
        f"    acl sockjs_session path_reg '^/.+/[^/.]+/[^/.]+/({transports})/?$'",
        "    use_backend sessions if sockjs_session",
        "    # /info, /iframe*.html, the greeting and raw /websocket hold no session: any backend serves them.",
        "    default_backend anywhere",
        "",
        "backend sessions",
        "    # The hash of the session id alone (the path's last segment but one, after any trailing",
        "    # slash), so every request of one session reaches one backend, whatever its transport.",
        "    balance hash path,regsub('/$',''),field(-2,/)",
        "    # Consistent hashing: were a backend taken out, only its own sessions would move.",
        "    hash-type consistent",
        "    # Which backend served the request (tests and operators read it; one header a response).",
        f"    http-response set-header {BACKEND_HEADER} %s",
        "    # No health checks: proxy_front.py stops the whole group when a backend dies, and a check",
        "    # every few seconds would be requests the benchmark counts.",
        *servers,
        "",
        "backend anywhere",
        "    # No session state behind these requests: spread them, raw websockets above all.",
        "    balance roundrobin",
        f"    http-response set-header {BACKEND_HEADER} %s",
        *servers,
        "",
    ]
    return "\n".join(lines)


def write(path, listen_host, listen_port, backends, heartbeat_s, maxconn):
    """Write render(...) to `path` (in the run's temporary directory); returns path."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(render(listen_host, listen_port, backends, heartbeat_s, maxconn))
    return path
