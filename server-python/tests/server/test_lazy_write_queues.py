"""The fence's write queues that allocate only when used (tornado_private.LazyStreamBuffer and
WriteFutures, README "Where the bytes go"): they behave as Tornado's own on a real stream, and an
idle one holds no deque."""
from __future__ import annotations

import asyncio
import collections
import socket

from tornado.iostream import IOStream

from sockbench_server.tornado_io.tornado_private import (NO_CHUNKS, LazyStreamBuffer, WriteFutures,
                                                         lazy_write_queues)


def test_the_buffer_makes_its_deque_at_the_first_append_and_drops_it_once_drained():
    buf = LazyStreamBuffer()
    assert buf._buffers is NO_CHUNKS and len(buf) == 0
    assert bytes(buf.peek(10)) == b""  # Tornado's own answer for an empty buffer
    buf.append(b"abc")
    buf.append(b"x" * 3000)  # large: kept by reference, its own chunk
    buf.append(b"def")
    assert isinstance(buf._buffers, collections.deque) and len(buf) == 3006
    out = b""
    while len(buf):
        view = buf.peek(1000)
        out += bytes(view)
        buf.advance(len(view))
    assert out == b"abc" + b"x" * 3000 + b"def"
    assert buf._buffers is NO_CHUNKS
    buf.append(b"again")
    assert bytes(buf.peek(100)) == b"again"


def test_write_futures_make_their_deque_at_the_first_and_drop_it_once_none_waits():
    futures = WriteFutures()
    assert futures.waiting is None and not futures and list(futures) == []
    futures.append((1, "a"))
    futures.append((2, "b"))
    assert futures and len(futures) == 2 and futures[0] == (1, "a")
    assert futures.popleft() == (1, "a") and list(futures) == [(2, "b")]
    assert futures.popleft() == (2, "b") and futures.waiting is None
    futures.append((3, "c"))
    futures.clear()
    assert futures.waiting is None and not futures


def test_a_stream_with_lazy_queues_writes_resolves_its_futures_and_closes():
    async def scenario():
        left, right = socket.socketpair()
        right.setblocking(False)
        stream = IOStream(left)
        lazy_write_queues(stream)
        assert not isinstance(stream._write_futures, collections.deque)
        assert stream._write_buffer._buffers is NO_CHUNKS
        # More than the socket buffer takes at once: bytes wait in the lazy buffer.
        payload = b"y" * (4 << 20)
        done = stream.write(payload)
        assert len(stream._write_futures) == 1
        got = bytearray()
        loop = asyncio.get_running_loop()
        while len(got) < len(payload):
            got += await loop.sock_recv(right, 1 << 16)
        await asyncio.wait_for(done, 5)
        assert bytes(got) == payload
        assert stream._write_futures.waiting is None
        assert stream._write_buffer._buffers is NO_CHUNKS
        pending = stream.write(b"z")
        stream.close()
        await asyncio.sleep(0)
        assert pending.done()  # resolved or failed by the close, as with Tornado's deque
        right.close()

    asyncio.run(scenario())
