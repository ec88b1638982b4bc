"""The fence: every private Tornado name this server uses, and only here.

Tornado (pinned to 6.5.10 in constraints.txt) has no public way to do seven
things this server needs:

* count a stream's unsent bytes (for the per-session and process-wide
  output caps), and write to a socket without a Future per write (the
  broadcast hot path), with no Python call per write beyond the write
  itself (naive mode writes once per copy of every message);
* stop reading from a client socket while the process is over its output
  budget, and start again;
* replace the websocket frame reader (``rfc6455.StrictProtocol13``: one
  future per socket read instead of one per frame field) while keeping
  Tornado's handshake, writing and closing handshake, and run it in a Task
  of its own rather than under the handshake's coroutines;
* accept connections with our own loop (``accept.AcceptLoop``);
* compress a message with the permessage-deflate context Tornado negotiated
  for a connection, for our own frame writer, and inflate a compressed
  message for our own frame reader (``--compression``, docs/compression.md);
* tell a malformed chunked request body apart from a real crash in its
  log: Tornado 6.5.10 checks the CRLF after a chunk's data with ``assert``
  and logs the AssertionError as "Uncaught exception" with a traceback;
* not hold per connection what an idle one never uses: a stream's two
  write queues (a ``collections.deque`` each, ~760 bytes on CPython 3.11,
  made before the first write), and an open websocket handler's response
  headers, which Tornado keeps until the connection closes; and not make
  per connection what every connection of a handler shares: its websocket
  settings.

Each private name is listed in :data:`PRIVATE_NAMES` with why it is used;
``tests/server/test_tornado_private.py`` fails if one of them is missing
from the installed Tornado, so a Tornado upgrade is checked here first.
Everything else in ``tornado_io`` uses only the public names below.
"""
from __future__ import annotations

import asyncio
import collections
import inspect
import logging
import socket
import sys
import types
from typing import Any, Callable, Dict, Optional, Union

from tornado.http1connection import HTTP1Connection
from tornado.httpserver import HTTPServer
from tornado.httputil import HTTPHeaders, HTTPServerRequest
from tornado.ioloop import IOLoop
from tornado.iostream import BaseIOStream, IOStream, StreamClosedError, _StreamBuffer
from tornado.log import gen_log
from tornado.tcpserver import TCPServer
from tornado.util import _websocket_mask
from tornado.web import RequestHandler
from tornado.websocket import WebSocketHandler, WebSocketProtocol, WebSocketProtocol13, _WebSocketParams

