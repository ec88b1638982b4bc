"""Websocket handlers: framed SockJS (``/<server>/<session>/websocket``, RFC
6455 via Tornado or hixie-76 done here), and raw (``/websocket``)."""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Dict, Optional, Union

from tornado.iostream import IOStream, StreamClosedError
from tornado.websocket import WebSocketHandler, WebSocketProtocol

from ..protocol import wsframes
from ..protocol.errors import ReceiverGone, SessionLimitReached
from ..protocol.options import PERMESSAGE_DEFLATE, ConnectionInfo
from ..protocol.service import Service
from .handlers import connection_info, refuse_session
from .rfc6455 import StrictProtocol13
from .shedding import OutputBudget
from .tornado_private import release_upgrade, shared_websocket_params
from .ws_receivers import receiver_for, write_to_stream

log = logging.getLogger("sockbench_server.websocket")

#: Hixie-76 nonce timeout (s) where the connection does not say its header timeout.
NONCE_TIMEOUT_S = 10.0

#: The websocket close of a handshake that passed the session budget's
#: check but found it full when it completed (others completed first while
#: it was in flight): 1013 "Try Again Later" (RFC 6455 registry).
OVER_BUDGET_CLOSE = (1013, "Session limit reached")


class _SockJSWebSocket(WebSocketHandler):
    # Our per-session attributes live in slots, not in the instance __dict__ Tornado's
    # RequestHandler already fills: that dict holds 29 keys once the upgrade is done, and
    # CPython 3.11 keeps an instance dict compact (its keys shared by the class) only up to 30
    # keys; two more made every session's handler carry a full dict of its own (1.6 KB on
    # CPython 3.11: server-python/README.md, "Where the bytes go").
    __slots__ = ("service", "budget", "session", "receiver")
    service: Service
    budget: OutputBudget
    session: Any
    receiver: Any

    def initialize(self, service: Service, budget: OutputBudget) -> None:  # type: ignore[override]
        self.service = service
        self.budget = budget
        self.session = None    # set by open(); on_close may come first
        self.receiver = None

    def on_message(self, message: Union[str, bytes]) -> Optional[Awaitable[None]]:
        # A message the output budget does not admit now waits: returning
        # an awaitable makes Tornado's frame loop wait for it before it
        # reads the next frame (so order is kept, and reading stops).
        budget = self.budget
        cost = budget.admit_now(len(message))
        if cost:
            try:
                self.deliver(message)
            finally:
                budget.release(cost)
            return None
        return self._deliver_later(message)

    async def _deliver_later(self, message: Union[str, bytes]) -> None:
        cost = await self.budget.admit(len(message))
        try:
            self.deliver(message)
        finally:
            self.budget.release(cost)

    #: The transport a session of this handler reports (ConnectionInfo.transport).
    transport = "websocket"

    def open(self, *args: str, **kwargs: str) -> None:
        self.set_nodelay(True)
        self.receiver = receiver_for(self, self.service.options.max_buffer)
        info = connection_info(self, self.transport)
        # Nothing reads the upgrade request or its response after this; Tornado would keep both
        # for the life of the connection (server-python/README.md, "Where the bytes go").
        release_upgrade(self)
        try:
            self.session = self.create_session(info)
        except SessionLimitReached:
            self.close(*OVER_BUDGET_CLOSE)
            return
        self.session.attach(self.receiver)

    def create_session(self, info: ConnectionInfo) -> Any:
        raise NotImplementedError

    def deliver(self, message: Union[str, bytes]) -> None:
        raise NotImplementedError

    def compute_etag(self) -> Optional[str]:
        return None

    def prepare(self) -> None:
        if self.request.method != "GET":
            # 405 with Allow, no Content-Type, no body.
            self.set_status(405)
            self.set_header("Allow", "GET")
            self.clear_header("Content-Type")
            self.finish()

    # get and _handshake are plain functions that return Tornado's handshake coroutine
    # (accept_connection), not coroutines of their own: Tornado awaits what get returns, and that
    # coroutine runs until the connection closes, so every coroutine layered over it would keep its
    # frame, and whatever that frame's locals hold, alive per session for its whole life (~360
    # bytes a frame on CPython 3.11: server-python/README.md, "Where the bytes go"). Tornado's own
    # WebSocketHandler.get is such a coroutine: its frame held the request's headers and a map over
    # the Connection header for as long as the session lived. _handshake does its work instead.
    def get(self, *args: Any, **kwargs: Any) -> Optional[Awaitable[None]]:
        problem = self._upgrade_problem()
        if problem:
            # Both wordings that revisions of the SockJS suite look for:
            # sockjs-node's and Tornado's (sockjs-protocol 0.3.3).
            self.set_status(400)
            self.set_header("Content-Type", "text/plain; charset=UTF-8")
            self.finish("Not a valid websocket request: " + problem)
            return None
        if not self.service.has_room():
            refuse_session(self)  # instead of the upgrade (docs/protocol.md section 7)
            return None
        return self._handshake(*args, **kwargs)

    def _handshake(self, *args: Any, **kwargs: Any) -> Optional[Awaitable[None]]:
        # What Tornado 6.5's WebSocketHandler.get does once get above has checked the Upgrade and
        # Connection headers, less its Origin check: SockJS accepts every origin ("*:*").
        self.open_args = args  # Tornado's handshake passes them to open()
        self.open_kwargs = kwargs
        protocol = self.ws_connection = self.get_websocket_protocol()
        if protocol is None:  # a Sec-WebSocket-Version we do not speak; Tornado finishes the 426
            self.set_status(426, "Upgrade Required")
            self.set_header("Sec-WebSocket-Version", "7, 8, 13")
            return None
        return protocol.accept_connection(self)

    def _upgrade_problem(self) -> Optional[str]:
        headers = self.request.headers
        if headers.get("Upgrade", "").lower() != "websocket":
            return 'Can "Upgrade" only to "WebSocket".'
        connection = [t.strip().lower() for t in headers.get("Connection", "").split(",")]
        if "upgrade" not in connection:
            return '"Connection" must be "Upgrade".'
        return None

    def get_compression_options(self) -> Optional[Dict[str, Any]]:
        # Tornado's hook: {} accepts permessage-deflate with zlib's defaults
        # (level 6, memLevel 8, 32 KiB window) when the client offers it.
        return {} if self.service.options.compression == PERMESSAGE_DEFLATE else None

    def get_websocket_protocol(self) -> Optional[WebSocketProtocol]:
        # Tornado 6.5's own, with the stricter frame reader (rfc6455.py) and one settings object
        # for every connection with the same settings instead of one each.
        if self.request.headers.get("Sec-WebSocket-Version") not in ("7", "8", "13"):
            return None
        params = shared_websocket_params(self.ping_interval, self.ping_timeout,
                                         self.max_message_size, self.get_compression_options())
        return StrictProtocol13(self, False, params)

    def _text(self, message: Union[str, bytes]) -> Optional[str]:
        if isinstance(message, bytes):
            try:
                return message.decode("utf-8")
            except UnicodeDecodeError:
                self.close(1007, "Invalid UTF-8")
                return None
        return message

    def on_close(self) -> None:
        if self.session is not None:
            self.session.receiver_gone(self.receiver)


