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
one line, exit 1); it prints one READY line once every worker has reported
that it accepts connections (its url and READY fields as data, on a pipe
only the supervisor reads: supervisor_link.py), with ``worker_pids`` of all; on
SIGTERM/SIGINT it forwards SIGTERM to every worker and is gone within 2 s,
killing what is left after ``KILL_DEADLINE_S``. A worker that fails before
the group first accepts connections stops the group (exit 1): that is a
setup problem, and restarting would only repeat it.

Once serving, a worker that dies is replaced (section 6.2), as gunicorn or
node's cluster pattern do: its sessions are lost, the other workers' go on.
Starting a worker costs most of a second on PyPy (interpreter, imports,
the broker connection), more on a loaded machine, so the supervisor keeps
one *standby worker*: started like the others once the group serves, it
loads everything, says ``STANDBY`` and waits (it joins the broker only when
it takes a slot, a few milliseconds on a local network, so that it does
not parse every relayed message meanwhile); on a death the supervisor tells it
``go <index>`` on its stdin and it binds its listening socket at once, and
a new standby is started behind it. Five deaths within 10 s
(crash_loop.py) stop the server instead (exit 1). The standby serves
nobody and is not in ``worker_pids``; one that dies is started again after
a pause doubling from 1 s to 30 s (a broker that is down would otherwise
make it fail in a loop), and is not counted as a worker death.

Each worker's stdin is a pipe from the supervisor: if the supervisor dies,
even by SIGKILL, the workers see end of file and stop
(supervisor_link.py). ``--status-file`` (status_file.py) keeps the pids
of the workers accepting connections.
"""
from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from typing import Dict, List, Optional, Sequence

from ..ready import Field, format_ready_line
from .crash_loop import CRASH_LOOP_WINDOW_S, DeathWindow
from .relay import BrokerUnreachableError, RedisRelay
from .settings import STANDBY, WORKER_ENV, ScaleOut
from .status_file import remove_status, write_status
from .supervisor_link import Listening, Standby, read_worker_line

PROGRAM = "sockbench-tornado"
#: After SIGTERM, workers still running this long are killed (s). The
#: contract allows 2 s from signal to exit; the rest is margin.
KILL_DEADLINE_S = 1.7
#: How long the workers may take to report they listen (s): PyPy's start-up on a
#: busy 2-core machine is the slow part.
READY_TIMEOUT_S = 60.0
#: Pause before starting a standby worker again after one died (s), doubled
#: per failure in a row up to the last.
STANDBY_RETRY_S = (1.0, 30.0)

Process = asyncio.subprocess.Process


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


def group_ready_line(first: Listening, pids: Sequence[int]) -> str:
    """The supervisor's READY line: worker 1's, with every worker's pid."""
    joined = ",".join(str(pid) for pid in pids)
    fields: List[Field] = [(k, joined if k == "worker_pids" else v) for k, v in first.fields]
    return format_ready_line(first.url, fields)


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


async def supervise(argv: Sequence[str], host: str, port: int, scale: ScaleOut,
                    status_file: Optional[str] = None) -> int:
    """Run the workers until SIGTERM/SIGINT or a crash loop; returns the exit
    status. ``status_file``: see status_file.py."""
    if not await _check_broker(scale):
        return 1
    try:
        holder = reserve_port(host, port)
    except OSError as e:
        _say("cannot listen on %s port %d: %s" % (host, port, e))
        return 1
    group = Group(argv, port=holder.getsockname()[1], scale=scale, status_file=status_file)
    try:
        return await group.run()
    finally:
        holder.close()
        if status_file is not None:
            remove_status(status_file)


def describe_exit(code: Optional[int]) -> str:
    """``signal 9`` or ``exit status 1``: how a worker ended."""
    return "signal %d" % -code if code is not None and code < 0 else "exit status %s" % code


