"""Where the bytes of an idle websocket session go, in our server on CPython:
the growth of the Python heap over N idle framed websocket sessions on
/broadcast, per session, by allocation site, by package and by our module,
beside the RSS figure of tools/session_cost.py.

    .venv-cpython/bin/python server-python/tools/heap_breakdown.py --sessions 10000

Two runs of the server (``--server``, CPython; ``--sessions N`` is added so
the session budget holds them). The first is untraced: RSS from /proc one
second after READY and one second after the last session opened, as
session_cost.py measures it. The second runs with ``--heap-snapshots``
(tracemalloc, server-python/sockbench_server/heap_snapshots.py): a snapshot
just before the sessions open (SIGUSR2) and one after they sat idle a
second; the difference, grouped by the newest frame of each allocation
(the site), that frame's package, and the newest frame inside
sockbench_server (which of our modules made it), divided by N. Its RSS is
printed too, less tracemalloc's own memory, which tracing adds.
Tables are Markdown, to paste into server-python/README.md.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
import tempfile
import time
import tracemalloc
from collections import defaultdict
from typing import Dict, Iterable, List, Tuple

from measured_server import MiB, raise_fd_limit, rss_bytes
from session_cost import measure

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SERVER = "%s -m sockbench_server" % os.path.join(HERE, "..", "..", ".venv-cpython", "bin",
                                                          "python")
#: Packages named in the package table even when they allocate nothing.
NAMED_PACKAGES = ("tornado", "sockbench_server", "asyncio", "ssl")
OURS = "sockbench_server"
SNAPSHOT_TIMEOUT_S = 300.0

_STDLIB_RE = re.compile(r"/lib/(?:pypy|python)3\.\d+/")


def short_path(filename: str) -> str:
    """A frame's file as a reader names it: ``tornado/iostream.py``,
    ``sockbench_server/protocol/session.py``, ``asyncio/events.py``."""
    if "site-packages/" in filename:
        return filename.rsplit("site-packages/", 1)[1]
    if "/%s/" % OURS in filename:
        return OURS + "/" + filename.rsplit("/%s/" % OURS, 1)[1]
    match = None
    for match in _STDLIB_RE.finditer(filename):
        pass
    return filename[match.end():] if match else filename


def package_of(path: str) -> str:
    """The top-level package or module of a short path (``ssl.py`` -> ``ssl``)."""
    if path.startswith("<"):
        return path  # <frozen ...>, <unknown>: no file
    top = path.split("/", 1)[0]
    return top[:-3] if top.endswith(".py") else top


#: Where the event loop calls a callback (asyncio.Handle._run): frames older
#: than it are the loop and what started it (our server.py), not the cause.
_LOOP_DISPATCH = "asyncio/events.py"
NOT_OURS = "<none of ours: Tornado or asyncio in a loop callback>"


def group_keys(frames: Tuple) -> Tuple[str, str, str]:
    """(site, package, our module) of one allocation's traceback, oldest
    frame first as tracemalloc gives it. Our module is the newest frame in
    sockbench_server made after the event loop's dispatch (a callback of
    Tornado's own, with none of ours on the way, is :data:`NOT_OURS`)."""
    if not frames:
        return "<no Python frame>", "<no Python frame>", "<no Python frame>"
    paths = [short_path(frame.filename) for frame in frames]
    site = "%s:%d" % (paths[-1], frames[-1].lineno)
    ours = NOT_OURS
    for path in reversed(paths):
        if path.startswith(OURS + "/"):
            ours = path
            break
        if path == _LOOP_DISPATCH:
            break
    return site, package_of(paths[-1]), ours


def totals(snapshot: tracemalloc.Snapshot) -> List[Dict[str, Dict[str, List[int]]]]:
    """Bytes and blocks per key of each grouping: [site, package, ours],
    each {key: [bytes, blocks]}."""
    groups = [defaultdict(lambda: [0, 0]) for _ in range(3)]
    for stat in snapshot.statistics("traceback"):
        for group, key in zip(groups, group_keys(tuple(stat.traceback))):
            group[key][0] += stat.size
            group[key][1] += stat.count
    return groups


def difference(before: Dict[str, List[int]], after: Dict[str, List[int]]) -> Dict[str, Tuple[int, int]]:
    return {key: (after.get(key, [0, 0])[0] - before.get(key, [0, 0])[0],
                  after.get(key, [0, 0])[1] - before.get(key, [0, 0])[1])
            for key in set(before) | set(after)}


def table(title: str, header: str, rows: Iterable[Tuple[str, int, int]], sessions: int,
          total: int) -> str:
    lines = ["", "%s" % title, "", "| %s | bytes / session | blocks / session | share |" % header,
             "| --- | ---: | ---: | ---: |"]
    for key, size, count in rows:
        lines.append("| `%s` | %s | %.2f | %.1f %% |"
                     % (key, "{:,.0f}".format(size / sessions), count / sessions,
                        100.0 * size / total if total else 0.0))
    return "\n".join(lines)


def wait_for(path: str) -> None:
    deadline = time.monotonic() + SNAPSHOT_TIMEOUT_S
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise SystemExit("heap_breakdown: no snapshot at %s after %.0f s" % (path, SNAPSHOT_TIMEOUT_S))
        time.sleep(0.05)