class FramedWebSocketHandler(_SockJSWebSocket):
    def _handshake(self, *args: Any, **kwargs: Any) -> Optional[Awaitable[None]]:
        headers = self.request.headers
        if "Sec-WebSocket-Key1" in headers and "Sec-WebSocket-Version" not in headers:
            self._hixie76()
            return None
        return super()._handshake(*args, **kwargs)

    def create_session(self, info: ConnectionInfo) -> Any:
        return self.service.create(None, info)

    def deliver(self, message: Union[str, bytes]) -> None:
        text = self._text(message)
        if text is not None and self.session is not None:
            self.session.receive_ws_text(text)

    def _hixie76(self) -> None:
        headers = self.request.headers
        origin = headers.get("Origin", "")
        location = "ws://" + self.request.host + self.request.uri
        # The header timeout (--header-timeout) bounds the nonce too: a
        # client that sends the headers and never the 8 bytes is as slow as
        # one that never finishes its headers.
        params = getattr(self.request.connection, "params", None)  # HTTP1Connection's, public
        timeout = getattr(params, "header_timeout", None) or NONCE_TIMEOUT_S
        stream = self.detach()
        conn = Hixie76Connection(stream, self.service, info=connection_info(self, "websocket"),
                                 budget=self.budget, nonce_timeout=timeout)
        stream.io_loop.add_callback(conn.run, headers.get("Sec-WebSocket-Key1", ""),
                                    headers.get("Sec-WebSocket-Key2", ""), origin, location)


