"""WsReceiver against a real Tornado IOStream whose peer has gone: the write
that discovers it must report ReceiverGone (the session ends quietly), not
crash on the buffers Tornado dropped when it closed the stream."""
import asyncio
import socket
from types import SimpleNamespace

import pytest
from tornado.iostream import IOStream

from sockbench_server.protocol.errors import ReceiverGone
from sockbench_server.tornado_io.websocket import WsReceiver


def _receiver_over(stream):
    conn = SimpleNamespace(stream=stream, is_closing=lambda: False)
    return WsReceiver(SimpleNamespace(ws_connection=conn), max_buffer=1 << 20)


def test_write_to_vanished_peer_raises_receiver_gone():
    async def scenario():
        ours, theirs = socket.socketpair()
        theirs.close()  # the client is gone: our next send fails with EPIPE
        stream = IOStream(ours)
        receiver = _receiver_over(stream)
        with pytest.raises(ReceiverGone):
            receiver.write_prebuilt(b"\x81\x05hello")
        assert stream.closed()

    asyncio.run(scenario())


def test_write_to_live_peer_keeps_going():
    async def scenario():
        ours, theirs = socket.socketpair()
        stream = IOStream(ours)
        try:
            assert _receiver_over(stream).write_prebuilt(b"\x81\x05hello") is True
            assert theirs.recv(16) == b"\x81\x05hello"
        finally:
            stream.close()
            theirs.close()

    asyncio.run(scenario())
