"""What one idle session costs a server: resident memory growth over N
sessions, divided by N (the per-session figure behind the default of
``--max-sessions``, server-python/README.md "Session budget").

    python tools/session_cost.py --server ".venv-pypy/bin/python -m sockbench_server --max-sessions 1000000" \\
        --kind websocket --sessions 4000

``websocket``: N framed websocket sessions on ``/broadcast``, held open;
``xhr``: N xhr sessions created from one keep-alive connection (each waits
to expire, with no connection). Memory from ``/proc/PID/statm``, one second
after the last session (before: one second after READY).
"""
from __future__ import annotations

import argparse
import base64
import os
import shlex
import socket
import sys
import time
import uuid

from http_response import read_response
from measured_server import MiB, raise_fd_limit, rss_bytes, start_server, stop_server


def open_websockets(port: int, n: int) -> list:
    held = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(("GET /broadcast/000/%s/websocket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                   "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
                   % (uuid.uuid4().hex, base64.b64encode(os.urandom(16)).decode())).encode())
        got = b""
        while not (b"\r\n\r\n" in got and got.endswith(b"o")):
            chunk = s.recv(4096)
            if not chunk:
                raise SystemExit("session_cost: the server closed a websocket: %r" % got[:200])
            got += chunk
        held.append(s)
    return held


def open_xhr_sessions(port: int, n: int) -> None:
    s = socket.create_connection(("127.0.0.1", port))
    f = s.makefile("rb")
    for _ in range(n):
        s.sendall(("POST /broadcast/000/%s/xhr HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
                   % uuid.uuid4().hex).encode())
        status = read_response(f)
        if status != 200:
            raise SystemExit("session_cost: HTTP %d (raise --max-sessions?)" % status)
    s.close()


def measure(server_argv: list, kind: str, sessions: int, settle_s: float = 1.0,
            before_sessions=None, while_held=None) -> dict:
    """Start the server, open ``sessions`` of ``kind``, and read its RSS one
    second after READY (``before``) and ``settle_s`` after the last session
    (``after``). ``before_sessions(server)`` runs right after ``before`` was
    read, ``while_held(server)`` with the sessions still open after ``after``
    was (tools/heap_breakdown.py takes its snapshots there). Returns the
    READY line, pid and RSS."""
    server = start_server(server_argv)
    port = int(server.url.rsplit(":", 1)[1])
    try:
        time.sleep(1.0)
        before = rss_bytes(server.pid)
        if before_sessions is not None:
            before_sessions(server)
        held = open_websockets(port, sessions) if kind == "websocket" else None
        if held is None:
            open_xhr_sessions(port, sessions)
        time.sleep(settle_s)
        after = rss_bytes(server.pid)
        if while_held is not None:
            while_held(server)
    finally:
        stop_server(server)
    return {"ready_line": server.ready_line, "pid": server.pid, "before": before, "after": after}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    p.add_argument("--server", required=True, metavar="COMMAND",
                   help="server command to start (--port 0 is added)")
    p.add_argument("--kind", choices=("websocket", "xhr"), default="websocket")
    p.add_argument("--sessions", type=int, default=4000, metavar="N",
                   help="sessions to open, 1-15000 (default: 4000)")
    args = p.parse_args(argv)
    if not 1 <= args.sessions <= 15000:
        p.error("--sessions must be 1-15000")
    raise_fd_limit(args.sessions + 200, "session_cost")
    r = measure(shlex.split(args.server), args.kind, args.sessions)
    print(r["ready_line"])
    print("%s: %d sessions, RSS %.1f -> %.1f MiB: %.0f bytes a session"
          % (args.kind, args.sessions, r["before"] / MiB, r["after"] / MiB,
             (r["after"] - r["before"]) / args.sessions))
    return 0


if __name__ == "__main__":
    sys.exit(main())
