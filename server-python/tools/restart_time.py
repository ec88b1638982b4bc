"""Restart time: ``kill -9`` of a worker -> its replacement accepts connections.

Starts ``--server`` (a command with ``--workers N --broker URL``) with
``--port 0 --status-file <temp>`` added, then K times: kill -9 the first
worker the status file lists, and time (monotonic clock, from just before
the kill) until the status file lists a new pid - which it does once the
new worker listens (docs/protocol.md section 6.2) - and until a new TCP
connection gets an answer to ``GET /broadcast/info``. Waits ``--pause``
seconds between kills (keep 5 kills out of one 10 s window: that is a crash
loop, and the server stops).

    python tools/restart_time.py --server ".venv-pypy/bin/python -m sockbench_server \\
        --workers 2 --broker redis://127.0.0.1:6379/0" --kills 5
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import socket
import statistics
import sys
import tempfile
import time
from typing import List

from measured_server import start_server, stop_server


def read_pids(path: str) -> List[int]:
    try:
        with open(path) as f:
            return json.load(f)["worker_pids"]
    except (FileNotFoundError, ValueError):
        return []


def info_answered(url: str) -> bool:
    host, port = url[len("http://"):].rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=1.0) as s:
            s.sendall(b"GET /broadcast/info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return s.recv(12).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    p.add_argument("--server", required=True, metavar="COMMAND",
                   help="server command with --workers N --broker URL (--port 0 and "
                        "--status-file are added)")
    p.add_argument("--kills", type=int, default=5, metavar="K", help="kills, 1-50 (default: 5)")
    p.add_argument("--pause", type=float, default=3.0, metavar="SECONDS",
                   help="between a replacement and the next kill, >= 2.5 (default: 3)")
    args = p.parse_args(argv)
    if not 1 <= args.kills <= 50 or args.pause < 2.5:
        p.error("--kills must be 1-50 and --pause >= 2.5 (5 deaths in 10 s stop the server)")
    status = os.path.join(tempfile.mkdtemp(prefix="restart-time-"), "status.json")
    server = start_server(shlex.split(args.server) + ["--status-file", status])
    print(server.ready_line)
    workers = int(server.fields["workers"])
    to_listed: List[float] = []
    to_served: List[float] = []
    try:
        for _ in range(args.kills):
            time.sleep(args.pause)
            victim = read_pids(status)[0]
            start = time.monotonic()
            os.kill(victim, signal.SIGKILL)
            listed = served = None
            deadline = start + 10.0
            while (listed is None or served is None) and time.monotonic() < deadline:
                pids = read_pids(status)
                if listed is None and victim not in pids and len(pids) == workers:
                    listed = time.monotonic() - start
                if served is None and listed is not None and info_answered(server.url):
                    served = time.monotonic() - start
                time.sleep(0.001)
            if listed is None or served is None:
                raise SystemExit("restart_time: no replacement within 10 s\n"
                                 + stop_server(server)[-2000:])
            to_listed.append(listed)
            to_served.append(served)
            print("kill -9 %d: new worker listed after %.1f ms, /info answered after %.1f ms"
                  % (victim, listed * 1000, served * 1000))
    finally:
        log = stop_server(server)
    print("restart (kill -9 -> new pid in the status file), ms: median %.1f, min %.1f, max %.1f "
          "over %d kills" % (statistics.median(to_listed) * 1000, min(to_listed) * 1000,
                             max(to_listed) * 1000, len(to_listed)))
    print("server log: %d restart line(s)" % log.count("restarting it (restarts so far:"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
