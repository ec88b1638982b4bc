"""TRANSPORTS=: which SockJS transport each client session uses (websocket, xhr-streaming,
eventsource, xhr-polling, or a weighted mix such as websocket:80,xhr-streaming:10,eventsource:5,
xhr-polling:5).

The client owns the names and the mix's rules (client-java `SessionTransport` and `TransportMix`,
client-java/README.md "Transports"): the runner keeps no copy. It asks the jar
(`--check-transports`) before any server starts, so a typo is one line and exit 2 rather than a
failure minutes into a run, and passes the canonical form the jar answers to every client run and
warm-up pass. The result records it (`parameters.transports`).
"""

import subprocess

#: The value that keeps every session on the websocket (the runner's default, and every file before v6).
WEBSOCKET = "websocket"


def canonical(java_prefix, spec, transport):
    """(canonical spec, None) for TRANSPORTS=`spec` with the client's --transport `transport`, or
    (None, reason) when the client refuses it (the reason is the client's one line).

    java_prefix: the argv that runs the client jar (measure.java_command)."""
    proc = subprocess.run([*java_prefix, "--check-transports", "--transport", transport, "--transports", spec],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    if proc.returncode == 0:
        return proc.stdout.strip(), None
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    return None, f"TRANSPORTS={spec}: " + (lines[0] if lines else f"the client exited {proc.returncode}")


def client_args(spec):
    """The client flags for TRANSPORTS=`spec` (none for plain websocket sessions: the client's default)."""
    return [] if spec == WEBSOCKET else ["--transports", spec]


def has_http(spec):
    """Whether the canonical `spec` puts any session on an HTTP transport (anything but the websocket)."""
    return any(entry.split(":")[0] != WEBSOCKET for entry in spec.split(","))


def refusal(spec, variants, workers, proxy=None):
    """The one line refusing TRANSPORTS=`spec` for this run, or None. HTTP transports need every server
    to serve them (registry `websocket_only` says who does not, e.g. the C limit server) and one worker
    or a proxy: with several workers of their own a session's requests would reach different
    processes, so the servers refuse them (server-python/README.md, "Scale-out"); behind PROXY=haproxy
    each backend is one worker and the proxy keeps a session on one (docs/scaling-out.md)."""
    if not has_http(spec):
        return None
    only = [v.name for v in variants if getattr(v, "websocket_only", False)]
    if only:
        return (f"TRANSPORTS={spec}: {', '.join(only)} serve{'s' if len(only) == 1 else ''} only the websocket "
                "transport (registry websocket_only); run them with TRANSPORTS=websocket")
    if workers > 1 and proxy is None:
        return (f"TRANSPORTS={spec}: with {workers} worker processes a session's HTTP requests would reach "
                "different workers, and the servers refuse HTTP transports there; run WORKERS=1, or "
                f"WORKERS={workers} PROXY=haproxy")
    return None
