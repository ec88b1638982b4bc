"""A raw websocket connection without I/O (``<prefix>/websocket``)."""
from __future__ import annotations

import logging
from typing import Any, Dict, Optional, cast

from .errors import SLOW_CONSUMER_CLOSE, ReceiverGone, SlowConsumer
from .options import ConnectionInfo
from .ratelog import slow_consumers
from .receiver import Receiver, WireReceiver
from .session import call_app
from .states import CLOSED, CLOSING, CONNECTING, OPEN

log = logging.getLogger("sockbench_server.session")


class RawSession:
    """A raw websocket connection (``<prefix>/websocket``): no SockJS framing,
    no heartbeats; every text message is one application message."""

    __slots__ = ("service", "state", "conn", "receiver", "info", "_notified", "__weakref__")
    id = None
    #: Messages travel as plain websocket text.
    framed = False

    def __init__(self, service: Any, info: ConnectionInfo):
        self.service = service
        self.state = CONNECTING
        self.receiver: Optional[Receiver] = None
        self.info = info
        self._notified = False
        self.conn = service.connection_class(self)

    def attach(self, receiver: Receiver) -> None:
        self.receiver = receiver
        self.state = OPEN
        call_app(self, "on_open", self.info)

    def send(self, message: str, now: Optional[float] = None) -> bool:
        """Send one message as one websocket text message; False if the
        connection is not open (or turned out to be gone). ``now`` is
        ``Session.send``'s (the naive broadcast passes it to every
        recipient); a raw websocket has no heartbeat to time, so it is unused."""
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
            wire = wire_cache[fmt] = cast(WireReceiver, r).encode_wire(message)
        return self._send(message, wire)

    def _send(self, message: str, wire: Optional[bytes]) -> bool:
        r = self.receiver
        if self.state != OPEN or r is None:
            return False
        try:
            if wire is None:
                r.send_frame(message)
            else:
                cast(WireReceiver, r).write_prebuilt(wire)
        except SlowConsumer as e:
            slow_consumers.warning("%s: closing raw websocket: client not reading "
                                   "(%d bytes unsent, limit %d)", self.service.prefix,
                                   e.buffered, self.service.options.max_buffer)
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

    def receiver_gone(self, receiver: Receiver) -> None:
        if receiver is self.receiver:
            self.receiver = None
            self._end()

    def _end(self) -> None:
        if self.state == CLOSED:
            return
        self.state = CLOSED
        self.service.forget(self)
        if not self._notified:
            self._notified = True
            call_app(self, "on_close")
