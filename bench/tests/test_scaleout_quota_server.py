"""A real server's workers really run under their quota: our Python server with `--workers 2` and a
private redis-server, each worker moved into its own cgroup by bench/cgroup_quota.py (as
`make bench-scaleout` does after READY), read back from the group's cgroup.procs and the kernel's
quota files, then loaded for a few seconds over websockets: the kernel throttles a busy worker
(cpu.stat nr_throttled grows), and the relay's flushes are counted at the Redis
(bench/relay_counter.py)."""

import os
import sys
import threading
import time

import pytest

from cgroup_quota import CgroupUnavailable, WorkerQuotas, detect
from cpus import available_cpus
from measure import serving_processes
from relay_counter import RelayCounter
from servers import ROOT, entry, server_command
from sockbench_contract.private_redis import PrivateRedis
from sockbench_contract.server_launch import ServerProcess

sys.path.insert(0, os.path.join(ROOT, "docs", "contract", "conformance"))
from wsclient import WebSocket  # noqa: E402

SHARE = 0.05          # of a core per worker: 5 ms per 100 ms, which a loaded worker exceeds at once
LOAD_S = 2.5          # seconds of load
CONNECTIONS = 6       # websocket sessions, spread over the workers by the kernel
SEND_GAP_S = 0.001    # between one session's sends: ~6,000 msgs/s in all, each to every session, far more
#                       than 5 % of a core serves, and a backlog the workers clear before SIGTERM
DRAIN_S = 1.0         # the workers' catch-up, unthrottled, before the server is stopped (2 s contract)
CLOCK_TICK_S = 1 / os.sysconf("SC_CLK_TCK")


def _cpu_s(pid):
    """utime + stime of `pid` from /proc (seconds, clock-tick resolution): read from outside, as the kit does."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * CLOCK_TICK_S


def _open(url):
    """The load's sessions, opened before the quota applies: at 5 % of a core a worker may spend the load
    window on handshakes and relay nothing (a CI run once counted no PUBLISH); opened first, the whole
    window goes to messages."""
    return [WebSocket(f"{url}/broadcast/websocket", timeout=2.0) for _ in range(CONNECTIONS)]


def _load(sockets, seconds):
    """Every session sends as fast as its socket takes and reads everything that comes back."""
    stop = threading.Event()

    def send(ws):
        while not stop.is_set():
            try:
                ws.send("x" * 100)
            except OSError:
                return
            time.sleep(SEND_GAP_S)

    def read(ws):
        while not stop.is_set():
            try:
                ws.recv()
            except Exception:  # timeout, closed: the load is over or the session was dropped
                return

    threads = [threading.Thread(target=f, args=(ws,), daemon=True) for ws in sockets for f in (send, read)]
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for ws in sockets:
        ws.conn.close()
    for t in threads:
        t.join(timeout=3)


def test_two_workers_run_under_their_quota_and_a_busy_one_is_throttled():
    try:
        controller = detect()
    except CgroupUnavailable as exc:
        pytest.skip(f"no usable cgroup cpu controller here: {exc}")
    server_cpu = available_cpus()[:1]
    with PrivateRedis() as redis:
        argv = server_command(entry("cpython-fast"), "127.0.0.1", 0, 25, workers=2, broker=redis.url)
        with ServerProcess(argv, cpus=server_cpu, ready_timeout_s=30) as server:
            processes = serving_processes(server)
            workers = [pid for pid, role in processes if role == "worker"]
            assert len(workers) == 2 and [role for _, role in processes].count("supervisor") == 1
            sockets = _open(server.url)
            with WorkerQuotas(controller, 2, SHARE, 100_000, log=lambda _: None) as quotas:
                quotas.admit(processes)
                for i, pid in enumerate(workers):
                    assert quotas.pids_in(f"worker-{i}") == [pid]
                    assert controller.read_limit(quotas.group_path(f"worker-{i}")) == (5_000, 100_000)
                    with open(f"/proc/{pid}/cgroup") as f:
                        assert f"{os.path.relpath(quotas.path, controller.root)}/worker-{i}" in f.read()
                assert quotas.pids_in("supervisor") == [server.pid]
                relay = RelayCounter()
                relay.ready(processes, redis)
                relay.sweep_started()
                quotas.mark()
                cpu_before, started = {pid: _cpu_s(pid) for pid in workers}, time.monotonic()
                _load(sockets, LOAD_S)
                report = {g["group"]: g for g in quotas.report()["groups"]}
                elapsed = time.monotonic() - started
                used = {f"worker-{i}": _cpu_s(pid) - cpu_before[pid] for i, pid in enumerate(workers)}
                counted = relay.sweep_finished()["relay"]
            time.sleep(DRAIN_S)
            assert server.proc.poll() is None, "the server survived its workers' quota"
            # The 2 s stop contract is the contract tests' to judge, on a quiet server; this one was just
            # loaded on a shared core.
            server.stop(raise_on_error=False)
    busiest = max((report["worker-0"], report["worker-1"]), key=lambda g: g["nr_throttled"])
    # ~25 periods in 2.5 s: a worker that wanted more than 5 ms of each is throttled in most of them.
    # How long it then waited depends on how hard this test's own threads could push on a shared CI
    # core (a CI run measured 0.051 s with 6 throttled periods), so the time is only required to be
    # non-zero; what the quota promises is checked on the CPU the workers used instead.
    assert busiest["nr_throttled"] >= 5, report
    assert busiest["throttled_s"] > 0, report
    # Under the quota: 5 ms per 100 ms period over the window is 0.13 s (measured: 0.12-0.14 s, the window's
    # partial periods and /proc's clock ticks included); allowed twice that. Throttled time of ~2 s per
    # worker in the same runs says that unthrottled each would have used well over 1 s.
    for group, seconds in used.items():
        bound = 2 * SHARE * elapsed
        assert seconds <= bound, (group, seconds, bound, elapsed, report)
    assert counted["publishes"] > 0 and counted["redis_publish_usec"] > 0, counted