def traced_run(server_argv: List[str], sessions: int, directory: str) -> dict:
    """The traced run: snapshots 1 (before the sessions) and 2 (after), RSS
    and tracemalloc's own counts at each."""
    from sockbench_server.heap_snapshots import SNAPSHOT_SIGNAL, snapshot_path

    seen = {}

    def take(server, number: int) -> None:
        seen["rss_%d" % number] = rss_bytes(server.pid)
        os.kill(server.pid, SNAPSHOT_SIGNAL)
        path = snapshot_path(directory, server.pid, number)
        wait_for(path)
        with open(path + ".json", encoding="utf-8") as f:
            seen["counts_%d" % number] = json.load(f)
        seen["path_%d" % number] = path

    def before_sessions(server) -> None:
        wait_for(snapshot_path(directory, server.pid, 0))  # tracing has started
        take(server, 1)

    r = measure(server_argv + ["--heap-snapshots", directory], "websocket", sessions,
                before_sessions=before_sessions, while_held=lambda server: take(server, 2))
    r.update(seen)
    return r


def report(sessions: int, untraced: dict, traced: dict, top: int = 15) -> str:
    before = tracemalloc.Snapshot.load(traced["path_1"])
    after = tracemalloc.Snapshot.load(traced["path_2"])
    site, package, ours = (difference(b, a) for b, a in zip(totals(before), totals(after)))
    heap = sum(size for size, _ in site.values())
    own = traced["counts_2"]["tracemalloc_bytes"] - traced["counts_1"]["tracemalloc_bytes"]
    rss = untraced["after"] - untraced["before"]
    out = [untraced["ready_line"],
           "%d idle framed websocket sessions on /broadcast, %d frames a trace" % (
               sessions, traced["counts_2"]["frames"]),
           "",
           "| figure | bytes / session |",
           "| --- | ---: |",
           "| RSS growth, untraced run (as tools/session_cost.py) | {:,.0f} |".format(rss / sessions),
           "| Python heap growth, traced run (tracemalloc) | {:,.0f} |".format(heap / sessions),
           "",
           "The traced heap is %.0f %% of the untraced RSS growth: tracemalloc sees "
           "Python's allocators only, not C libraries' own malloc or allocator slack, "
           "and at small N sessions reuse heap pages the idle server already had "
           "resident (over 100 %%). The traced run's RSS is not comparable: tracing "
           "adds %s bytes a session of its own." % (
               100.0 * heap / rss if rss > 0 else 0.0, "{:,.0f}".format(own / sessions))]
    top_sites = sorted(site.items(), key=lambda kv: -kv[1][0])[:top]
    out.append(table("Top %d allocation sites (the newest frame of each allocation)" % top, "site",
                     ((k, s, c) for k, (s, c) in top_sites), sessions, heap))
    by_package = dict(package)
    for name in NAMED_PACKAGES:
        by_package.setdefault(name, (0, 0))
    named = [(k, by_package.pop(k)) for k in NAMED_PACKAGES]
    rest = sorted(by_package.items(), key=lambda kv: -kv[1][0])
    rows = named + rest[:8]
    others = rest[8:]
    if others:
        rows.append(("others (%d)" % len(others), (sum(v[0] for _, v in others),
                                                   sum(v[1] for _, v in others))))
    out.append(table("By package (of the allocation site)", "package",
                     ((k, s, c) for k, (s, c) in rows), sessions, heap))
    out.append(table("By our module (the newest %s frame on the allocation's stack)" % OURS,
                     "module", ((k, s, c) for k, (s, c) in sorted(ours.items(), key=lambda kv: -kv[1][0])
                                if s), sessions, heap))
    return "\n".join(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    p.add_argument("--server", default=DEFAULT_SERVER, metavar="COMMAND",
                   help="our server on CPython (--port 0, --sessions N and, in the traced run, "
                        "--heap-snapshots DIR are added; default: %(default)s)")
    p.add_argument("--sessions", type=int, default=10000, metavar="N",
                   help="idle websocket sessions to open, 1-15000 (default: 10000)")
    p.add_argument("--top", type=int, default=15, metavar="K",
                   help="allocation sites to list, largest first (default: %(default)s; more when "
                        "looking for what to cut next)")
    args = p.parse_args(argv)
    if not 1 <= args.sessions <= 15000:
        p.error("--sessions must be 1-15000")
    raise_fd_limit(args.sessions + 200, "heap_breakdown")
    server_argv = shlex.split(args.server) + ["--sessions", str(args.sessions)]
    untraced = measure(server_argv, "websocket", args.sessions)
    with tempfile.TemporaryDirectory(prefix="heap-breakdown-") as directory:
        traced = traced_run(server_argv, args.sessions, directory)
        print(report(args.sessions, untraced, traced, args.top))
    print("\nRSS %.1f -> %.1f MiB untraced, %.1f -> %.1f MiB traced"
          % (untraced["before"] / MiB, untraced["after"] / MiB, traced["rss_1"] / MiB,
             traced["rss_2"] / MiB))
    return 0


if __name__ == "__main__":
    sys.exit(main())
