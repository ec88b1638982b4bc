"""SockJS sessions without I/O.

A :class:`Session` is the protocol state of one SockJS connection: its state
(connecting, open, closing, closed), its outgoing queue of encoded messages,
the one *receiver* currently attached (an HTTP response or a websocket that
can carry frames to the client), and its single timer, which is either the
heartbeat timer (a receiver is attached) or the disconnect timer (none is).

Everything that touches the network is behind two small interfaces the I/O
layer implements (see ``tornado_io``) and tests fake:

* a receiver: ``send_frame(frame) -> bool`` (can it take more frames?) and
  ``close(code, reason)``;
* :class:`Timers`: ``time()``, ``call_at(when, callback)``, ``cancel(handle)``,
  ``call_soon(callback)`` (run at the end of this loop iteration).

The behaviour follows sockjs-node 0.3.24 where the suite leaves room: an
aborted receiving connection ends its session at once, a second receiver
gets ``c[2010,"Another connection still open"]``, and a closed session keeps
answering with its close frame until ``disconnect_delay`` has passed.
"""
from __future__ import annotations

import logging
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, List,
                    Optional, Set, Tuple)

from . import frames
from .codecs import Codec
from .fanout import NO_SLICE, Fanout
from .transports import DEFAULT_SOCKJS_URL

if TYPE_CHECKING:  # pragma: no cover
    from typing import Protocol

    class Receiver(Protocol):
        def send_frame(self, frame: str) -> bool: ...
        def close(self, code: int = 1000, reason: str = "Normal closure") -> None: ...

    class Timers(Protocol):
        def time(self) -> float: ...
        def call_at(self, when: float, callback: Callable[[], None]) -> Any: ...
        def cancel(self, handle: Any) -> None: ...
        def call_soon(self, callback: Callable[[], None]) -> None: ...

log = logging.getLogger("sockbench_server.session")

CONNECTING, OPEN, CLOSING, CLOSED = 0, 1, 2, 3
STATE_NAMES = ("connecting", "open", "closing", "closed")

class ReceiverGone(Exception):
    """Raised by a receiver whose connection is already closed; the session
    then treats it like :meth:`Session.receiver_gone` (no error logged)."""


class SlowConsumer(Exception):
    """Raised by a receiver *after* a write that left more than the
    session's ``max_buffer`` bytes unsent (the client is not reading). The
    session then closes itself (:data:`SLOW_CONSUMER_CLOSE`) and logs one line."""

    def __init__(self, buffered: int):
        super().__init__(buffered)
        self.buffered = buffered


#: Close code and reason for a session closed because its client stopped
#: reading (1008 = "policy violation" in RFC 6455; framed sessions get it in
#: ``c[...]``, raw websockets in the close frame).
SLOW_CONSUMER_CLOSE = (1008, "Client not reading")
#: Default cap of one session's unsent output (bytes): 16 MiB.
DEFAULT_MAX_BUFFER = 16 * 1024 * 1024


# Timer decisions.
WAIT = "wait"
SEND_HEARTBEAT = "heartbeat"
EXPIRE = "expire"


def timer_decision(now: float, attached: bool, last_output: float, heartbeat: float,
                   detached_at: float, disconnect_delay: float) -> Tuple[str, Optional[float]]:
    """What a session's timer should do at ``now``.

    With a receiver attached the timer is the heartbeat: an ``h`` frame is
    due ``heartbeat`` seconds after the last output. Without one it is the
    disconnect timer: the session expires ``disconnect_delay`` seconds after
    its last receiver left. Returns ``(action, next_deadline)``; the deadline
    is set only for :data:`WAIT`.
    """
    if attached:
        due = last_output + heartbeat
        return (SEND_HEARTBEAT, None) if now >= due else (WAIT, due)
    due = detached_at + disconnect_delay
    return (EXPIRE, None) if now >= due else (WAIT, due)