#: (owner, name, kind, why). ``kind`` is "attr" for a class attribute or
#: method, "instance" for an attribute set in ``__init__``, "module" for a
#: module-level name.
PRIVATE_NAMES = (
    (BaseIOStream, "_write_buffer", "instance",
     "the unsent bytes of a stream (a _StreamBuffer, O(1) len()); there is no "
     "public counter; None once the stream is closed"),
    (BaseIOStream, "_closed", "instance",
     "whether the stream is closed: what closed() returns, read as the attribute by "
     "write_nowait, which runs once per copy of a naive broadcast (a call less per copy)"),
    (None, "tornado.iostream._StreamBuffer", "module",
     "the class of _write_buffer (imported for the existence check of append)"),
    (_StreamBuffer, "append", "attr",
     "queue bytes behind what the socket did not take (copies small chunks, "
     "keeps large ones by reference)"),
    (_StreamBuffer, "_large_buf_threshold", "instance",
     "the size (bytes) above which append keeps a chunk by reference instead of "
     "copying it: what a stream holding a shared broadcast frame copies of it at most "
     "(SHARED_FRAME_COPY_LIMIT, the output budget's count of a deferred batch)"),
    (_StreamBuffer, "_size", "instance",
     "the bytes a _StreamBuffer holds: what its len() returns, read as the attribute "
     "by write_nowait (a call less per copy of a naive broadcast)"),
    (BaseIOStream, "_write_futures", "instance",
     "the Futures of write() calls waiting for their bytes to be sent (a deque Tornado "
     "makes per stream); replaced by WriteFutures, which makes its deque at the first"),
    (_StreamBuffer, "_buffers", "instance",
     "the chunks of a _StreamBuffer (a deque made in its __init__); LazyStreamBuffer "
     "makes it at the first append and drops it once drained"),
    (BaseIOStream, "_total_write_index", "instance",
     "bytes ever queued: advanced when we queue bytes without write() so "
     "that the Futures of later write() calls still resolve at their byte"),
    (BaseIOStream, "_add_io_state", "attr",
     "ask the IOLoop for WRITE events once bytes are queued; overridden to "
     "leave READ out while reading is paused"),
    (BaseIOStream, "_state", "instance",
     "the stream's current IOLoop interest (READ/WRITE/ERROR bits)"),
    (BaseIOStream, "_handle_events", "attr",
     "recomputes the IOLoop interest after every event; overridden to keep "
     "READ off while reading is paused"),
    (BaseIOStream, "_handle_write", "attr",
     "drains the write buffer; overridden to keep the process-wide count of "
     "unsent bytes exact"),
    (WebSocketProtocol13, "_receive_frame_loop", "attr",
     "the frame loop Tornado's handshake awaits after open(); replaced by one that "
     "starts read_frames (calling StrictProtocol13.receive_frames) in a Task of its "
     "own, so that the handshake's coroutines and their Task end once it is open"),
    (None, "tornado.websocket._WebSocketParams", "module",
     "a websocket connection's settings (pings, message size, compression); Tornado "
     "makes one per connection, shared_websocket_params one per distinct setting"),
    (WebSocketProtocol13, "_compressor", "instance",
     "the connection's permessage-deflate compressor (None unless negotiated): "
     "its compress() keeps the context Tornado agreed with the client "
     "(takeover, window bits) and strips the 00 00 ff ff tail"),
    (WebSocketProtocol13, "_decompressor", "instance",
     "the connection's permessage-deflate decompressor (None unless "
     "negotiated): decompress() appends the tail and bounds the size"),
    (WebSocketProtocol13, "client_terminated", "instance",
     "not underscored, but undocumented: set once the client's close arrived or the "
     "connection was aborted; WsReceiver reads it (with server_terminated and the "
     "stream's closed flag: what is_closing() covers) on every write, without the call"),
    (WebSocketProtocol13, "server_terminated", "instance",
     "not underscored, but undocumented: set once our close frame went out or the "
     "connection was aborted (handler.close(), a ping timeout, on_connection_close); "
     "no frame may follow it"),
    (WebSocketProtocol, "_abort", "attr",
     "drop the TCP connection at once (a client that broke the protocol)"),
    (WebSocketProtocol, "_run_callback", "attr",
     "run on_message as Tornado does: log and abort on an exception, return "
     "its Future so that reading waits for it"),
    (WebSocketProtocol13, "_handle_message", "attr",
     "Tornado's handling of valid close, ping and pong frames"),
    (None, "tornado.util._websocket_mask", "module",
     "unmask a client frame payload with Tornado's C speedup when it is built "
     "(its pure-Python fallback loops over the bytes: not used)"),
    (RequestHandler, "_headers", "instance",
     "a handler's response headers; an open websocket's were sent with its 101, and "
     "release_upgrade points them at one shared, empty, unwritable set"),
    (TCPServer, "_sockets", "instance",
     "listening sockets by fd; stop() closes them"),
    (TCPServer, "_handlers", "instance",
     "fd -> function that stops accepting; stop() calls them"),
    (TCPServer, "_handle_connection", "attr",
     "what to do with an accepted socket (wrap in an IOStream, handle_stream)"),
    (HTTP1Connection, "_read_chunked_body", "attr",
     "reads a chunked request body; asserts on a missing CRLF after a chunk's "
     "data, so its AssertionError is a client's malformed body, not a crash"),
)

READ = IOLoop.READ
WRITE = IOLoop.WRITE

