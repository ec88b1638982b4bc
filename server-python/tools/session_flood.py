"""Session flood: how much memory can sessions take?

C keep-alive connections (threads) each post ``/broadcast/000/<random>/xhr``
as fast as the server answers (P requests pipelined at a time), for T seconds: every request creates a
session, which lives ``disconnect_delay`` (5 s) after it. The server's
resident memory is sampled from outside (``/proc/PID/statm``) every 50 ms:
*before*, *peak*, and *after* (``disconnect_delay`` + 1 s after the flood,
when every session it created has expired). Answers are counted by status:
``200`` (a session made), ``503`` (refused by the session budget,
docs/protocol.md section 7), anything else.

    python tools/session_flood.py --server ".venv-pypy/bin/python -m sockbench_server" --seconds 15

``--server`` is started with ``--port 0`` added (prefix it with ``taskset -c
0`` to pin it, add ``--max-sessions N`` to set the budget); ``--url`` with
``--pid`` floods a server that is already running. Any server of the kit
works (``node server-node/broadcast.js``).
"""
from __future__ import annotations

import argparse
import socket
import sys
import threading
import time
import uuid
from typing import Dict, List
from urllib.parse import urlsplit

from http_response import read_response
from measured_server import (add_server_args, check_server_args, rss_bytes, rss_summary,
                             start_or_attach, stop_server)

DISCONNECT_DELAY_S = 5.0
SAMPLE_EVERY_S = 0.05


def flood(host: str, port: int, until: float, pipeline: int, counts: Dict[str, int],
          lock: threading.Lock) -> None:
    s = socket.create_connection((host, port))
    f = s.makefile("rb")
    mine: Dict[str, int] = {}
    try:
        while time.monotonic() < until:
            s.sendall(b"".join(("POST /broadcast/000/%s/xhr HTTP/1.1\r\nHost: %s:%d\r\n"
                                "Content-Length: 0\r\n\r\n" % (uuid.uuid4().hex, host, port))
                               .encode() for _ in range(pipeline)))
            for _ in range(pipeline):
                status = str(read_response(f))
                mine[status] = mine.get(status, 0) + 1
    except (OSError, ConnectionError, ValueError) as e:
        mine["error: %s" % type(e).__name__] = 1
    finally:
        s.close()
        with lock:
            for k, v in mine.items():
                counts[k] = counts.get(k, 0) + v


def run(url: str, pid: int, *, connections: int, seconds: float, pipeline: int = 1) -> Dict:
    u = urlsplit(url)
    host, port = u.hostname or "127.0.0.1", u.port or 80
    time.sleep(1.0)
    before = rss_bytes(pid)
    counts: Dict[str, int] = {}
    lock = threading.Lock()
    until = time.monotonic() + seconds
    threads = [threading.Thread(target=flood, args=(host, port, until, pipeline, counts, lock))
               for _ in range(connections)]
    for t in threads:
        t.start()
    peak = before
    while any(t.is_alive() for t in threads):
        peak = max(peak, rss_bytes(pid))
        time.sleep(SAMPLE_EVERY_S)
    settle = time.monotonic() + DISCONNECT_DELAY_S + 1.0
    while time.monotonic() < settle:
        peak = max(peak, rss_bytes(pid))
        time.sleep(SAMPLE_EVERY_S)
    return {"before": before, "peak": peak, "after": rss_bytes(pid), "counts": counts}


def main(argv: List[str] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    add_server_args(p)
    p.add_argument("--seconds", type=float, default=15.0, metavar="T",
                   help="flood duration in seconds, > 0 (default: 15)")
    p.add_argument("--connections", type=int, default=1, metavar="C",
                   help="keep-alive connections posting at once, 1-64 (default: 1)")
    p.add_argument("--pipeline", type=int, default=1, metavar="P",
                   help="requests sent at once on a connection before reading their "
                        "answers, 1-256 (default: 1)")
    args = p.parse_args(argv)
    if not 1 <= args.pipeline <= 256:
        p.error("--pipeline must be 1-256")
    check_server_args(p, args)
    if not args.seconds > 0 or not 1 <= args.connections <= 64:
        p.error("--seconds must be > 0 and --connections 1-64")
    server, url, pid = start_or_attach(args.server, args.url, args.pid)
    try:
        r = run(url, pid, connections=args.connections, seconds=args.seconds,
                pipeline=args.pipeline)
    finally:
        log = stop_server(server) if server else ""
    answers = ", ".join("%s: %d" % kv for kv in sorted(r["counts"].items()))
    print("flood: %d connection(s), %d pipelined, for %.0f s; answers %s"
          % (args.connections, args.pipeline, args.seconds, answers))
    print(rss_summary(r))
    if log:
        lines = [line for line in log.splitlines() if "session limit" in line.lower()]
        print("server log: %d line(s) about the session limit" % len(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
