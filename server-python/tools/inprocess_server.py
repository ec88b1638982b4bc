"""A real server on the running event loop, built as `python -m sockbench_server` builds it (the
default mounts, the application, GuardedHTTPServer with its output budget), for what looks at the
server's own objects: object_census.py and tests/server (test_session_footprint.py)."""
from __future__ import annotations

import asyncio
import contextlib
from typing import AsyncIterator, Dict, Tuple

from tornado.netutil import bind_sockets

from sockbench_server.apps import default_mounts
from sockbench_server.protocol.codecs import load_codec
from sockbench_server.protocol.service import Service
from sockbench_server.protocol.session_budget import SessionBudget
from sockbench_server.tornado_io.accept import GuardedHTTPServer
from sockbench_server.tornado_io.router import make_application
from sockbench_server.tornado_io.shedding import OutputBudget
from sockbench_server.tornado_io.timers import LoopTimers


@contextlib.asynccontextmanager
async def running_server(max_sessions: int = 10) -> AsyncIterator[Tuple[int, Dict[str, Service]]]:
    """(port, services by prefix) of a server listening on 127.0.0.1 until the block ends."""
    timers = LoopTimers(asyncio.get_running_loop())
    services = [Service(prefix, connection_class=cls, options=opts, codec=load_codec("json"),
                        timers=timers, session_budget=SessionBudget(max_sessions))
                for prefix, cls, opts in default_mounts(25.0)]
    [sock] = bind_sockets(0, "127.0.0.1")
    budget = OutputBudget()
    server = GuardedHTTPServer(make_application(services, budget), budget=budget)
    server.add_sockets([sock])
    try:
        yield sock.getsockname()[1], {s.prefix: s for s in services}
    finally:
        server.stop()
        await asyncio.sleep(0.05)