class Group:
    """The workers of one port, the standby worker, and what replaces whom."""

    def __init__(self, argv: Sequence[str], port: int, scale: ScaleOut,
                 status_file: Optional[str]):
        self.argv = list(argv)
        self.port = port
        self.workers = scale.workers
        self.status_file = status_file
        loop = asyncio.get_running_loop()
        #: The exit status, once the group is to stop.
        self.done: "asyncio.Future[int]" = loop.create_future()
        #: Set once every slot has accepted connections and READY is out.
        self.serving = asyncio.Event()
        #: Slot index -> the worker accepting connections in it.
        self.accepting: Dict[int, Process] = {}
        #: Every process alive -> its slot (0: the standby, not given one yet).
        self.slot_of: Dict[Process, int] = {}
        self.standby: Optional[Process] = None
        self.standby_ready = False
        self.standby_failures = 0
        #: Slots whose worker died while the standby was still loading.
        self.waiting: List[int] = []
        self.deaths = DeathWindow()
        self.restarts = 0
        #: What worker 1 reported when it first accepted connections.
        self.first_listening: Optional[Listening] = None
        self._tasks: List["asyncio.Future[None]"] = []

    # -- the life of the group --------------------------------------------

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self._finish, 0)
        try:
            for index in range(1, self.workers + 1):
                await self._start(index)
            serving = asyncio.ensure_future(self.serving.wait())
            await asyncio.wait([serving, self.done], timeout=READY_TIMEOUT_S,
                               return_when=asyncio.FIRST_COMPLETED)
            serving.cancel()
            if not self.done.done() and not self.serving.is_set():
                _say("the workers did not all accept connections within %.0f s; stopping all"
                     % READY_TIMEOUT_S)
                self._finish(1)
            return await self.done
        finally:
            await self._stop_all()

    def _finish(self, status: int) -> None:
        if not self.done.done():
            self.done.set_result(status)

    async def _start(self, index: int) -> Optional[Process]:
        """Start the worker of slot ``index`` (0: a standby worker)."""
        if self.done.done():
            return None
        env = dict(os.environ)
        env[WORKER_ENV] = "%s/%d" % (index or STANDBY, self.workers)
        # stderr inherited: the workers' log lines (tagged) go where ours go.
        proc = await asyncio.create_subprocess_exec(
            *worker_argv(self.argv, self.port), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            env=env)
        self.slot_of[proc] = index
        if index == 0:
            self.standby, self.standby_ready = proc, False
        self._tasks.append(asyncio.ensure_future(self._watch(proc)))
        return proc

    async def _watch(self, proc: Process) -> None:
        """What one process says on stdout, then its end."""
        assert proc.stdout is not None
        while True:
            line = await proc.stdout.readline()
            if not line:
                break
            report = read_worker_line(line.decode("utf-8", "replace").rstrip("\n"))
            if isinstance(report, Standby) and proc is self.standby:
                self._standby_is_ready(proc)
            elif isinstance(report, Listening):
                self._accepts(proc, report)
        await proc.wait()
        self._ended(proc)

    # -- events ----------------------------------------------------------------

    def _standby_is_ready(self, proc: Process) -> None:
        self.standby_ready = True
        self.standby_failures = 0
        if self.waiting:
            self._promote(self.waiting.pop(0))

    def _accepts(self, proc: Process, report: Listening) -> None:
        index = self.slot_of.get(proc)
        if not index or self.done.done():
            return
        self.accepting[index] = proc
        if not self.serving.is_set():
            if index == 1:
                self.first_listening = report
            if len(self.accepting) < self.workers:
                return
            assert self.first_listening is not None  # slot 1 is among the accepting
            self._write_status()
            pids = [self.accepting[i].pid for i in range(1, self.workers + 1)]
            sys.stdout.write(group_ready_line(self.first_listening, pids) + "\n")
            sys.stdout.flush()
            self.serving.set()
            self._spawn(0)  # the standby only now: it would slow the others' start
            return
        self._write_status()

    def _ended(self, proc: Process) -> None:
        index = self.slot_of.pop(proc, None)
        if index is None or self.done.done():
            return  # the group is stopping: every end is expected
        how = describe_exit(proc.returncode)
        if not self.serving.is_set():
            # A worker that failed at start has said why on stderr already.
            _say("worker pid %d ended (%s) before accepting connections; stopping all workers"
                 % (proc.pid, how))
            self._finish(1)
            return
        if index == 0:
            self._standby_ended(proc, how)
            return
        if self.accepting.get(index) is proc:
            del self.accepting[index]
            self._write_status()
        if self.deaths.record(asyncio.get_running_loop().time()):
            _say("%d worker deaths within %.0f s (last: worker %d/%d pid %d, %s); "
                 "stopping the server" % (self.deaths.deaths, CRASH_LOOP_WINDOW_S, index,
                                          self.workers, proc.pid, how))
            self._finish(1)
            return
        self.restarts += 1
        _say("worker %d/%d pid %d ended (%s); restarting it (restarts so far: %d)"
             % (index, self.workers, proc.pid, how, self.restarts))
        if self.standby is None:
            self._spawn(index)  # no standby (it died lately): start one from scratch
        elif self.standby_ready:
            self._promote(index)
        else:
            self.waiting.append(index)  # the standby is loading: it is still the sooner

    def _standby_ended(self, proc: Process, how: str) -> None:
        if self.standby is proc:
            self.standby, self.standby_ready = None, False
        pause = min(STANDBY_RETRY_S[0] * 2 ** self.standby_failures, STANDBY_RETRY_S[1])
        self.standby_failures += 1
        _say("standby worker pid %d ended (%s); starting another in %.0f s"
             % (proc.pid, how, pause))
        for index in self.waiting:
            self._spawn(index)
        self.waiting = []
        asyncio.get_running_loop().call_later(pause, self._spawn, 0)

    def _promote(self, index: int) -> None:
        """The standby takes slot ``index`` and listens; a new standby starts."""
        proc = self.standby
        assert proc is not None and proc.stdin is not None
        self.slot_of[proc] = index
        self.standby, self.standby_ready = None, False
        proc.stdin.write(b"go %d\n" % index)
        self._spawn(0)

    def _spawn(self, index: int) -> None:
        if index == 0 and self.standby is not None:
            return
        self._tasks.append(asyncio.ensure_future(self._start(index)))

    def _write_status(self) -> None:
        if self.status_file is None:
            return
        pids = [self.accepting[i].pid for i in sorted(self.accepting)]
        try:
            write_status(self.status_file, supervisor_pid=os.getpid(), worker_pids=pids,
                         restarts=self.restarts)
        except OSError as e:
            _say("cannot write the status file %s: %s" % (self.status_file, e))

    async def _stop_all(self) -> None:
        """SIGTERM to every process still running; SIGKILL after KILL_DEADLINE_S."""
        self._finish(0)
        for task in self._tasks:
            if not task.done() and task is not asyncio.current_task():
                task.cancel()
        live = [p for p in self.slot_of if p.returncode is None]
        for p in live:
            try:
                p.send_signal(signal.SIGTERM)
            except ProcessLookupError:
                pass
        if live:
            _, late = await asyncio.wait([asyncio.ensure_future(p.wait()) for p in live],
                                         timeout=KILL_DEADLINE_S)
            if late:
                for p in live:
                    if p.returncode is None:
                        try:
                            p.kill()
                        except ProcessLookupError:
                            pass
                await asyncio.wait(late, timeout=1.0)
        for p in live:
            if p.stdin is not None:
                p.stdin.close()
