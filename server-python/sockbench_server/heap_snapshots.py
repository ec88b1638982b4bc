"""``--heap-snapshots DIR``: where the bytes of the Python heap go, for
tools/heap_breakdown.py. Off by default, and then ``tracemalloc`` is never
imported: tracing every allocation slows the server and grows it (the
traces live in C memory, outside the Python heap).

With the flag (CPython only) tracing starts once the server listens, and
the server writes a snapshot of every live Python allocation, with up to
:data:`FRAMES` frames of where it was made, to ``DIR``:

* ``<pid>-0.tracemalloc`` right after READY (the baseline),
* ``<pid>-1.tracemalloc``, ``-2``, ... on each ``SIGUSR2``,

each beside a ``.json`` of what tracemalloc counts itself (traced bytes,
its own memory), and each made visible by a rename once complete, so a
reader that sees the file may load it. One line on stderr says which file
was written.
"""
from __future__ import annotations

import asyncio
import json
import os
import signal
import sys

#: Frames kept per allocation: deep enough to reach our code from the
#: allocation sites inside Tornado, asyncio and the standard library.
FRAMES = 25
#: What asks a running server for the next snapshot.
SNAPSHOT_SIGNAL = signal.SIGUSR2


def unavailable_reason() -> str:
    """Why ``--heap-snapshots`` cannot run here, or '' when it can."""
    if sys.implementation.name != "cpython":
        return "--heap-snapshots needs CPython (tracemalloc); this is %s" % sys.implementation.name
    return ""


def snapshot_path(directory: str, pid: int, number: int) -> str:
    """Where snapshot ``number`` of process ``pid`` is written (0: the baseline)."""
    return os.path.join(directory, "%d-%d.tracemalloc" % (pid, number))


def start(directory: str, loop: asyncio.AbstractEventLoop) -> None:
    """Start tracing, write the baseline and answer SIGUSR2 with the next
    snapshot. Called once the server listens."""
    import tracemalloc

    tracemalloc.start(FRAMES)
    taken = [0]

    def write_next() -> None:
        path = snapshot_path(directory, os.getpid(), taken[0])
        taken[0] += 1
        _write(tracemalloc, path)
        print("heap snapshot written: %s" % path, file=sys.stderr, flush=True)

    write_next()
    loop.add_signal_handler(SNAPSHOT_SIGNAL, write_next)


def _write(tracemalloc, path: str) -> None:
    snapshot = tracemalloc.take_snapshot()
    traced, peak = tracemalloc.get_traced_memory()
    counts = {"traced_bytes": traced, "traced_peak_bytes": peak,
              "tracemalloc_bytes": tracemalloc.get_tracemalloc_memory(), "frames": FRAMES}
    with open(path + ".json.tmp", "w", encoding="utf-8") as f:
        json.dump(counts, f)
    os.replace(path + ".json.tmp", path + ".json")
    snapshot.dump(path + ".tmp")
    del snapshot
    os.replace(path + ".tmp", path)