#: Bytes of a queued chunk that a stream's write buffer copies; a larger
#: chunk is kept by reference (a memoryview of the caller's bytes). So a
#: broadcast frame shared by many sessions costs a backed-up session at most
#: this much of its own, however large the frame (``OutputBudget.watch``).
SHARED_FRAME_COPY_LIMIT: int = _StreamBuffer()._large_buf_threshold


# -- unsent bytes and the write without a Future ------------------------------

def unsent_bytes(stream: BaseIOStream) -> int:
    """Bytes queued on ``stream`` that the socket has not taken yet."""
    buf = stream._write_buffer
    return len(buf) if buf is not None else 0


def write_nowait(stream: IOStream, data: bytes) -> int:
    """Write ``data`` to ``stream`` the way ``IOStream.write`` would, minus
    its Future and bookkeeping: straight to the socket when nothing is
    queued, else (or for what the socket did not take) behind the queued
    bytes, drained by Tornado as usual. Returns the bytes now unsent (>= 0).
    Raises StreamClosedError if the stream is or becomes closed."""
    buf = stream._write_buffer
    # The attributes behind closed() and len(buf), not the calls: in naive
    # mode this runs once per copy of every message, and on CPython each call
    # is a Python frame of its own. Tornado sets both in close() (the buffer
    # to None); either one alone would do, both cost nothing.
    if buf is None or stream._closed:
        raise StreamClosedError()
    if not buf._size:
        try:
            sent = stream.socket.send(data)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError as e:  # EPIPE, ECONNRESET: the client went away
            stream.close(exc_info=e)
            raise StreamClosedError(real_error=e) from None
        if sent == len(data):
            return 0
        data = memoryview(data)[sent:]  # type: ignore[assignment]
    buf.append(data)
    stream._total_write_index += len(data)
    stream._add_io_state(WRITE)
    if stream.__class__ is AccountedIOStream:
        stream.recount()  # type: ignore[attr-defined]
    return len(buf)


# -- write queues that cost nothing until used -------------------------------

#: What LazyStreamBuffer and WriteFutures hold instead of a deque while nothing is
#: queued: Tornado's _StreamBuffer reads its chunks only while its size is > 0
#: (peek() of an empty one takes the IndexError path, advance() loops while the
#: chunks are truthy).
NO_CHUNKS: tuple = ()


class LazyStreamBuffer(_StreamBuffer):
    """Tornado's write buffer, with its deque of chunks made at the first append
    and dropped again once everything queued was sent: an idle connection (most
    of an idle websocket's life, and every write that the socket takes at once,
    ``write_nowait``) holds none."""

    def __init__(self) -> None:
        super().__init__()
        self._buffers = NO_CHUNKS

    def append(self, data: Union[bytes, bytearray, memoryview]) -> None:
        if self._buffers is NO_CHUNKS:
            self._buffers = collections.deque()
        super().append(data)

    def advance(self, size: int) -> None:
        super().advance(size)
        if not len(self):
            self._buffers = NO_CHUNKS


class WriteFutures:
    """The Futures of a stream's write() calls, oldest first, in a deque made
    at the first one and dropped once none waits: Tornado's own deque for
    them is made per stream and holds a block of 64 slots even empty. Tornado
    appends, reads [0], pops from the left, tests truth, iterates and clears;
    only write() makes Futures (the broadcast path writes without one)."""

    __slots__ = ("waiting",)

    def __init__(self) -> None:
        self.waiting: Optional[collections.deque] = None

    def append(self, item: Any) -> None:
        if self.waiting is None:
            self.waiting = collections.deque()
        self.waiting.append(item)

    def popleft(self) -> Any:
        waiting = self.waiting
        if waiting is None:
            raise IndexError("pop from an empty WriteFutures")
        item = waiting.popleft()
        if not waiting:
            self.waiting = None
        return item

    def __getitem__(self, index: int) -> Any:
        return (self.waiting or NO_CHUNKS)[index]

    def __len__(self) -> int:
        return len(self.waiting) if self.waiting is not None else 0

    def __iter__(self) -> Any:
        return iter(self.waiting or NO_CHUNKS)

    def clear(self) -> None:
        self.waiting = None


