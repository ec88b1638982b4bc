"""The websocket reader (rfc6455.StrictProtocol13) reads nothing from a
client socket while the output budget has reading paused: the client's
frames stay in the kernel's receive buffer (TCP pushes back on the
client) until reading resumes, and are then handled in order.

A real server on this event loop (GuardedHTTPServer, which counts every
client stream against the OutputBudget) and a real websocket client on
the raw echo endpoint."""
from __future__ import annotations

import asyncio
import socket

from tornado.netutil import bind_sockets
from tornado.websocket import websocket_connect

from sockbench_server.apps import default_mounts
from sockbench_server.protocol.codecs import load_codec
from sockbench_server.protocol.service import Service
from sockbench_server.protocol.session_budget import SessionBudget
from sockbench_server.tornado_io.accept import GuardedHTTPServer
from sockbench_server.tornado_io.router import make_application
from sockbench_server.tornado_io.shedding import OutputBudget
from sockbench_server.tornado_io.timers import LoopTimers


def unread_bytes(sock: socket.socket) -> int:
    """Bytes the kernel holds for ``sock`` that the server has not read."""
    try:
        return len(sock.recv(65536, socket.MSG_PEEK | socket.MSG_DONTWAIT))
    except BlockingIOError:
        return 0


def test_a_paused_stream_is_not_read_and_its_frames_come_in_order_on_resume():
    async def scenario():
        loop = asyncio.get_running_loop()
        timers = LoopTimers(loop)
        services = [Service(prefix, connection_class=cls, options=opts, codec=load_codec("json"),
                            timers=timers, session_budget=SessionBudget(10))
                    for prefix, cls, opts in default_mounts(25.0)]
        budget = OutputBudget()
        [sock] = bind_sockets(0, "127.0.0.1")
        server = GuardedHTTPServer(make_application(services, budget), budget=budget)
        server.add_sockets([sock])
        port = sock.getsockname()[1]
        ws = await websocket_connect(f"ws://127.0.0.1:{port}/echo/websocket")
        try:
            await ws.write_message("before")
            assert await asyncio.wait_for(ws.read_message(), 5) == "before"
            [stream] = budget.streams

            budget.add(budget.pause_at + 1)  # as if that much output were unsent: reading pauses
            assert budget.paused and stream.read_paused
            for text in ("one", "two", "three"):
                await ws.write_message(text)
            await asyncio.sleep(0.3)
            assert unread_bytes(stream.socket) > 0, "the paused stream was read"

            budget.add(-(budget.pause_at + 1))  # the output drained: reading resumes
            assert not budget.paused
            got = [await asyncio.wait_for(ws.read_message(), 5) for _ in range(3)]
            assert got == ["one", "two", "three"]
            assert unread_bytes(stream.socket) == 0
        finally:
            ws.close()
            server.stop()
            await asyncio.sleep(0.05)

    asyncio.run(scenario())