class ServiceOptions:
    """Options of one SockJS service (one URL prefix)."""

    __slots__ = ("websocket", "cookie_needed", "response_limit", "heartbeat",
                 "disconnect_delay", "sockjs_url", "max_buffer")

    def __init__(self, websocket: bool = True, cookie_needed: bool = False,
                 response_limit: int = 128 * 1024, heartbeat: float = 25.0,
                 disconnect_delay: float = 5.0, sockjs_url: str = DEFAULT_SOCKJS_URL,
                 max_buffer: int = DEFAULT_MAX_BUFFER):
        """``response_limit``: bytes of frames per streaming response (> 0);
        ``heartbeat``, ``disconnect_delay``: seconds (> 0); ``max_buffer``:
        bytes of unsent output one session may hold - its own queue plus
        what its connection's stream has not written yet - before it is
        closed as a slow consumer (> 0)."""
        if heartbeat <= 0 or disconnect_delay <= 0 or response_limit <= 0 or max_buffer <= 0:
            raise ValueError("heartbeat, disconnect_delay, response_limit and max_buffer "
                             "must be > 0")
        self.max_buffer = max_buffer
        self.websocket = websocket
        self.cookie_needed = cookie_needed
        self.response_limit = response_limit
        self.heartbeat = heartbeat
        self.disconnect_delay = disconnect_delay
        self.sockjs_url = sockjs_url


class ConnectionInfo:
    """What an application may know about a connection (never its session id)."""

    __slots__ = ("remote_ip", "path", "headers", "transport")

    def __init__(self, remote_ip: Optional[str], path: str,
                 headers: Dict[str, str], transport: str):
        self.remote_ip = remote_ip
        self.path = path
        self.headers = headers
        self.transport = transport

    def __repr__(self) -> str:  # pragma: no cover
        return "<ConnectionInfo %s %s via %s>" % (self.remote_ip, self.path, self.transport)


class Service:
    """One SockJS application mounted at a prefix: its options, codec,
    application class and the registry of its sessions."""

    def __init__(self, prefix: str, connection_class: Callable[[Any], Any],
                 options: ServiceOptions, codec: Codec, timers: "Timers"):
        self.prefix = prefix
        self.connection_class = connection_class
        self.options = options
        self.codec = codec
        self.timers = timers
        #: HTTP-transport sessions by session id.
        self.sessions: Dict[str, Session] = {}
        #: Every session that is not closed yet, websocket ones included.
        self.live: "Set[Any]" = set()
        #: Coalesces the broadcasts of one loop iteration (fast mode).
        self.fanout = Fanout(self, timers)
        self.close_2010 = frames.close_frame(codec, 2010, "Another connection still open")

    def lookup(self, session_id: str) -> "Optional[Session]":
        return self.sessions.get(session_id)

    def create(self, session_id: Optional[str], info: ConnectionInfo) -> "Session":
        """A new session; with an id it is registered for the HTTP transports,
        without one (websocket) it lives exactly as long as its connection."""
        session = Session(self, session_id, info)
        if session_id is not None:
            self.sessions[session_id] = session
        self.live.add(session)
        return session

    def create_raw(self, info: ConnectionInfo) -> "RawSession":
        session = RawSession(self, info)
        self.live.add(session)
        return session

    def shutdown(self) -> None:
        """Close every session (SIGTERM): ``c[3000,"Go away!"]``, raw 1001."""
        for session in list(self.live):
            session.shutdown()

    def _forget(self, session: Any) -> None:
        self.live.discard(session)
        sid = getattr(session, "id", None)
        if sid is not None and self.sessions.get(sid) is session:
            del self.sessions[sid]


def _call_app(session: Any, method: str, *args: Any) -> None:
    try:
        getattr(session.conn, method)(*args)
    except Exception:
        log.exception("application error in %s.%s", type(session.conn).__name__, method)