def lazy_write_queues(stream: BaseIOStream) -> None:
    """Give a fresh, empty ``stream`` write queues that allocate only when used."""
    assert not stream._write_buffer and not stream._write_futures
    stream._write_buffer = LazyStreamBuffer()
    stream._write_futures = WriteFutures()  # type: ignore[assignment]


# -- streams that count their unsent bytes and can stop reading ---------------

class NoBudget:
    """Where a stream reports its unsent bytes before a budget takes it."""

    @staticmethod
    def add(delta: int) -> None:
        pass

    @staticmethod
    def untrack(stream: Any) -> None:
        pass


class AccountedIOStream(IOStream):
    """An IOStream that reports every change of its unsent bytes to its
    ``budget`` (``budget.add(delta)``) and whose reading can be paused.

    Paused reading means: no ``recv`` on the socket (TCP pushes back on the
    client) and no READ interest in the IOLoop (so a readable socket does
    not wake the loop again and again). Data already read stays deliverable.
    """

    budget: Any = NoBudget
    counted = 0
    read_paused = False

    def recount(self) -> None:
        buf = self._write_buffer
        n = len(buf) if buf is not None and not self.closed() else 0
        delta = n - self.counted
        if delta:
            self.counted = n
            self.budget.add(delta)

    def write(self, data: Union[bytes, memoryview]) -> Any:
        try:
            return super().write(data)
        finally:
            self.recount()

    def _handle_write(self) -> None:
        super()._handle_write()
        self.recount()

    def close(self, exc_info: Any = False) -> None:
        super().close(exc_info)
        self.recount()
        self.budget.untrack(self)

    # -- pausing ---------------------------------------------------------

    def pause_reading(self) -> None:
        if self.read_paused:
            return
        self.read_paused = True
        self._drop_read_interest()

    def resume_reading(self) -> None:
        if not self.read_paused:
            return
        self.read_paused = False
        if not self.closed():
            # Tornado listens for READ on an idle stream too (to notice a
            # close); a pending read gets its data from the next event.
            self._add_io_state(READ)

    def _drop_read_interest(self) -> None:
        state = self._state
        if state is not None and state & READ and not self.closed():
            self._state = state & ~READ
            self.io_loop.update_handler(self.fileno(), self._state)

    def read_from_fd(self, buf: Union[bytearray, memoryview]) -> Optional[int]:
        if self.read_paused:
            return None  # as if the socket had nothing (EWOULDBLOCK)
        return super().read_from_fd(buf)

    def _add_io_state(self, state: int) -> None:
        if self.read_paused:
            state &= ~READ
            if not state and self._state is not None:
                return
        super()._add_io_state(state)

    def _handle_events(self, fd: Any, events: int) -> None:
        super()._handle_events(fd, events)
        if self.read_paused:
            self._drop_read_interest()


def account_stream(stream: IOStream, budget: Any) -> AccountedIOStream:
    """Turn a freshly accepted plain IOStream into an AccountedIOStream
    reporting to ``budget`` (same object; its class changes), with write
    queues that allocate only when used (:func:`lazy_write_queues`)."""
    assert type(stream) is IOStream, type(stream)
    lazy_write_queues(stream)
    stream.__class__ = AccountedIOStream
    accounted: AccountedIOStream = stream  # type: ignore[assignment]
    accounted.budget = budget
    accounted.recount()
    return accounted


# -- the websocket frame reader -------------------------------------------

#: Tornado's C ``websocket_mask(mask, data)`` when its speedups are built
#: (CPython); None where only its per-byte Python fallback is (PyPy).
native_websocket_mask: Optional[Callable[[bytes, bytes], bytes]] = (
    _websocket_mask if inspect.isbuiltin(_websocket_mask) else None)


