"""WsReceiver (tornado_io/ws_receivers.py) on real Tornado streams and
connections: a frame string is encoded, headed and written in one call
(``send_frame``, naive mode's copy per recipient) with the same bytes as
``encode_wire``; the connection and stream it took at open still tell a
closing connection from an open one, as ``is_closing()`` did; and a copy
past ``max_buffer`` stays queued, counted process-wide, and is reported."""
from __future__ import annotations

import asyncio
import socket
from types import SimpleNamespace

import pytest
from tornado.httpserver import HTTPServer
from tornado.iostream import IOStream
from tornado.netutil import bind_sockets
from tornado.web import Application
from tornado.websocket import WebSocketHandler, websocket_connect

from sockbench_server.protocol.errors import ReceiverGone, SlowConsumer
from sockbench_server.protocol.wsframes import pop_frames
from sockbench_server.tornado_io.tornado_private import account_stream, unsent_bytes
from sockbench_server.tornado_io.ws_receivers import WsReceiver


def _receiver_over(stream, max_buffer=1 << 20):
    conn = SimpleNamespace(stream=stream, client_terminated=False, server_terminated=False)
    return WsReceiver(SimpleNamespace(ws_connection=conn), max_buffer=max_buffer)


async def _read(sock: socket.socket, n: int) -> bytes:
    loop = asyncio.get_running_loop()
    data = b""
    while len(data) < n:
        chunk = await asyncio.wait_for(loop.sock_recv(sock, 1 << 20), 5)
        assert chunk, "the stream closed after %d of %d bytes" % (len(data), n)
        data += chunk
    return data


# Payload lengths around each RFC 6455 length form (7 bits, 16 bits, 64 bits).
TEXTS = ["", "o", 'a["h\u00e9\u2028"]', "x" * 125, "x" * 126, "\u00e9" * 63 + "x",
         "x" * 0xFFFF, "x" * 0x10000, "\u20ac" * 30000]


@pytest.mark.parametrize("text", TEXTS, ids=lambda t: "%d chars" % len(t))
def test_a_frame_string_goes_out_as_the_bytes_encode_wire_builds(text):
    async def scenario():
        ours, theirs = socket.socketpair()
        theirs.setblocking(False)
        stream = IOStream(ours)
        try:
            assert _receiver_over(stream).send_frame(text) is True
            expected = WsReceiver.encode_wire(text)
            got = await _read(theirs, len(expected))
            assert got == expected
            assert list(pop_frames(bytearray(got))) == [(0x1, text.encode("utf-8"))]
        finally:
            stream.close()
            theirs.close()

    asyncio.run(scenario())


def test_bytes_go_out_as_one_binary_frame():
    async def scenario():
        ours, theirs = socket.socketpair()
        theirs.setblocking(False)
        stream = IOStream(ours)
        try:
            assert _receiver_over(stream).send_frame(b"\x00\xff") is True
            assert await _read(theirs, 4) == b"\x82\x02\x00\xff"
        finally:
            stream.close()
            theirs.close()

    asyncio.run(scenario())


class Budget:
    """The process-wide output budget's interface, recording the total."""

    def __init__(self) -> None:
        self.total = 0

    def add(self, delta: int) -> None:
        self.total += delta

    def untrack(self, stream) -> None:
        pass


def test_a_copy_past_max_buffer_stays_queued_counted_and_is_reported():
    async def scenario():
        ours, theirs = socket.socketpair()
        theirs.setblocking(False)
        budget = Budget()
        stream = account_stream(IOStream(ours), budget)
        receiver = _receiver_over(stream, max_buffer=1000)
        text = "y" * (4 << 20)  # more than the socket takes at once
        try:
            with pytest.raises(SlowConsumer) as e:
                receiver.send_frame(text)
            assert e.value.buffered == unsent_bytes(stream) > 1000
            assert budget.total == e.value.buffered  # the process-wide count saw it
            expected = WsReceiver.encode_wire(text)
            assert await _read(theirs, len(expected)) == expected  # nothing lost or reordered
            for _ in range(100):  # Tornado drains the rest as the socket takes it
                if not unsent_bytes(stream):
                    break
                await asyncio.sleep(0.01)
            assert budget.total == 0 and not stream.closed()
        finally:
            stream.close()
            theirs.close()

    asyncio.run(scenario())


# -- on a real Tornado websocket ------------------------------------------------

class Probe(WebSocketHandler):
    """A websocket whose receiver is made at open, as ours is."""

    opened: "asyncio.Future"
    closed: "asyncio.Future"

    def open(self) -> None:
        self.receiver = WsReceiver(self, max_buffer=1 << 20)
        self.opened.set_result(self)

    def on_close(self) -> None:
        self.closed.set_result(True)


async def _connect():
    """(server, client, the server's handler) of one open websocket."""
    loop = asyncio.get_running_loop()
    Probe.opened, Probe.closed = loop.create_future(), loop.create_future()
    [sock] = bind_sockets(0, "127.0.0.1")
    server = HTTPServer(Application([("/ws", Probe)]))
    server.add_sockets([sock])
    client = await websocket_connect("ws://127.0.0.1:%d/ws" % sock.getsockname()[1])
    handler = await asyncio.wait_for(Probe.opened, 5)
    return server, client, handler


def test_frames_reach_a_real_client_as_text_messages():
    async def scenario():
        server, client, handler = await _connect()
        try:
            for text in ("o", 'a["h\u00e9"]', "z" * 70000):
                assert handler.receiver.send_frame(text) is True
                assert await asyncio.wait_for(client.read_message(), 5) == text
        finally:
            client.close()
            server.stop()

    asyncio.run(scenario())


def test_no_frame_follows_our_close_frame_while_the_stream_is_still_open():
    """Trap: after ``handler.close()`` Tornado's ``ws_connection`` is None
    and the stream stays open until the client answers; the connection the
    receiver holds must still refuse the write."""
    async def scenario():
        server, client, handler = await _connect()
        receiver = handler.receiver
        try:
            handler.close(1000, "bye")
            assert handler.ws_connection is None and not receiver.stream.closed()
            with pytest.raises(ReceiverGone):
                receiver.send_frame("a[\"late\"]")
            with pytest.raises(ReceiverGone):
                receiver.write_prebuilt(WsReceiver.encode_wire("a[\"late\"]"))
            assert await asyncio.wait_for(client.read_message(), 5) is None  # the close, nothing before it
            assert client.close_code == 1000
        finally:
            server.stop()

    asyncio.run(scenario())


def test_no_frame_is_written_once_the_client_closed():
    async def scenario():
        server, client, handler = await _connect()
        try:
            client.close(1000)
            await asyncio.wait_for(Probe.closed, 5)
            with pytest.raises(ReceiverGone):
                handler.receiver.send_frame("a[\"late\"]")
        finally:
            server.stop()

    asyncio.run(scenario())
