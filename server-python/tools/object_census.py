"""Objects an idle framed websocket session keeps alive in our server, counted by type: the
per-session view on PyPy, which has no tracemalloc (heap_breakdown.py is CPython's), beside
session_cost.py's RSS; it runs on CPython too.

    .venv-pypy/bin/python server-python/tools/object_census.py --sessions 2000

The server runs in this process, built as ``python -m sockbench_server`` builds it
(inprocess_server.py); the client is plain non-blocking sockets on the same loop, which keep
nothing per connection but their socket (subtracted). After a warm-up of 20 sessions every
object the garbage collector can list (``gc.get_objects()``, after ``gc.collect()``) is counted
by type, before and after N more sessions open and sit idle for a second; the difference per
session, largest first, is printed as Markdown, with the shallow size (``sys.getsizeof``) on
CPython. Containers the collector does not track (on CPython: strings, ints, tuples of only
those) are not listed: the figure is a count of objects, not of bytes."""
from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import gc
import os
import socket
import sys
import time
import uuid
from typing import Counter, Dict, List, Tuple

from inprocess_server import running_server

WARMUP = 20


def census() -> Tuple[Counter, Counter]:
    """Live objects by type name: (counts, shallow bytes; bytes stay 0 where getsizeof fails)."""
    gc.collect()
    gc.collect()
    counts: Counter = collections.Counter()
    sizes: Counter = collections.Counter()
    for obj in gc.get_objects():
        kind = type(obj)
        name = "%s.%s" % (getattr(kind, "__module__", "?"), kind.__qualname__)
        counts[name] += 1
        try:
            sizes[name] += sys.getsizeof(obj)
        except TypeError:  # PyPy: no size for most objects
            pass
    return counts, sizes


async def open_session(port: int) -> socket.socket:
    """One framed websocket on /broadcast, open (its "o" read), as session_cost.py opens them."""
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    await loop.sock_sendall(sock, (
        "GET /broadcast/000/%s/websocket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
        % (uuid.uuid4().hex, base64.b64encode(os.urandom(16)).decode())).encode())
    got = b""
    while not (b"\r\n\r\n" in got and got.endswith(b"o")):
        chunk = await loop.sock_recv(sock, 4096)
        if not chunk:
            raise SystemExit("object_census: the server closed a websocket: %r" % got[:200])
        got += chunk
    return sock


async def measure(sessions: int) -> List[Tuple[str, float, float]]:
    """(type, objects per session, shallow bytes per session), largest count first."""
    async with running_server(max_sessions=sessions + WARMUP) as (port, _):
        held = [await open_session(port) for _ in range(WARMUP)]
        await asyncio.sleep(1.0)
        counts_before, sizes_before = census()
        held += [await open_session(port) for _ in range(sessions)]
        await asyncio.sleep(1.0)
        counts_after, sizes_after = census()
        counts_after["socket.socket"] -= sessions  # the client's own sockets
        if sys.implementation.name == "cpython":
            sizes_after["socket.socket"] -= sessions * sys.getsizeof(held[-1])
        for sock in held:
            sock.close()
    rows = []
    for name in set(counts_before) | set(counts_after):
        count = (counts_after[name] - counts_before[name]) / sessions
        size = (sizes_after[name] - sizes_before[name]) / sessions
        if abs(count) >= 0.05:
            rows.append((name, count, size))
    return sorted(rows, key=lambda row: (-row[1], row[0]))


def report(sessions: int, rows: List[Tuple[str, float, float]]) -> str:
    cpython = sys.implementation.name == "cpython"
    out = ["%d idle framed websocket sessions on /broadcast, %s %s: objects the collector lists, "
           "per session" % (sessions, sys.implementation.name, sys.version.split()[0]), ""]
    if cpython:
        out += ["| type | objects / session | shallow bytes / session |", "| --- | ---: | ---: |"]
        out += ["| `%s` | %.2f | %s |" % (name, count, "{:,.0f}".format(size))
                for name, count, size in rows]
        out += ["| total | %.2f | %s |" % (sum(r[1] for r in rows),
                                          "{:,.0f}".format(sum(r[2] for r in rows)))]
    else:
        out += ["| type | objects / session |", "| --- | ---: |"]
        out += ["| `%s` | %.2f |" % (name, count) for name, count, _ in rows]
        out += ["| total | %.2f |" % sum(r[1] for r in rows)]
    return "\n".join(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    p.add_argument("--sessions", type=int, default=1000, metavar="N",
                   help="idle websocket sessions to open, 1-15000 (default: %(default)s)")
    args = p.parse_args(argv)
    if not 1 <= args.sessions <= 15000:
        p.error("--sessions must be 1-15000")
    from measured_server import raise_fd_limit
    raise_fd_limit(2 * (args.sessions + WARMUP) + 200, "object_census")
    started = time.monotonic()
    rows = asyncio.run(measure(args.sessions))
    print(report(args.sessions, rows))
    print("\n(%.0f s)" % (time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
