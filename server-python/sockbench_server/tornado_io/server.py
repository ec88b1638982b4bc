"""The server process: listen, print the READY line, stop on SIGTERM/SIGINT
(docs/protocol.md sections 2 and 3)."""
from __future__ import annotations

import asyncio
import logging
import platform
import signal
import sys
from typing import Callable, List, Optional, Sequence, Tuple

import tornado
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets

from ..api import broadcast_mode
from ..apps import Mount
from ..protocol.codecs import Codec, runtime_name
from ..protocol.session import Service
from .router import make_application
from .timers import LoopTimers

log = logging.getLogger("sockbench_server")

SERVER_NAME = "sockbench-tornado"
#: How long shutdown lets close frames drain before the loop stops.
SHUTDOWN_DRAIN = 0.15


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


def ready_line(url: str, codec: Codec, heartbeat: float, services: Sequence[Service]) -> str:
    default = next((s for s in services if s.prefix == "/broadcast"), services[0])
    fields: List[Tuple[str, str]] = [
        ("server", SERVER_NAME),
        ("runtime", runtime_name()),
        ("runtime_version", runtime_version()),
        ("tornado", tornado.version),
        ("codec", codec.name),
    ]
    if codec.name != "json":
        fields.append((codec.name, codec.version))
    fields.append(("mode", broadcast_mode()))
    fields += [
        ("heartbeat", format_number(heartbeat)),
        ("disconnect_delay_ms", str(int(round(default.options.disconnect_delay * 1000)))),
        ("response_limit", str(default.options.response_limit)),
    ]
    return "READY " + url + "".join(" %s=%s" % (k, v.replace(" ", "%20")) for k, v in fields)


async def _serve(host: str, port: int, heartbeat: float, codec: Codec,
                 mounts: Callable[[float], List[Mount]],
                 ready: Callable[[str], None]) -> int:
    loop = asyncio.get_running_loop()
    timers = LoopTimers(loop)
    services = [Service(prefix, cls, opts, codec, timers) for prefix, cls, opts in mounts(heartbeat)]
    app = make_application(services)
    try:
        sockets = bind_sockets(port, host)
    except (OSError, ValueError) as e:
        print("sockbench-tornado: cannot listen on %s port %d: %s" % (host, port, e),
              file=sys.stderr, flush=True)
        return 1
    server = HTTPServer(app)
    server.add_sockets(sockets)
    bound_port = sockets[0].getsockname()[1]

    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    ready(ready_line(base_url(host, bound_port), codec, heartbeat, services))
    await stop.wait()

    log.info("signal received: closing %d sessions",
             sum(len(s.live) for s in services))
    server.stop()
    for service in services:
        service.shutdown()
    await asyncio.sleep(SHUTDOWN_DRAIN)
    return 0


def serve(host: str, port: int, heartbeat: float, codec: Codec,
          mounts: Callable[[float], List[Mount]],
          ready: Optional[Callable[[str], None]] = None) -> int:
    """Run until SIGTERM/SIGINT; returns the exit status."""
    def print_ready(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    return asyncio.run(_serve(host, port, heartbeat, codec, mounts, ready or print_ready))
