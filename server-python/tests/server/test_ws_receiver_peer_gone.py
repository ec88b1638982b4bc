"""WsReceiver against a real Tornado IOStream whose peer has gone: the write
that discovers it must report ReceiverGone (the session ends quietly), not
crash on the buffers Tornado dropped when it closed the stream. Both write
paths: the shared bytes (``write_prebuilt``) and a frame string written in
one call (``send_frame``, naive mode's copy per recipient)."""
import asyncio
import socket
from types import SimpleNamespace

import pytest
from tornado.iostream import IOStream

from sockbench_server.protocol.errors import ReceiverGone
from sockbench_server.tornado_io.ws_receivers import WsReceiver


def _receiver_over(stream):
    conn = SimpleNamespace(stream=stream, client_terminated=False, server_terminated=False)
    return WsReceiver(SimpleNamespace(ws_connection=conn), max_buffer=1 << 20)


WRITES = {
    "write_prebuilt": lambda r: r.write_prebuilt(b"\x81\x05hello"),
    "send_frame": lambda r: r.send_frame("hello"),
}


@pytest.mark.parametrize("write", sorted(WRITES))
def test_write_to_vanished_peer_raises_receiver_gone(write):
    async def scenario():
        ours, theirs = socket.socketpair()
        theirs.close()  # the client is gone: our next send fails with EPIPE
        stream = IOStream(ours)
        receiver = _receiver_over(stream)
        with pytest.raises(ReceiverGone):
            WRITES[write](receiver)
        assert stream.closed()
        with pytest.raises(ReceiverGone):  # and every write after it
            WRITES[write](receiver)

    asyncio.run(scenario())


@pytest.mark.parametrize("write", sorted(WRITES))
def test_write_to_live_peer_keeps_going(write):
    async def scenario():
        ours, theirs = socket.socketpair()
        stream = IOStream(ours)
        try:
            assert WRITES[write](_receiver_over(stream)) is True
            assert theirs.recv(16) == b"\x81\x05hello"
        finally:
            stream.close()
            theirs.close()

    asyncio.run(scenario())