class FencedProtocol13(WebSocketProtocol13):
    """WebSocketProtocol13 with its private hooks under public names:
    subclasses implement :meth:`receive_frames`, which :meth:`read_frames`
    runs, in a Task of its own, for as long as the connection is read."""

    #: The Task running read_frames once the connection is open (asyncio
    #: keeps only a weak reference to a Task). A slot, not a key of the
    #: instance dict: CPython shares a dict's keys only up to 30 of them.
    __slots__ = ("frame_reader",)

    async def _receive_frame_loop(self) -> None:
        # Tornado's handshake (_accept_connection) awaits this right after open(), and Tornado's
        # own loop runs until the connection closes: the handshake's coroutines (_accept_connection,
        # accept_connection, and the request handler's _execute), their Task with its done
        # callbacks and the URL's raw groups stayed alive with it, ~1.8 KB per session on CPython
        # 3.11 (server-python/README.md, "Where the bytes go"). The loop runs in a Task of its own
        # instead, and the handshake ends here.
        self.frame_reader = asyncio.ensure_future(self.read_frames())

    async def read_frames(self) -> None:
        """Tornado 6.5's frame loop, with what its callers did with an
        exception from it (``accept_connection``: drop the connection on
        CancelledError or ValueError), except that an unexpected exception,
        which the request handler's ``_execute`` in Tornado only logged, leaving the
        connection unread, is logged the same way and ends it."""
        try:
            await self.receive_frames()
        except StreamClosedError:
            self._abort()
        except asyncio.CancelledError:
            self._abort()
            return
        except ValueError:
            gen_log.debug("Malformed WebSocket request received", exc_info=True)
            self._abort()
            return
        except Exception:
            self.handler.log_exception(*sys.exc_info())
            self._abort()
        self.handler.on_ws_connection_close(self.close_code, self.close_reason)

    async def receive_frames(self) -> None:
        """Read and handle frames until the client's side is closed
        (``client_terminated``); :meth:`read_frames` turns a
        StreamClosedError into an abort and then reports the close."""
        raise NotImplementedError

    def abort(self) -> None:
        """Drop the TCP connection now."""
        self._abort()

    def dispatch_message(self, message: Union[str, bytes]) -> Any:
        """Hand a complete message to the handler's ``on_message``; returns
        its Future (reading waits for it) or None."""
        return self._run_callback(self.handler.on_message, message)

    def handle_control(self, opcode: int, payload: bytes) -> None:
        """Tornado's handling of a valid close, ping or pong frame."""
        self._handle_message(opcode, payload)

    def deflate_negotiated(self) -> bool:
        """True when the upgrade agreed on permessage-deflate."""
        return self._compressor is not None

    def deflate(self, data: bytes) -> bytes:
        """One message's payload compressed as negotiated (RFC 7692 7.2.1: the
        trailing 00 00 ff ff removed), to be sent with RSV1 set."""
        assert self._compressor is not None
        return self._compressor.compress(data)

    def inflate(self, data: bytes) -> bytes:
        """A compressed message's payload inflated; raises ``zlib.error`` on
        bad data and another exception past ``max_message_size``."""
        assert self._decompressor is not None
        return self._decompressor.decompress(data)


# -- what an open websocket handler no longer needs ----------------------------

class UpgradeSummary:
    """What an open websocket handler keeps of its upgrade request: the three
    fields Tornado's ``RequestHandler.log_exception`` prints (its
    ``_request_summary`` and the request's repr) if a callback raises. Nothing
    else reads ``handler.request`` once the handshake is done; the strings are
    the request's own, which the session's ConnectionInfo holds anyway."""

    __slots__ = ("method", "uri", "remote_ip")

    def __init__(self, request: HTTPServerRequest):
        self.method = sys.intern(request.method)  # "GET": one string for all, not one each
        self.uri = request.uri
        self.remote_ip = request.remote_ip

    def __repr__(self) -> str:
        return "%s(method=%r, uri=%r, remote_ip=%r)" % (
            type(self).__name__, self.method, self.uri, self.remote_ip)


class SentHeaders(HTTPHeaders):
    """The response headers of every open websocket handler, one shared set:
    the 101 response went out with the real ones, and Tornado already made
    ``set_header`` raise on such a handler; nothing may add to this set."""

    def __setitem__(self, name: str, value: str) -> None:
        raise RuntimeError("the websocket upgrade response is sent: no header can be added")


