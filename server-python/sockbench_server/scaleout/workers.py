"""``--workers N`` (N > 1): this process becomes the supervisor of N worker
processes that share one listening port, and serves no sessions itself.

How the port is shared. The supervisor binds (never listens on) a socket
with SO_REUSEPORT: that resolves ``--port 0`` to a real port and holds it.
Each worker is this same program started again with ``--port <that port>
--workers 1`` and ``SOCKBENCH_WORKER=<i>/<N>`` in its environment; it binds
its own listening socket with SO_REUSEPORT, and the kernel spreads new
connections over the listening sockets of the group by a hash of the
connection's addresses (a socket that only binds is not in that spread).
Separate processes rather than fork(): nothing of an event loop or of
redis-py's connections is ever shared, on CPython and PyPy alike.

The supervisor keeps the contract for the group (docs/protocol.md sections 2,
3 and 6): it checks the broker once before starting anyone (unreachable:
one line, exit 1); it prints one READY line once every worker has printed
its own (to a pipe the supervisor reads), with ``worker_pids`` of all; on
SIGTERM/SIGINT it forwards SIGTERM to every worker and is gone within 2 s,
killing what is left after ``KILL_DEADLINE_S``; a worker that ends on its
own takes the group down (exit 1) rather than leave a server that silently
serves a part of its clients. Each worker's stdin is a pipe from the
supervisor: if the supervisor dies, even by SIGKILL, the workers see end of
file and stop (tornado_io/server.py).
"""
from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from typing import List, Optional, Sequence

from .relay import BrokerUnreachableError, RedisRelay
from .settings import WORKER_ENV, ScaleOut

PROGRAM = "sockbench-tornado"
#: After SIGTERM, workers still running this long are killed (s). The
#: contract allows 2 s from signal to exit; the rest is margin.
KILL_DEADLINE_S = 1.7
#: How long the workers may take to print READY (s): PyPy's start-up on a
#: busy 2-core machine is the slow part.
READY_TIMEOUT_S = 60.0


def reserve_port(host: str, port: int) -> socket.socket:
    """A bound, not listening SO_REUSEPORT socket on (host, port): the
    workers' listening sockets join its port. Raises OSError."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)  # as Tornado's bind_sockets
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


def worker_argv(argv: Sequence[str], port: int) -> List[str]:
    """The command line of one worker: ours, with the port resolved and
    ``--workers 1`` (argparse keeps the last value of a repeated flag)."""
    return [sys.executable, "-m", "sockbench_server", *argv, "--port", str(port), "--workers", "1"]


def group_ready_line(first: str, pids: Sequence[int]) -> str:
    """The supervisor's READY line: worker 1's, with every worker's pid."""
    tokens = first.rstrip("\n").split(" ")
    joined = ",".join(str(pid) for pid in pids)
    return " ".join("worker_pids=" + joined if t.startswith("worker_pids=") else t for t in tokens)


def _say(text: str) -> None:
    print("%s: %s" % (PROGRAM, text), file=sys.stderr, flush=True)


async def _check_broker(scale: ScaleOut) -> bool:
    assert scale.broker is not None
    probe = RedisRelay(scale.broker)
    try:
        await probe.start()
    except BrokerUnreachableError as e:
        _say(str(e))
        return False
    await probe.stop()
    return True


async def supervise(argv: Sequence[str], host: str, port: int, scale: ScaleOut) -> int:
    """Run the workers until SIGTERM/SIGINT; returns the exit status."""
    if not await _check_broker(scale):
        return 1
    try:
        holder = reserve_port(host, port)
    except OSError as e:
        _say("cannot listen on %s port %d: %s" % (host, port, e))
        return 1
    try:
        return await _run_workers(argv, holder.getsockname()[1], scale)
    finally:
        holder.close()


async def _run_workers(argv: Sequence[str], port: int, scale: ScaleOut) -> int:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    workers: List[asyncio.subprocess.Process] = []
    try:
        for index in range(1, scale.workers + 1):
            env = dict(os.environ)
            env[WORKER_ENV] = "%d/%d" % (index, scale.workers)
            # stderr inherited: the workers' log lines (tagged) go where ours go.
            workers.append(await asyncio.create_subprocess_exec(
                *worker_argv(argv, port), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env))
        status = await _until_stopped(workers, stop)
    finally:
        await _stop_all(workers)
    return status


async def _until_stopped(workers: List[asyncio.subprocess.Process], stop: asyncio.Event) -> int:
    stopped = asyncio.ensure_future(stop.wait())
    exits = {asyncio.ensure_future(w.wait()): w for w in workers}
    readies = {asyncio.ensure_future(w.stdout.readline()): w for w in workers}  # type: ignore[union-attr]
    lines = {}
    try:
        # Phase 1: every worker prints READY (to us), or one ends, or a signal.
        waiting = set(readies)
        deadline = loop_time() + READY_TIMEOUT_S
        while waiting:
            done, _ = await asyncio.wait(waiting | set(exits) | {stopped},
                                         timeout=max(0.0, deadline - loop_time()),
                                         return_when=asyncio.FIRST_COMPLETED)
            if stopped in done:
                return 0
            if not done:
                _say("the workers did not all accept connections within %.0f s; stopping all"
                     % READY_TIMEOUT_S)
                return 1
            for task in done & waiting:
                waiting.discard(task)
                line = task.result().decode("utf-8", "replace")
                worker = readies[task]
                if not line.startswith("READY "):
                    if worker.returncode is None:
                        await asyncio.wait([exits_of(exits, worker)], timeout=1.0)
                    return _ended(worker, "before accepting connections")
                lines[worker] = line
            for task in done & set(exits):
                return _ended(exits[task], "before accepting connections")
        ordered = [w.pid for w in workers]
        sys.stdout.write(group_ready_line(lines[workers[0]], ordered) + "\n")
        sys.stdout.flush()
        # Phase 2: serve until a signal, or until a worker ends on its own.
        done, _ = await asyncio.wait(set(exits) | {stopped}, return_when=asyncio.FIRST_COMPLETED)
        if stopped in done:
            return 0
        return _ended(exits[next(iter(done))], "while serving")
    finally:
        for task in [stopped, *readies]:
            task.cancel()


def exits_of(exits: dict, worker: asyncio.subprocess.Process) -> "asyncio.Future":
    return next(task for task, w in exits.items() if w is worker)


def loop_time() -> float:
    return asyncio.get_running_loop().time()


def _ended(worker: asyncio.subprocess.Process, when: str) -> int:
    code = worker.returncode
    how = "signal %d" % -code if code is not None and code < 0 else "exit status %s" % code
    # A worker that failed at start has said why on stderr already.
    _say("worker pid %d ended (%s) %s; stopping all workers" % (worker.pid, how, when))
    return 1


async def _stop_all(workers: List[asyncio.subprocess.Process]) -> None:
    """SIGTERM to every worker still running; SIGKILL after KILL_DEADLINE_S."""
    live = [w for w in workers if w.returncode is None]
    for w in live:
        try:
            w.send_signal(signal.SIGTERM)
        except ProcessLookupError:
            pass
    if live:
        _, late = await asyncio.wait([asyncio.ensure_future(w.wait()) for w in live],
                                     timeout=KILL_DEADLINE_S)
        if late:
            for w in live:
                if w.returncode is None:
                    try:
                        w.kill()
                    except ProcessLookupError:
                        pass
            await asyncio.wait(late, timeout=1.0)
    for w in workers:
        if w.stdin is not None:
            w.stdin.close()
