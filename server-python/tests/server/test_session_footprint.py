"""What an open websocket session keeps alive on our server (README, "Where the bytes go"):

* our per-session attributes live in the handler's slots, not in its instance __dict__, which
  CPython 3.11+ keeps as a key-sharing dict only up to 30 keys (Tornado's handler holds 27 after the
  upgrade; two more once made every session carry a 1.6 KB dict of its own); the frame reader's
  message state likewise, beside the 27 keys of Tornado's websocket protocol;
* the frame reader runs in a Task of its own, with no coroutine over it or under it while it waits
  for a frame: neither Tornado's handshake coroutines nor one of ours stays alive with it;
* nothing of the HTTP upgrade outlives the handshake (the request, its headers, its connection
  objects, the sent response's headers, the template namespace, the URL's decoded groups);
* every connection shares one websocket settings object;
* the stream's write queues hold no deque while nothing waits to be sent.

A real server on this event loop (tools/inprocess_server.py) and a real websocket client; the figures in
bytes are the benchmark's to measure, not this test's."""
from __future__ import annotations

import asyncio
import collections
import gc
import inspect
import logging
import os
import sys
import weakref

import pytest
from tornado.websocket import websocket_connect

from sockbench_server.tornado_io.websocket import FramedWebSocketHandler

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
from inprocess_server import running_server  # noqa: E402

OURS_PER_SESSION = {"service", "budget", "session", "receiver"}
#: CPython's limit on a key-sharing instance dict (SHARED_KEYS_MAX_SIZE in Objects/dictobject.c).
SHARED_KEYS_MAX = 30
#: Coroutines that once wrapped Tornado's long-lived ones; each kept a frame per session. Tornado's
#: own WebSocketHandler.get was one too (its frame also held the request's headers), and so was
#: the frame reader's read of the next frame head, where an idle session waits.
WRAPPERS = {"_SockJSWebSocket.get", "_SockJSWebSocket._handshake", "FramedWebSocketHandler._handshake",
            "FencedProtocol13._receive_frame", "WebSocketHandler.get", "StrictProtocol13._read_exactly",
            # the reader of one frame, before frames were parsed from whole socket reads
            "StrictProtocol13.receive_frame"}
#: Tornado's handshake coroutines, which awaited the frame reader as long as the connection was read;
#: the frame reader runs in a Task of its own (FencedProtocol13.read_frames). (The test's client is
#: Tornado's too: its own frame loop is WebSocketProtocol13's, not named here.)
HANDSHAKE = {"RequestHandler._execute", "WebSocketProtocol13.accept_connection",
             "WebSocketProtocol13._accept_connection", "FencedProtocol13._receive_frame_loop"}


def _live_coroutine_names():
    gc.collect()  # PyPy lists objects no longer reachable until they are collected
    return {c.__qualname__ for c in gc.get_objects() if inspect.iscoroutine(c)}


async def next_frame(ws):
    """The next SockJS frame but heartbeats (a slow run may take longer than their 25 s)."""
    while True:
        frame = await asyncio.wait_for(ws.read_message(), 5)
        if frame != "h":
            return frame


def upgrade_objects(handler):
    """Weak references to what a handler holds of its HTTP upgrade before it opens, by name."""
    request = handler.request
    return {name: weakref.ref(obj) for name, obj in (
        ("request", request), ("request headers", request.headers),
        ("HTTP/1 connection", request.connection), ("its server side", request.server_connection),
        ("response headers", handler._headers),  # Tornado's private name: what the fence releases
        ("template namespace", handler.ui))}


def test_an_open_session_keeps_only_what_it_uses(monkeypatch, caplog):
    opened = []
    upgrade = []
    original_open = FramedWebSocketHandler.open

    def spy(self, *args, **kwargs):
        upgrade.append(upgrade_objects(self))
        original_open(self, *args, **kwargs)
        opened.append(self)

    monkeypatch.setattr(FramedWebSocketHandler, "open", spy)

    async def scenario():
        async with running_server() as (port, _):
            url = "ws://127.0.0.1:%d/broadcast/000/%s/websocket"
            clients = [await websocket_connect(url % (port, name)) for name in ("footprint", "second")]
            try:
                for ws in clients:
                    assert await asyncio.wait_for(ws.read_message(), 5) == "o"
                handler, second = opened
                assert handler.session is not None and handler.receiver is not None
                assert not OURS_PER_SESSION & set(vars(handler)), sorted(vars(handler))
                if sys.implementation.name == "cpython":
                    assert len(vars(handler)) <= SHARED_KEYS_MAX, sorted(vars(handler))
                live = _live_coroutine_names()
                # The session is really being read by our frame reader in its own Task ...
                assert "FencedProtocol13.read_frames" in live, sorted(live)
                # ... with no coroutine over it, and the handshake's are done.
                assert not WRAPPERS & live, sorted(WRAPPERS & live)
                assert not HANDSHAKE & live, sorted(HANDSHAKE & live)
                gc.collect()
                kept = sorted({name for refs in upgrade for name, ref in refs.items()
                               if ref() is not None})
                assert not kept, "kept after the handshake: %s" % kept
                assert handler.path_args is None and handler.open_args == ()  # the URL's decoded groups
                # One websocket settings object for every connection with the same settings.
                assert handler.ws_connection.params is second.ws_connection.params
                stream = handler.ws_connection.stream  # Tornado's private names below: the fence's
                assert not isinstance(stream._write_futures, collections.deque)
                assert not isinstance(stream._write_buffer._buffers, collections.deque)
                # A session that received a message keeps its protocol's dict key-shared too: the
                # frame reader's message state lives in slots.
                await clients[0].write_message('["hello"]')
                for ws in clients:
                    assert await next_frame(ws) == 'a["hello"]'
                if sys.implementation.name == "cpython":
                    protocol = vars(handler.ws_connection)
                    assert len(protocol) <= SHARED_KEYS_MAX, sorted(protocol)
                # Tornado's error log for a callback that raises still names the session's request.
                try:
                    raise ValueError("a callback failed")
                except ValueError:
                    with caplog.at_level(logging.ERROR, logger="tornado.application"):
                        handler.log_exception(*sys.exc_info())
                assert "GET /broadcast/000/footprint/websocket (127.0.0.1)" in caplog.text
            finally:
                for ws in clients:
                    ws.close()

    asyncio.run(scenario())


def test_a_handler_closed_before_open_still_reads_as_having_no_session():
    # on_close may come before open (a handshake that failed): the slots are filled in initialize.
    handler = FramedWebSocketHandler.__new__(FramedWebSocketHandler)
    with pytest.raises(AttributeError):
        handler.session  # noqa: B018 - an unfilled slot: initialize must fill it
    FramedWebSocketHandler.initialize(handler, service=None, budget=None)
    assert handler.session is None and handler.receiver is None
