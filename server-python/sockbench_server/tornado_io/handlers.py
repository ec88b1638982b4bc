"""Thin Tornado handlers for the SockJS session URLs (the fixed pages are in pages.py).

Each handler maps one URL to the sans-I/O core: it sets the headers the
protocol module prescribes, turns the request into session calls and gives
the session a receiver that writes to this response.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Optional, Tuple
from urllib.parse import parse_qs

from tornado.httputil import responses
from tornado.web import RequestHandler

from ..protocol import transports as tp
from ..protocol.errors import (SESSION_LIMIT_BODY, SESSION_LIMIT_RETRY_AFTER,
                               SESSION_LIMIT_STATUS, WEBSOCKET_ONLY_CLOSE, SlowConsumer)
from ..protocol.frames import BadPayload, close_frame, decode_body, decode_messages
from ..protocol.options import ConnectionInfo
from ..protocol.service import Service
from .shedding import OutputBudget
from .tornado_private import unsent_bytes

log = logging.getLogger("sockbench_server.http")

#: Request headers an application may see (sockjs-node's list).
VISIBLE_HEADERS = ("referer", "x-client-ip", "x-forwarded-for", "x-cluster-client-ip",
                   "via", "x-real-ip", "x-forwarded-proto", "x-ssl", "dnt", "host",
                   "user-agent", "accept-language", "x-forwarded-host", "x-forwarded-port")


def connection_info(handler: RequestHandler, transport: str) -> ConnectionInfo:
    req = handler.request
    headers = {}
    for name in VISIBLE_HEADERS:
        value = req.headers.get(name)
        if value is not None:
            headers[name] = value
    return ConnectionInfo(remote_ip=req.remote_ip, path=req.path, headers=headers,
                          transport=transport)


def refuse_session(handler: RequestHandler) -> None:
    """The answer to a request that would create a session beyond the
    session budget (docs/protocol.md section 7), on every transport."""
    handler.set_status(SESSION_LIMIT_STATUS)
    handler.set_header("Content-Type", "text/plain; charset=UTF-8")
    handler.set_header("Retry-After", str(SESSION_LIMIT_RETRY_AFTER))
    handler.set_header("Cache-Control", tp.NO_CACHE)
    handler.finish(SESSION_LIMIT_BODY)


class SockJSHandler(RequestHandler):
    """Common behaviour: method check with SockJS-style 405, no automatic
    ETags, plain-text errors, CORS / cache / cookie helpers."""

    methods: Tuple[str, ...] = ("GET",)
    service: Service
    budget: OutputBudget

    def initialize(self, service: Service, budget: OutputBudget) -> None:  # type: ignore[override]
        self.service = service
        self.budget = budget

    def compute_etag(self) -> Optional[str]:
        return None

    def prepare(self) -> None:
        if self.request.method not in self.methods:
            self.method_not_allowed()

    def method_not_allowed(self) -> None:
        # The suite wants 405 with Allow, no Content-Type and no body.
        self.set_status(405)
        self.set_header("Allow", ", ".join(self.methods))
        self.clear_header("Content-Type")
        self.finish()

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if status_code == 405:
            self.set_header("Allow", ", ".join(self.methods))
            self.clear_header("Content-Type")
            self.finish()
            return
        self.set_header("Content-Type", "text/plain; charset=UTF-8")
        self.finish("%d %s" % (status_code, responses.get(status_code, "Unknown")))

    def sockjs_error(self, status: int, text: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/plain; charset=UTF-8")
        self.finish(text)

    def not_found(self) -> None:
        self.sockjs_error(404, "404 Error: Page Not Found")

    def add_headers(self, headers: tp.Headers) -> None:
        for name, value in headers:
            self.set_header(name, value)

    def cors(self) -> None:
        h = self.request.headers
        self.add_headers(tp.cors_headers(h.get("Origin"), h.get("Access-Control-Request-Headers")))

    def no_cache(self) -> None:
        self.set_header("Cache-Control", tp.NO_CACHE)

    def jsessionid(self) -> None:
        if self.service.options.cookie_needed:
            name, value = tp.jsessionid_header(self.get_cookie("JSESSIONID"))
            self.set_header(name, value)

    def preflight(self, methods: str) -> None:
        """Answer a CORS preflight (OPTIONS): 204, cacheable for a year."""
        self.set_status(204)
        self.add_headers(tp.options_headers(time.time(), methods))
        self.cors()
        self.finish()

    def respond_204(self, content_type: str) -> None:
        """204 that keeps its Content-Type (Tornado drops representation
        headers of a 204 unless the headers were flushed first)."""
        self.set_status(204)
        self.set_header("Content-Type", content_type)
        self.flush()
        self.finish()


class TornadoHttpReceiver(tp.HttpReceiver):
    """Writes wrapped frames to one Tornado response; ``done`` resolves when
    the response is over, whoever ended it. A streaming response whose
    connection holds more than ``max_buffer`` unsent bytes after a write
    raises :class:`SlowConsumer` (the session then closes with 1008)."""

    __slots__ = ("handler", "done", "max_buffer")

    def __init__(self, handler: "ReceivingHandler", framing: tp.Framing, limit: int,
                 max_buffer: int):
        super().__init__(framing, limit)
        self.handler = handler
        self.max_buffer = max_buffer
        self.done: "asyncio.Future[None]" = asyncio.get_running_loop().create_future()

    def write(self, data: str) -> None:
        h = self.handler
        h.write(data)
        if self.framing.streaming:
            h.flush()
            stream = getattr(h.request.connection, "stream", None)
            if stream is not None:
                buffered = unsent_bytes(stream)
                if buffered > self.max_buffer:
                    raise SlowConsumer(buffered)
        # Polling responses end right after their one frame: finish() sends
        # it with a Content-Length instead of as a chunk.

    def finish(self) -> None:
        h = self.handler
        try:
            fut = h.finish()
        except Exception:  # the connection went away under us
            fut = None
        if fut is not None and h.request.version == "HTTP/1.0" and self.framing.streaming:
            # HTTP/1.0 has no chunking: the end of a streaming body is
            # the end of the connection, whatever keep-alive asked for.
            connection = h.request.connection
            fut.add_done_callback(lambda f: (f.exception(), connection.close()))  # type: ignore[union-attr]
        if not self.done.done():
            self.done.set_result(None)

    def aborted(self) -> None:
        self.closed = True
        if not self.done.done():
            self.done.set_result(None)


class ReceivingHandler(SockJSHandler):
    """Base of the transports that carry frames to the client."""

    receiver: Optional[TornadoHttpReceiver] = None
    session: Any = None
    client_gone = False

    async def run_receiver(self, session_id: str, framing: tp.Framing) -> None:
        svc = self.service
        if self.client_gone:
            # The client left between sending the request and this handler
            # running: attaching would leave the session a dead receiver.
            return
        session = svc.lookup(session_id)
        if session is None and not svc.options.websocket_only and not svc.has_room():
            refuse_session(self)  # before any prelude: the client sees a plain 503
            return
        if framing.streaming:
            stream = getattr(self.request.connection, "stream", None)
            if stream is not None:
                stream.set_nodelay(True)
            if self.request.version == "HTTP/1.0":
                # The body ends with the connection: say so, and keep Tornado
                # from answering a keep-alive request with "Keep-Alive".
                self.request.headers["Connection"] = "close"
                self.set_header("Connection", "close")
            if framing.prelude:
                self.write(framing.prelude)
                self.flush()
        if svc.options.websocket_only:
            # Several workers: no HTTP sessions. A SockJS client reads this
            # close frame as "closed by the server, and why" (it then tries
            # no other transport of this session).
            self.finish(framing.wrap(close_frame(svc.codec, *WEBSOCKET_ONLY_CLOSE)))
            return
        if session is None:
            # No await since has_room() above: the room is still there.
            session = svc.create(session_id, connection_info(self, framing.name))
        receiver = self.receiver = TornadoHttpReceiver(
            self, framing, limit=svc.options.response_limit, max_buffer=svc.options.max_buffer)
        self.session = session
        session.attach(receiver)
        if not receiver.closed:
            await receiver.done

    def on_connection_close(self) -> None:
        self.client_gone = True
        r = self.receiver
        if r is not None and not r.closed:
            r.aborted()
            self.session.receiver_gone(r)


class PostPreflight:
    """OPTIONS answer of the POST transports (xhr, xhr_streaming, xhr_send)."""

    def options(self: SockJSHandler, server_id: str, session_id: str) -> None:  # type: ignore[misc]
        self.jsessionid()
        self.preflight("OPTIONS, POST")


class XhrPollingHandler(PostPreflight, ReceivingHandler):
    methods = ("POST", "OPTIONS")
    framing: tp.Framing = tp.XHR

    async def post(self, server_id: str, session_id: str) -> None:
        self.set_header("Content-Type", "application/javascript; charset=UTF-8")
        self.no_cache()
        self.jsessionid()
        self.cors()
        await self.run_receiver(session_id, self.framing)


class XhrStreamingHandler(XhrPollingHandler):
    framing = tp.XHR_STREAMING


class EventSourceHandler(ReceivingHandler):
    async def get(self, server_id: str, session_id: str) -> None:
        self.set_header("Content-Type", "text/event-stream")
        self.no_cache()
        self.jsessionid()
        self.cors()
        await self.run_receiver(session_id, tp.EVENTSOURCE)


class CallbackHandler(ReceivingHandler):
    def callback(self) -> Optional[str]:
        raw = self.get_query_argument("c", None, strip=False)
        if raw is None:
            raw = self.get_query_argument("callback", None, strip=False)
        try:
            return tp.check_callback(raw)
        except tp.CallbackError as e:
            self.sockjs_error(500, str(e))
            return None


class HtmlFileHandler(CallbackHandler):
    async def get(self, server_id: str, session_id: str) -> None:
        callback = self.callback()
        if callback is None:
            return
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.no_cache()
        self.jsessionid()
        await self.run_receiver(session_id, tp.HtmlFile(callback))


class JsonpPollingHandler(CallbackHandler):
    async def get(self, server_id: str, session_id: str) -> None:
        callback = self.callback()
        if callback is None:
            return
        self.set_header("Content-Type", "application/javascript; charset=UTF-8")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.no_cache()
        self.jsessionid()
        await self.run_receiver(session_id, tp.JsonpPolling(callback))


class SendHandler(SockJSHandler):
    """Shared part of xhr_send and jsonp_send: decode, find, deliver."""

    methods = ("POST",)
    transport = ""

    def payload_text(self) -> str:
        return decode_body(self.request.body)

    async def deliver(self, session_id: str) -> bool:
        """False if an error response was sent instead. While the process is
        over its output budget the messages wait (and so does the client)."""
        svc = self.service
        if svc.options.websocket_only:  # several workers: no HTTP sessions to send to
            self.not_found()
            return False
        budget = self.budget
        cost = budget.admit_now(len(self.request.body))
        if not cost:
            cost = await budget.admit(len(self.request.body))
        try:
            return self.deliver_admitted(session_id)
        finally:
            budget.release(cost)

    def deliver_admitted(self, session_id: str) -> bool:
        """:meth:`deliver` once the output budget admitted the body."""
        svc = self.service
        try:
            messages = decode_messages(svc.codec, self.payload_text())
        except BadPayload as e:
            log.warning("%s: %s rejected (%d bytes): %s", svc.prefix, self.transport,
                        len(self.request.body), e)
            self.sockjs_error(500, str(e))
            return False
        session = svc.lookup(session_id)
        if session is None:
            self.not_found()
            return False
        session.receive(messages)
        return True


class XhrSendHandler(PostPreflight, SendHandler):
    methods = ("POST", "OPTIONS")
    transport = "xhr_send"

    async def post(self, server_id: str, session_id: str) -> None:
        self.no_cache()
        self.jsessionid()
        self.cors()
        if await self.deliver(session_id):
            # Firefox treats a 204 without Content-Type as XML and complains.
            self.respond_204("text/plain; charset=UTF-8")


class JsonpSendHandler(SendHandler):
    transport = "jsonp_send"

    def payload_text(self) -> str:
        ctype = self.request.headers.get("Content-Type", "").split(";")[0].strip().lower()
        text = decode_body(self.request.body)
        if ctype == "application/x-www-form-urlencoded":
            values = parse_qs(text, keep_blank_values=True).get("d")
            return values[0] if values else ""
        return text

    async def post(self, server_id: str, session_id: str) -> None:
        self.no_cache()
        self.jsessionid()
        if await self.deliver(session_id):
            # 200 "ok" rather than 204: Konqueror mishandles 204 here.
            self.set_header("Content-Type", "text/plain; charset=UTF-8")
            self.finish("ok")