class Session:
    """A framed SockJS session (all transports except raw websocket)."""

    #: Messages travel JSON-encoded inside a[...] frames.
    framed = True
    __slots__ = ("service", "id", "state", "conn", "receiver", "queue", "close_frame",
                 "info", "last_output", "detached_at", "_timer", "_notified",
                 "batch_from", "batch_to", "queue_bytes", "queue_counted", "__weakref__")

    def __init__(self, service: Service, session_id: Optional[str], info: ConnectionInfo):
        self.service = service
        self.id = session_id
        self.state = CONNECTING
        self.receiver: Optional["Receiver"] = None
        #: Encoded JSON string literals waiting for a receiver.
        self.queue: List[str] = []
        self.close_frame: Optional[str] = None
        self.info = info
        now = service.timers.time()
        self.last_output = now
        self.detached_at = now
        self._timer: Any = None
        self._notified = False
        #: This session's slice of the current fan-out batch (fanout.py).
        self.batch_from = 0
        self.batch_to = NO_SLICE
        #: Bytes of ``queue[:queue_counted]``, for the ``max_buffer`` cap.
        self.queue_bytes = 0
        self.queue_counted = 0
        self.conn = service.connection_class(self)
        self._arm()

    # -- application side --------------------------------------------------

    def send(self, message: str) -> bool:
        """Queue one message (a str) and flush it if a receiver is attached.
        False if the session is not open (or turned out to be gone)."""
        if self.state != OPEN:
            return False
        if self.batch_to >= 0:  # older broadcasts of this iteration go first
            self.service.fanout.detach(self)
        self.queue.append(self.service.codec.encode_str(message))
        self.flush()
        return self.state == OPEN  # False if the write found it gone

    def send_encoded(self, fragment: str) -> bool:
        """Like :meth:`send` for a message already encoded as a JSON string
        literal (``'"hi"'``), so a broadcast can encode once for everyone."""
        if self.state != OPEN:
            return False
        if self.batch_to >= 0:
            self.service.fanout.detach(self)
        self.queue.append(fragment)
        self.flush()
        return self.state == OPEN

    def enqueue_encoded(self, fragment: str) -> bool:
        """Queue an encoded message without flushing; call :meth:`flush`
        later to put everything queued into one ``a[...]`` frame."""
        if self.state != OPEN:
            return False
        if self.batch_to >= 0:
            self.service.fanout.detach(self)
        self.queue.append(fragment)
        return True

    def flush(self) -> None:
        """Write the queued messages as one ``a[...]`` frame if a receiver
        is attached; otherwise hold them, up to ``max_buffer`` bytes."""
        queue = self.queue
        if not queue:
            return
        if self.receiver is not None:
            self.queue = []
            self.queue_bytes = self.queue_counted = 0
            self._write(frames.message_frame(queue))
            return
        # Count only what was added since the last check: a session nobody
        # polls may gather many messages before it expires.
        n = len(queue)
        if n > self.queue_counted:
            self.queue_bytes += sum(map(len, queue[self.queue_counted:]))
            self.queue_counted = n
            if self.queue_bytes > self.service.options.max_buffer:
                self._slow_consumer(self.queue_bytes)

    def write_shared(self, frame: str, wire_cache: Dict[Any, bytes]) -> None:
        """Write ``frame``, which other sessions send too. A receiver with a
        ``wire_format`` (websockets) gets the bytes built once per format and
        kept in ``wire_cache``; others get the frame string."""
        r = self.receiver
        fmt = getattr(r, "wire_format", None)
        if fmt is None:
            self._write(frame)
            return
        wire = wire_cache.get(fmt)
        if wire is None:
            wire = wire_cache[fmt] = r.encode_wire(frame)  # type: ignore[union-attr]
        self._write(frame, wire)

    def close(self, code: int = 3000, reason: str = "Go away!",
              connection_close: Optional[Tuple[int, str]] = None) -> bool:
        """Close the session with ``c[code,"reason"]``; ``on_close`` runs now,
        later requests get the same close frame until the session expires.
        ``connection_close``: the (code, reason) a websocket carrying the
        session closes with (default: its receiver's own, 1000)."""
        if self.state >= CLOSING:
            return False
        if self.batch_to != NO_SLICE and self.receiver is not None:
            # Broadcasts of this iteration still waiting in the batch were
            # sent before the close: they go first, as in naive mode.
            self.service.fanout.detach(self)
            self.flush()
            if self.state >= CLOSING:  # the flush found the client gone
                return False
        self.state = CLOSING
        self.queue = []
        self.queue_bytes = self.queue_counted = 0
        self.close_frame = frames.close_frame(self.service.codec, code, reason)
        r = self.receiver
        if r is not None:
            self.receiver = None
            self.detached_at = self.service.timers.time()
            try:
                r.send_frame(self.close_frame)
            except (ReceiverGone, SlowConsumer):
                pass
            except Exception:
                log.exception("writing close frame failed")
            if connection_close is None:
                r.close()
            else:
                r.close(*connection_close)
        if self.id is None:
            self._end()
        else:
            self._arm()
            self._notify_closed()
        return True

    def shutdown(self) -> None:
        self.close(3000, "Go away!")

    @property
    def is_open(self) -> bool:
        return self.state == OPEN

    # -- transport side ----------------------------------------------------

    def attach(self, receiver: "Receiver") -> None:
        """A request (or websocket) that can carry frames to the client."""
        if self.receiver is not None:
            receiver.send_frame(self.service.close_2010)
            receiver.close()
            return
        if self.state >= CLOSING:
            keep = True
            if self.queue:
                fragments, self.queue = self.queue, []
                keep = receiver.send_frame(frames.message_frame(fragments))
            if keep:
                receiver.send_frame(self.close_frame or "")
            receiver.close()
            self.detached_at = self.service.timers.time()
            self._arm()
            return
        self._cancel_timer()
        self.receiver = receiver
        if self.state == CONNECTING:
            self.state = OPEN
            self._write(frames.OPEN)
            _call_app(self, "on_open", self.info)
        else:
            self.flush()
        if self.receiver is receiver:
            self._arm()

    def receiver_gone(self, receiver: "Receiver") -> None:
        """The connection of ``receiver`` went away without being asked to
        (client abort, network error, websocket closed by the peer). As in
        sockjs-node this ends the session at once."""
        if receiver is not self.receiver:
            return
        self.receiver = None
        self._end()

    def receive(self, messages: Iterable[str]) -> None:
        """Messages from the client, already decoded."""
        if self.state != OPEN:
            return
        on_message = self.conn.on_message
        for message in messages:
            try:
                on_message(message)
            except Exception:
                log.exception("application error in %s.on_message", type(self.conn).__name__)
            if self.state != OPEN:
                break

    def receive_ws_text(self, text: str) -> None:
        """One text message from a framed websocket; bad input closes it."""
        if self.state != OPEN:
            return
        try:
            messages = frames.decode_ws_messages(self.service.codec, text)
        except frames.BadPayload as e:
            log.warning("%s: closing websocket session: %s (%d bytes)",
                        self.service.prefix, e, len(text))
            r = self.receiver
            if r is not None:
                self.receiver = None
                r.close(3000, "Broken framing.")
            self._end()
            return
        if messages:
            self.receive(messages)

    # -- internals ---------------------------------------------------------

    def _slow_consumer(self, buffered: int) -> None:
        limit = self.service.options.max_buffer
        log.warning("%s: closing session: client not reading (%d bytes unsent, limit %d)",
                    self.service.prefix, buffered, limit)
        self.close(*SLOW_CONSUMER_CLOSE, connection_close=SLOW_CONSUMER_CLOSE)

    def _write(self, frame: str, wire: Optional[bytes] = None) -> None:
        """Write one frame (``wire``: its bytes, pre-built for this
        receiver's wire format) and handle what the receiver answers."""
        r = self.receiver
        assert r is not None
        try:
            keep = r.send_frame(frame) if wire is None else r.write_prebuilt(wire)  # type: ignore[union-attr]
        except Exception as e:
            self.write_failed(r, e)
            return
        now = self.service.timers.time()
        self.last_output = now
        if not keep and self.receiver is r:
            self.receiver = None
            self.detached_at = now
            r.close()
            if self.id is None:
                self._end()
            else:
                self._arm()

    def write_failed(self, r: "Receiver", e: Exception) -> None:
        """A write to ``r`` raised ``e``: a slow consumer is closed, a
        vanished connection ends the session, anything else is logged too."""
        if isinstance(e, SlowConsumer):
            self.last_output = self.service.timers.time()
            self._slow_consumer(e.buffered)
        elif isinstance(e, ReceiverGone):
            self.receiver_gone(r)
        else:
            log.error("writing to %s failed", type(r).__name__, exc_info=e)
            self.receiver_gone(r)

    def _on_timer(self) -> None:
        self._timer = None
        if self.state == CLOSED:
            return
        opts = self.service.options
        action, when = timer_decision(self.service.timers.time(), self.receiver is not None,
                                      self.last_output, opts.heartbeat,
                                      self.detached_at, opts.disconnect_delay)
        if action == SEND_HEARTBEAT:
            self._write(frames.HEARTBEAT)
            if self.receiver is not None:
                self._arm()
        elif action == EXPIRE:
            self._end()
        else:
            assert when is not None
            self._timer = self.service.timers.call_at(when, self._on_timer)

    def _arm(self) -> None:
        """(Re)start the one timer for the current situation."""
        self._cancel_timer()
        if self.state == CLOSED:
            return
        opts = self.service.options
        if self.receiver is not None:
            when = self.last_output + opts.heartbeat
        else:
            when = self.detached_at + opts.disconnect_delay
        self._timer = self.service.timers.call_at(when, self._on_timer)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self.service.timers.cancel(self._timer)
            self._timer = None

    def _end(self) -> None:
        """The session is gone: forget it and tell the application."""
        if self.state == CLOSED:
            return
        self.state = CLOSED
        self._cancel_timer()
        self.queue = []
        self.service._forget(self)
        self._notify_closed()

    def _notify_closed(self) -> None:
        if not self._notified:
            self._notified = True
            _call_app(self, "on_close")

    def __repr__(self) -> str:  # pragma: no cover
        return "<Session %s %s>" % (self.id, STATE_NAMES[self.state])


