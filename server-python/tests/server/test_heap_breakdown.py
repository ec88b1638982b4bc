"""--heap-snapshots (sockbench_server/heap_snapshots.py) on a real server,
and tools/heap_breakdown.py end to end at a small size (50 sessions)."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest

from serverproc import ServerProcess

CPYTHON = sys.implementation.name == "cpython"
TOOLS = os.path.join(os.path.dirname(__file__), "..", "..", "tools")
OURS = [sys.executable, "-m", "sockbench_server"]
needs_cpython = pytest.mark.skipif(not CPYTHON, reason="tracemalloc is CPython's")


def wait_for_file(path: str, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not os.path.exists(path):
        assert time.monotonic() < deadline, "no %s after %.0f s" % (path, timeout_s)
        time.sleep(0.05)


@needs_cpython
def test_a_baseline_at_ready_and_a_snapshot_on_each_sigusr2(tmp_path):
    import tracemalloc

    srv = ServerProcess(["--heap-snapshots", str(tmp_path)], command=OURS)
    try:
        baseline = tmp_path / ("%d-0.tracemalloc" % srv.pid)
        wait_for_file(str(baseline))
        sys.path.insert(0, TOOLS)
        from session_cost import open_websockets
        held = open_websockets(int(srv.url.rsplit(":", 1)[1]), 2)
        time.sleep(0.2)
        os.kill(srv.pid, signal.SIGUSR2)
        second = tmp_path / ("%d-1.tracemalloc" % srv.pid)
        wait_for_file(str(second))
        snapshot = tracemalloc.Snapshot.load(str(second))
        assert snapshot.traceback_limit == 25
        # traced from READY on: the sessions opened since are in it, with our frames
        files = {frame.filename.replace(os.sep, "/") for trace in snapshot.traces
                 for frame in trace.traceback}
        assert any(f.endswith("sockbench_server/tornado_io/websocket.py") for f in files)
        assert any(f.endswith("tornado/iostream.py") for f in files)
        for s in held:
            s.close()
        assert '"traced_bytes"' in (tmp_path / ("%d-1.tracemalloc.json" % srv.pid)).read_text()
    finally:
        srv.stop()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tracemalloc")) == [
        "%d-0.tracemalloc" % srv.pid, "%d-1.tracemalloc" % srv.pid]
    assert "heap snapshot written: %s" % second in srv.stderr_text()


@needs_cpython
def test_without_the_flag_tracemalloc_is_never_imported():
    # -X importtime lists every module the process imports, on stderr.
    srv = ServerProcess([], command=[sys.executable, "-X", "importtime", "-m", "sockbench_server"])
    try:
        sys.path.insert(0, TOOLS)
        from session_cost import open_websockets
        held = open_websockets(int(srv.url.rsplit(":", 1)[1]), 3)
        for s in held:
            s.close()
    finally:
        srv.stop()
    imports = srv.stderr_text()
    assert "| sockbench_server.cli" in imports  # the listing is there
    assert "tracemalloc" not in imports


def test_the_flag_with_several_workers_is_refused_in_one_line(tmp_path):
    done = subprocess.run(OURS + ["--heap-snapshots", str(tmp_path), "--workers", "2",
                                  "--broker", "redis://127.0.0.1:1/0"],
                          capture_output=True, text=True, timeout=30)
    if not CPYTHON:
        assert done.returncode == 2 and "needs CPython" in done.stderr
        return
    assert done.returncode == 2
    assert done.stderr == ("sockbench-tornado: --heap-snapshots needs --workers 1: its snapshots "
                           "are one process's heap\n")


@pytest.mark.skipif(CPYTHON, reason="the refusal is PyPy's")
def test_pypy_refuses_the_flag_as_a_usage_error(tmp_path):
    done = subprocess.run(OURS + ["--heap-snapshots", str(tmp_path)], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 2
    assert "argument --heap-snapshots: --heap-snapshots needs CPython" in done.stderr


def per_session(table_row: str) -> int:
    return int(table_row.split("|")[2].strip().replace(",", ""))


def section(out: str, title: str) -> list:
    """The table rows (not header) of the table under ``title``."""
    lines = out[out.index(title):].splitlines()[2:]
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


@needs_cpython
def test_heap_breakdown_of_fifty_idle_websocket_sessions():
    done = subprocess.run([sys.executable, os.path.join(TOOLS, "heap_breakdown.py"),
                           "--sessions", "50", "--server", " ".join(OURS)],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    heap = per_session(next(l for l in out.splitlines() if l.startswith("| Python heap growth")))
    rss = per_session(next(l for l in out.splitlines() if l.startswith("| RSS growth, untraced")))
    # An idle framed websocket is ~5 KB of heap on CPython (README); a
    # breakdown that lost its sessions, or counted them twice, is far off.
    assert 2_000 < heap < 60_000
    assert 0 < rss < 100_000
    sites = section(out, "Top 15 allocation sites")
    assert len(sites) == 15
    packages = {re.search(r"`([^`]+)`", row).group(1): per_session(row)
                for row in section(out, "By package")}
    assert packages["tornado"] > 1000 and packages["sockbench_server"] > 500
    assert "ssl" in packages and "asyncio" in packages
    # every byte of the heap growth is in exactly one package row (rounding aside)
    assert abs(sum(packages.values()) - heap) <= len(packages)
    modules = {re.search(r"`([^`]+)`", row).group(1): per_session(row)
               for row in section(out, "By our module")}
    # the websocket protocol object and the receiver our handler makes (~420 bytes a session)
    assert modules["sockbench_server/tornado_io/websocket.py"] > 250
