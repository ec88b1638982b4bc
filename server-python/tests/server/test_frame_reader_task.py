"""The websocket frame reader runs in a Task of its own (FencedProtocol13.read_frames in
tornado_private.py, README "Where the bytes go"), no longer under Tornado's handshake coroutines,
which handled what escaped it. A frame reader that fails unexpectedly is logged as Tornado logged
it (the request handler's "Uncaught exception" with the request's summary) and now also ends its
session, where Tornado left the connection open and unread."""
from __future__ import annotations

import asyncio
import logging
import os
import sys

from tornado.websocket import websocket_connect

from sockbench_server.protocol.ws_reader import ClientFrameReader

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
from inprocess_server import running_server  # noqa: E402


def test_an_unexpected_error_in_the_frame_reader_is_logged_and_ends_the_session(monkeypatch,
                                                                                caplog):
    def broken(self, data):
        raise RuntimeError("a bug in the frame reader")

    async def scenario():
        async with running_server() as (port, services):
            ws = await websocket_connect("ws://127.0.0.1:%d/broadcast/000/broken/websocket" % port)
            assert await asyncio.wait_for(ws.read_message(), 5) == "o"
            monkeypatch.setattr(ClientFrameReader, "feed", broken)
            # The read under way already holds the old feed: this message still goes through ...
            ws.write_message('["wake the reader"]')
            frame = "h"
            while frame == "h":
                frame = await asyncio.wait_for(ws.read_message(), 5)
            assert frame == 'a["wake the reader"]'
            # ... and the next one meets the bug.
            ws.write_message('["meet the bug"]')
            # The server drops the connection: the client reads None (after any heartbeat).
            frame = "h"
            while frame == "h":
                frame = await asyncio.wait_for(ws.read_message(), 5)
            assert frame is None
            assert not services["/broadcast"].live

    with caplog.at_level(logging.ERROR, logger="tornado.application"):
        asyncio.run(scenario())
    assert "Uncaught exception GET /broadcast/000/broken/websocket (127.0.0.1)" in caplog.text
    assert "a bug in the frame reader" in caplog.text
