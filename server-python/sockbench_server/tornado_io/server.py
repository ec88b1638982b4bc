"""The server process: listen, print the READY line, stop on SIGTERM/SIGINT
(docs/protocol.md sections 2 and 3)."""
from __future__ import annotations

import asyncio
import logging
import os
import platform
import signal
import sys
from typing import Any, Callable, List, Optional, Sequence

import tornado
from tornado.netutil import bind_sockets

from ..apps import Mount
from ..protocol.codecs import Codec, runtime_name
from ..protocol.service import Service
from ..protocol.session_budget import SessionBudget, default_max_sessions
from ..ready import Field, format_ready_line
from ..scaleout.settings import ScaleOut
from ..scaleout.status_file import remove_status, write_status
from ..scaleout.supervisor_link import SupervisorLink
from .accept import GuardedHTTPServer
from .router import make_application
from .shedding import DEFAULT_MAX_TOTAL_BUFFER, OutputBudget
from .tornado_private import quiet_malformed_chunked_bodies
from .timers import LoopTimers

log = logging.getLogger("sockbench_server")

SERVER_NAME = "sockbench-tornado"
#: How long shutdown lets close frames drain before the loop stops.
SHUTDOWN_DRAIN = 0.15


class ServerLimits:
    """What keeps one client from hurting the others, and the server from
    overload.

    * ``max_session_buffer``: bytes of unsent output a session may hold
      before it is closed as a slow consumer (> 0; None keeps each mount's
      ``ServiceOptions.max_buffer``);
    * ``max_total_buffer``: bytes the process may grow by while overloaded;
      it stops reading from clients when its unsent output passes half of
      this (> 0; see shedding.py);
    * ``header_timeout``: seconds a connection may take to send complete
      request headers (a hixie-76 handshake: and its nonce), to send a
      request body, and may sit idle between requests (> 0);
    * ``max_sessions``: sessions the process may hold, every mount and
      transport together (> 0; None: as many as ``max_total_buffer`` pays
      for, ``session_budget.default_max_sessions``).
    """

    __slots__ = ("max_session_buffer", "max_total_buffer", "header_timeout", "max_sessions")

    def __init__(self, max_session_buffer: Optional[int] = None, header_timeout: float = 10.0,
                 max_total_buffer: int = DEFAULT_MAX_TOTAL_BUFFER,
                 max_sessions: Optional[int] = None):
        if max_sessions is not None and max_sessions <= 0:
            raise ValueError("max_sessions must be > 0")
        if max_session_buffer is not None and max_session_buffer <= 0:
            raise ValueError("max_session_buffer must be > 0")
        if max_total_buffer <= 0:
            raise ValueError("max_total_buffer must be > 0")
        if not header_timeout > 0:
            raise ValueError("header_timeout must be > 0")
        self.max_session_buffer = max_session_buffer
        self.max_total_buffer = max_total_buffer
        self.header_timeout = header_timeout
        self.max_sessions = (max_sessions if max_sessions is not None
                             else default_max_sessions(max_total_buffer))


def runtime_version() -> str:
    if runtime_name() == "pypy":
        v = sys.pypy_version_info  # type: ignore[attr-defined]
        return "%d.%d.%d-py%s" % (v.major, v.minor, v.micro, platform.python_version())
    return platform.python_version()


def format_number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def base_url(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):
        host = "[" + host + "]"
    return "http://%s:%d" % (host, port)


def ready_fields(codec: Codec, heartbeat: float, services: Sequence[Service],
                 scale: ScaleOut = ScaleOut()) -> List[Field]:
    """What the READY line says after the url (``ready.format_ready_line``)."""
    default = next((s for s in services if s.prefix == "/broadcast"), services[0])
    fields: List[Field] = [
        ("server", SERVER_NAME),
        ("runtime", runtime_name()),
        ("runtime_version", runtime_version()),
        ("tornado", tornado.version),
        ("codec", codec.name),
    ]
    if codec.name != "json":
        fields.append((codec.name, codec.version))
    fields.append(("mode", default.options.broadcast))
    fields.append(("compression", default.options.compression))  # docs/compression.md
    fields += [
        ("heartbeat", format_number(heartbeat)),
        ("disconnect_delay_ms", str(int(round(default.options.disconnect_delay * 1000)))),
        ("response_limit", str(default.options.response_limit)),
        ("max_sessions", str(default.session_budget.limit)),  # docs/protocol.md section 7
        # docs/protocol.md section 6. A worker says its own pid; the
        # supervisor replaces it with every worker's (scaleout/workers.py).
        ("workers", str(scale.workers)),
        ("broker", scale.broker.url if scale.broker is not None else "none"),
        ("worker_pids", str(os.getpid())),
    ]
    return fields