class RawWebSocketHandler(_SockJSWebSocket):
    transport = "websocket-raw"

    def create_session(self, info: ConnectionInfo) -> Any:
        return self.service.create_raw(info)

    def deliver(self, message: Union[str, bytes]) -> None:
        session = self.session
        if session is None:
            return
        if isinstance(message, bytes) and getattr(session.conn, "binary_messages", False):
            session.receive_ws_text(message)  # the application takes bytes as is
            return
        text = self._text(message)
        if text is not None:
            session.receive_ws_text(text)


class Hixie76Connection:
    """A framed SockJS session over hixie-76, on a detached stream.

    Response headers go out before the client's 8-byte nonce is read (the
    order HAProxy needs); then the 16-byte answer, then 0x00...0xFF frames.
    """

    def __init__(self, stream: IOStream, service: Service, info: Any, budget: OutputBudget,
                 nonce_timeout: float = NONCE_TIMEOUT_S):
        """``nonce_timeout``: seconds the client may take to send its 8-byte
        nonce after the headers (> 0)."""
        self.nonce_timeout = nonce_timeout
        self.stream = stream
        self.service = service
        self.budget = budget
        self.info = info
        self.session: Any = None
        self.closed = False

    async def run(self, key1: str, key2: str, origin: str, location: str) -> None:
        stream = self.stream
        try:
            stream.set_nodelay(True)
            stream.write(wsframes.hixie76_response_head(origin, location))
            nonce = await asyncio.wait_for(stream.read_bytes(8), self.nonce_timeout)
            stream.write(wsframes.hixie76_challenge(key1, key2, nonce))
        except wsframes.HandshakeError as e:
            log.warning("%s: bad hixie-76 handshake: %s", self.service.prefix, e)
            stream.close()
            return
        except StreamClosedError:
            return
        except asyncio.TimeoutError:
            stream.close()  # a half-open handshake: as Tornado does with slow headers, no line
            return
        try:
            self.session = self.service.create(None, self.info)
        except SessionLimitReached:
            stream.close()
            return
        self.session.attach(self)
        decoder = wsframes.Hixie76Decoder()
        try:
            while not self.closed:
                data = await stream.read_bytes(65536, partial=True)
                for text in decoder.feed(data):
                    cost = self.budget.admit_now(len(text))
                    if not cost:  # over the output budget: wait
                        cost = await self.budget.admit(len(text))
                    try:
                        self.session.receive_ws_text(text)
                    finally:
                        self.budget.release(cost)
                    if self.closed:
                        break
                if decoder.closed:
                    self.close()
        except StreamClosedError:
            pass
        self.closed = True
        self.session.receiver_gone(self)

    # -- receiver interface ----------------------------------------------

    wire_format = "hixie76"
    encode_wire = staticmethod(wsframes.hixie76_frame)

    def write_prebuilt(self, frame: bytes) -> bool:
        if self.closed:
            raise ReceiverGone()
        return write_to_stream(self.stream, frame, self.service.options.max_buffer)

    def send_frame(self, frame: str) -> bool:
        return self.write_prebuilt(wsframes.hixie76_frame(frame))

    def close(self, code: int = 1000, reason: str = "Normal closure") -> None:
        if self.closed:
            return
        self.closed = True
        stream = self.stream
        try:
            stream.write(wsframes.HIXIE76_CLOSE).add_done_callback(
                lambda f: (f.exception(), stream.close()))
        except StreamClosedError:
            pass