class RawSession:
    """A raw websocket connection (``<prefix>/websocket``): no SockJS framing,
    no heartbeats; every text message is one application message."""

    __slots__ = ("service", "state", "conn", "receiver", "info", "_notified", "__weakref__")
    id = None
    #: Messages travel as plain websocket text.
    framed = False

    def __init__(self, service: Service, info: ConnectionInfo):
        self.service = service
        self.state = CONNECTING
        self.receiver: Optional["Receiver"] = None
        self.info = info
        self._notified = False
        self.conn = service.connection_class(self)

    def attach(self, receiver: "Receiver") -> None:
        self.receiver = receiver
        self.state = OPEN
        _call_app(self, "on_open", self.info)

    def send(self, message: str) -> bool:
        return self._send(message, None)

    def send_shared(self, message: str, wire_cache: Dict[Any, bytes]) -> bool:
        """Like :meth:`send` for a message other connections get too: the
        wire bytes are built once per format and kept in ``wire_cache``."""
        r = self.receiver
        fmt = getattr(r, "wire_format", None)
        if fmt is None:
            return self._send(message, None)
        wire = wire_cache.get(fmt)
        if wire is None:
            wire = wire_cache[fmt] = r.encode_wire(message)  # type: ignore[union-attr]
        return self._send(message, wire)

    def _send(self, message: str, wire: Optional[bytes]) -> bool:
        r = self.receiver
        if self.state != OPEN or r is None:
            return False
        try:
            if wire is None:
                r.send_frame(message)
            else:
                r.write_prebuilt(wire)  # type: ignore[attr-defined]
        except SlowConsumer as e:
            log.warning("%s: closing raw websocket: client not reading "
                        "(%d bytes unsent, limit %d)", self.service.prefix, e.buffered,
                        self.service.options.max_buffer)
            self.close(*SLOW_CONSUMER_CLOSE)
            return False
        except ReceiverGone:
            self.receiver_gone(r)
            return False
        except Exception:
            log.exception("raw websocket write failed")
            self.receiver_gone(r)
            return False
        return True

    def close(self, code: int = 3000, reason: str = "Go away!") -> bool:
        if self.state >= CLOSING:
            return False
        r = self.receiver
        self.receiver = None
        if r is not None:
            r.close(code, reason)
        self._end()
        return True

    def shutdown(self) -> None:
        self.close(1001, "Server shutting down")

    @property
    def is_open(self) -> bool:
        return self.state == OPEN

    def receive_ws_text(self, text: str) -> None:
        if self.state != OPEN:
            return
        try:
            self.conn.on_message(text)
        except Exception:
            log.exception("application error in %s.on_message", type(self.conn).__name__)

    def receiver_gone(self, receiver: "Receiver") -> None:
        if receiver is self.receiver:
            self.receiver = None
            self._end()

    def _end(self) -> None:
        if self.state == CLOSED:
            return
        self.state = CLOSED
        self.service._forget(self)
        if not self._notified:
            self._notified = True
            _call_app(self, "on_close")