SENT_HEADERS = SentHeaders()
NO_KWARGS = types.MappingProxyType({})


def release_upgrade(handler: WebSocketHandler) -> None:
    """Let go of what an open websocket handler holds of its HTTP upgrade and
    never reads again; Tornado keeps it all until the connection closes:

    * ``request``: the request with its headers (two dicts and a list per
      header), the HTTP/1 connection objects (the connection, its server
      side, their context, the finished serving loop's Task) and its argument
      dicts; an :class:`UpgradeSummary` stays;
    * ``_headers``: the 101 response's headers, already sent;
    * ``ui``: the template namespace (a dict and a module namespace that points
      back at the handler), which Tornado drops itself only at close, in case
      a template is rendered; no websocket handler of ours renders one;
    * ``path_args``, ``path_kwargs``, ``open_args``, ``open_kwargs``: the URL's
      groups, decoded, for ``get`` and ``open``, both called by now."""
    handler.request = UpgradeSummary(handler.request)  # type: ignore[assignment]
    handler._headers = SENT_HEADERS
    handler.ui = None  # type: ignore[assignment]
    handler.path_args = handler.path_kwargs = None  # type: ignore[assignment]
    handler.open_args = ()
    handler.open_kwargs = NO_KWARGS  # type: ignore[assignment]


_PARAMS: Dict[Any, _WebSocketParams] = {}


def shared_websocket_params(ping_interval: Optional[float], ping_timeout: Optional[float],
                            max_message_size: int,
                            compression_options: Optional[Dict[str, Any]]) -> _WebSocketParams:
    """The settings object of a websocket connection, as ``WebSocketHandler.
    get_websocket_protocol`` makes it, made once per distinct setting and
    shared: Tornado only reads it (and passes ``compression_options`` on to
    each connection's compressors, which only read it too)."""
    key = (ping_interval, ping_timeout, max_message_size,
           None if compression_options is None else tuple(sorted(compression_options.items())))
    params = _PARAMS.get(key)
    if params is None:
        params = _PARAMS[key] = _WebSocketParams(
            ping_interval=ping_interval, ping_timeout=ping_timeout,
            max_message_size=max_message_size, compression_options=compression_options)
    return params


# -- accepting --------------------------------------------------------------

def add_listener(server: TCPServer, sock: socket.socket, stop_accepting: Callable[[], None]) -> None:
    """Register a listening socket the way ``TCPServer.add_sockets`` does,
    so that ``server.stop()`` calls ``stop_accepting`` and closes it."""
    server._sockets[sock.fileno()] = sock
    server._handlers[sock.fileno()] = stop_accepting


def connection_handler(server: HTTPServer) -> Callable[[socket.socket, Any], None]:
    """What ``server`` does with an accepted socket."""
    return server._handle_connection


# -- logging -----------------------------------------------------------------

class MalformedChunkedBodyFilter(logging.Filter):
    """On ``tornado.general``: turns Tornado's "Uncaught exception" for a
    malformed chunked request body (the ``assert`` in
    ``HTTP1Connection._read_chunked_body``) into one warning line without a
    traceback. Tornado has already closed that one connection; every other
    record passes unchanged."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info
        if not exc or not isinstance(exc[1], AssertionError):
            return True
        tb = exc[2]
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next  # the frame that raised
        if tb is None or tb.tb_frame.f_code.co_name != "_read_chunked_body":
            return True
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.msg, record.args = "closed a connection: malformed chunked request body", None
        record.exc_info, record.exc_text = None, None
        return True


def quiet_malformed_chunked_bodies() -> None:
    """Install :class:`MalformedChunkedBodyFilter` (once) on Tornado's logger."""
    logger = logging.getLogger("tornado.general")
    if not any(isinstance(f, MalformedChunkedBodyFilter) for f in logger.filters):
        logger.addFilter(MalformedChunkedBodyFilter())
