"""What carries frames to a websocket client: the receivers a session
writes to (``protocol/receiver.py``'s interface) over Tornado's stream, one
per kind of connection - pre-built RFC 6455 frames shared by a broadcast
(:class:`WsReceiver`), per-connection compressed frames
(:class:`DeflateWsReceiver`) - and the one checked write under them
(:func:`write_to_stream`). The handlers that make them: ``websocket.py``."""
from __future__ import annotations

from typing import Any, Union

from tornado.iostream import IOStream, StreamClosedError
from tornado.websocket import WebSocketHandler

from ..protocol import wsframes
from ..protocol.errors import ReceiverGone, SlowConsumer
from ..protocol.wsframes import TEXT_HEADERS
from .rfc6455 import StrictProtocol13
from .tornado_private import write_nowait


def write_to_stream(stream: IOStream, frame: bytes, max_buffer: int) -> bool:
    """Write ``frame`` to ``stream``; raise :class:`ReceiverGone` if the
    client has gone, :class:`SlowConsumer` if more than ``max_buffer`` bytes
    (>= 0) are now unsent: straight to the socket when nothing is queued,
    with no Future per write (``tornado_private.write_nowait``). The write of
    hixie-76 and of compressed websockets; :class:`WsReceiver` does the same
    inline."""
    try:
        buffered = write_nowait(stream, frame)
    except StreamClosedError:
        raise ReceiverGone() from None
    if buffered > max_buffer:
        raise SlowConsumer(buffered)
    return True


class WsReceiver:
    """Frames to a Tornado websocket. Writes go straight to the stream as
    pre-built RFC 6455 frames (no per-message Future/Task as with
    ``write_message``), and ``write_prebuilt`` lets a broadcast write the
    same bytes to many connections.

    After each write the stream's unsent bytes are checked against
    ``max_buffer``: a client that stops reading makes the write raise
    :class:`SlowConsumer` (the bytes are queued; the session then closes).

    Both write methods run once per session per flush in fast mode and
    once per copy of every message in naive mode, so each does all its work
    itself, :func:`write_to_stream` written out inline (on CPython every
    call saved is a Python frame per write):

    * the connection and its stream are taken once, at open (Tornado has set
      both by then and never replaces them), not looked up per write;
    * whether the connection still takes frames is what Tornado's
      ``is_closing()`` checks, without its call: our close frame went out
      (``server_terminated``: ``handler.close()``, a ping timeout) or the
      client's came in (``client_terminated``); an abort sets both; the
      stream's closed flag is ``write_nowait``'s own check. Trap: Tornado
      tells a closed connection by ``handler.ws_connection`` becoming None,
      and the object held here never does; every way to that None sets one
      of these flags first (``handler.close()``, ``on_connection_close``)."""

    __slots__ = ("handler", "conn", "stream", "max_buffer")
    wire_format = "rfc6455"

    def __init__(self, handler: WebSocketHandler, max_buffer: int):
        self.handler = handler
        conn = handler.ws_connection
        assert conn is not None and conn.stream is not None, "made at open, once both are set"
        self.conn = conn
        self.stream = conn.stream
        self.max_buffer = max_buffer

    @staticmethod
    def encode_wire(frame: str) -> bytes:
        return wsframes.text_frame(frame.encode("utf-8"))

    def write_prebuilt(self, frame: bytes) -> bool:
        conn = self.conn
        if conn.client_terminated or conn.server_terminated:
            raise ReceiverGone()
        try:
            buffered = write_nowait(self.stream, frame)
        except StreamClosedError:
            raise ReceiverGone() from None
        if buffered > self.max_buffer:
            raise SlowConsumer(buffered)
        return True

    def send_frame(self, frame: Union[str, bytes]) -> bool:
        """Write one frame: a str (every SockJS frame, a raw websocket's text
        message) encoded and headed here, as :meth:`encode_wire` would, then
        written as :meth:`write_prebuilt` does, all in this one call."""
        if isinstance(frame, bytes):  # raw websocket: a binary message echoed
            return self.write_prebuilt(wsframes.binary_frame(frame))
        conn = self.conn
        if conn.client_terminated or conn.server_terminated:
            raise ReceiverGone()
        payload = frame.encode("utf-8")
        n = len(payload)
        wire = TEXT_HEADERS[n] + payload if n < 126 else wsframes.text_frame(payload)
        try:
            buffered = write_nowait(self.stream, wire)
        except StreamClosedError:
            raise ReceiverGone() from None
        if buffered > self.max_buffer:
            raise SlowConsumer(buffered)
        return True

    def close(self, code: int = 1000, reason: str = "Normal closure") -> None:
        self.handler.close(code, reason)


class DeflateWsReceiver:
    """Frames to a Tornado websocket that negotiated permessage-deflate
    (``--compression``, docs/compression.md): every frame is compressed with
    this connection's own zlib context, so it has no ``wire_format`` - no two
    sessions share bytes, and the broadcast hands each session the frame
    string (``batch.Fanout.flush``, ``session.write_shared``) to compress itself. That
    per-session compression is the cost the compression benchmark measures."""

    __slots__ = ("handler", "max_buffer")

    def __init__(self, handler: WebSocketHandler, max_buffer: int):
        self.handler = handler
        self.max_buffer = max_buffer

    def send_frame(self, frame: Union[str, bytes]) -> bool:
        conn = self.handler.ws_connection
        if conn is None or conn.is_closing() or conn.stream is None:
            raise ReceiverGone()
        if isinstance(frame, bytes):  # raw websocket: a binary message echoed, uncompressed
            return write_to_stream(conn.stream, wsframes.binary_frame(frame), self.max_buffer)
        payload = conn.deflate(frame.encode("utf-8"))  # type: ignore[attr-defined]  # StrictProtocol13
        return write_to_stream(conn.stream, wsframes.compressed_text_frame(payload), self.max_buffer)

    def close(self, code: int = 1000, reason: str = "Normal closure") -> None:
        self.handler.close(code, reason)


def receiver_for(handler: WebSocketHandler, max_buffer: int) -> Any:
    """The receiver for an accepted RFC 6455 upgrade: compressed frames when
    the upgrade agreed on permessage-deflate, pre-built shared frames otherwise."""
    conn = handler.ws_connection
    if isinstance(conn, StrictProtocol13) and conn.deflate_negotiated():
        return DeflateWsReceiver(handler, max_buffer)
    return WsReceiver(handler, max_buffer)