async def _serve(host: str, port: int, heartbeat: float, codec: Codec,
                 mounts: Callable[[float], List[Mount]],
                 ready: Callable[[str], None], limits: ServerLimits,
                 broadcast: Optional[str], compression: Optional[str], scale: ScaleOut,
                 status_file: Optional[str], after_ready: Optional[Callable[[asyncio.AbstractEventLoop], None]]) -> int:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    # A worker stops with its supervisor (end of file on stdin), and the
    # standby worker learns from it which slot to take.
    link = SupervisorLink(loop, stop) if scale.is_worker else None
    timers = LoopTimers(loop)
    sessions = SessionBudget(limits.max_sessions)
    services = [Service(prefix, connection_class=cls, options=opts, codec=codec, timers=timers,
                        session_budget=sessions)
                for prefix, cls, opts in mounts(heartbeat)]
    for service in services:
        if limits.max_session_buffer is not None:
            service.options.max_buffer = limits.max_session_buffer
        if broadcast is not None:
            service.options.broadcast = broadcast
        if compression is not None:
            service.options.compression = compression
        if scale.workers > 1:
            service.options.websocket_only = True
    budget = OutputBudget(limits.max_total_buffer,
                          session_cap=min(service.options.max_buffer for service in services))
    app = make_application(services, budget)
    if scale.standby:
        # Everything is loaded: a replacement for a dead worker is this
        # close to listening (scaleout/workers.py). It joins the broker
        # only then, so that it does not parse every relayed message while
        # it waits.
        assert link is not None
        if scale.broker is not None:
            from ..scaleout import relay as _preloaded  # noqa: F401
        index = await link.wait_for_go(stop)
        if index is None:
            return 0
        scale = scale._replace(worker_index=index, standby=False)
        for handler in logging.getLogger().handlers:
            handler.setFormatter(logging.Formatter(scale.log_format))
    relay = None
    if scale.broker is not None:
        relay = await _join_broker(scale, services)
        if relay is None:
            return 1
    try:
        # A worker shares the port with the others (and with the
        # supervisor's reservation): the kernel spreads new connections
        # over the listening sockets of the SO_REUSEPORT group.
        sockets = bind_sockets(port, host, reuse_port=scale.is_worker)
    except (OSError, ValueError) as e:
        print("sockbench-tornado: %scannot listen on %s port %d: %s" % (scale.tag, host, port, e),
              file=sys.stderr, flush=True)
        if relay is not None:
            await relay.stop()
        return 1
    # GuardedHTTPServer: no busy loop when file descriptors run out.
    # Tornado applies idle_connection_timeout to the reading of request
    # headers too (HTTP1ConnectionParameters.header_timeout): a slowloris
    # client dribbling its headers, or a connection that never sends any,
    # is closed after that long. Without it the header timeout is an hour.
    # body_timeout: a request body must arrive within the same time (SockJS
    # bodies are small); without it a client announcing a Content-Length it
    # never sends holds its connection for ever.
    server = GuardedHTTPServer(app, idle_connection_timeout=limits.header_timeout,
                               body_timeout=limits.header_timeout, budget=budget)
    server.add_sockets(sockets)
    bound_port = sockets[0].getsockname()[1]

    if status_file is not None:
        write_status(status_file, supervisor_pid=os.getpid(), worker_pids=[os.getpid()], restarts=0)
    url = base_url(host, bound_port)
    fields = ready_fields(codec, heartbeat=heartbeat, services=services, scale=scale)
    if link is not None:
        # A worker: the supervisor prints one READY line for the group.
        link.report_listening(url, fields)
    else:
        ready(format_ready_line(url, fields))
    if after_ready is not None:
        after_ready(loop)
    try:
        await stop.wait()
    finally:
        if status_file is not None:
            remove_status(status_file)

    log.info("signal received: closing %d sessions",
             sum(len(s.live) for s in services))
    server.stop()
    for service in services:
        service.shutdown()
    await asyncio.sleep(SHUTDOWN_DRAIN)
    if relay is not None:
        await relay.stop()
    return 0


async def _join_broker(scale: ScaleOut, services: Sequence[Service]) -> Any:
    """Connect the relay and join the /broadcast service to it; None (after
    one line on stderr) when that cannot be done."""
    assert scale.broker is not None
    try:
        from ..scaleout.relay import BrokerUnreachableError, RedisRelay
    except ImportError as e:
        print("sockbench-tornado: --broker needs the Python package redis (%s); "
              "run 'make setup-python'" % e, file=sys.stderr, flush=True)
        return None
    from ..scaleout.domain import join_domain

    relay = RedisRelay(scale.broker)
    try:
        await relay.start()
    except BrokerUnreachableError as e:
        print("sockbench-tornado: %s%s" % (scale.tag, e), file=sys.stderr, flush=True)
        return None
    join_domain(next(s for s in services if s.prefix == "/broadcast"), relay)
    return relay


def serve(host: str, port: int, heartbeat: float, codec: Codec,
          mounts: Callable[[float], List[Mount]],
          ready: Optional[Callable[[str], None]] = None,
          limits: Optional[ServerLimits] = None,
          broadcast: Optional[str] = None,
          compression: Optional[str] = None,
          scale: ScaleOut = ScaleOut(),
          status_file: Optional[str] = None,
          after_ready: Optional[Callable[[asyncio.AbstractEventLoop], None]] = None) -> int:
    """Run until SIGTERM/SIGINT; returns the exit status. ``broadcast``
    (``"fast"``/``"naive"``) overrides every mount's ``ServiceOptions.broadcast``,
    ``compression`` (``"none"``/``"permessage-deflate"``) its ``compression``;
    ``scale``: this process's part in a scale-out (docs/protocol.md section 6;
    several workers are started by ``scaleout/workers.py``, which runs this
    in each); ``status_file``: where a server that serves alone keeps its
    pid (docs/protocol.md section 6.2); ``after_ready``: called with the
    loop once the server listens (``--heap-snapshots``)."""
    def print_ready(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    # A client's malformed chunked body is a warning line, not a traceback.
    quiet_malformed_chunked_bodies()
    return asyncio.run(_serve(host=host, port=port, heartbeat=heartbeat, codec=codec,
                              mounts=mounts, ready=ready or print_ready,
                              limits=limits or ServerLimits(), broadcast=broadcast,
                              compression=compression, scale=scale,
                              status_file=status_file, after_ready=after_ready))
