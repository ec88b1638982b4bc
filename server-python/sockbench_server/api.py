"""The public application API.

An application is a :class:`SockJSConnection` subclass; one instance exists
per client connection, whatever the transport::

    from sockbench_server import SockJSConnection, broadcast

    class Chat(SockJSConnection):
        room = set()

        def on_open(self, info):
            self.room.add(self)

        def on_message(self, message):
            broadcast(self.room, message)

        def on_close(self):
            self.room.discard(self)

Messages are ``str`` both ways. ``send`` and ``close`` may be called from any
callback or from other code running on the server's event loop.
"""
from __future__ import annotations

import logging
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from .protocol.frames import BadPayload, decode_messages
from .protocol.options import ConnectionInfo
from .protocol.states import OPEN

log = logging.getLogger("sockbench_server.relay")

__all__ = ["SockJSConnection", "ConnectionInfo", "broadcast", "deliver_relayed"]


class SockJSConnection:
    """Base class of applications: override the ``on_*`` callbacks."""

    def __init__(self, session: Any):
        #: The protocol session behind this connection (sans-I/O core object).
        self.session = session

    # -- callbacks ---------------------------------------------------------

    def on_open(self, info: ConnectionInfo) -> None:
        """The connection is open; ``info`` has the peer address and headers."""

    #: Raw websockets only: True to get binary messages as ``bytes`` (and be
    #: allowed to ``send`` bytes back as a binary message). Otherwise a
    #: binary message is decoded as UTF-8 and closes with 1007 if it is not.
    binary_messages = False

    def on_message(self, message: str) -> None:
        """One message from the client."""

    def on_close(self) -> None:
        """The connection is closed (by either side, or it timed out). Called once."""

    # -- actions -----------------------------------------------------------

    def send(self, message: str) -> bool:
        """Send one message; False if the connection is not open."""
        return self.session.send(message)

    def close(self, code: int = 3000, reason: str = "Go away!") -> None:
        """Close with ``c[code,"reason"]`` (raw websocket: a close frame)."""
        self.session.close(code, reason)

    @property
    def is_open(self) -> bool:
        return self.session.state == OPEN


def broadcast(connections: Iterable[SockJSConnection], message: str) -> int:
    """Send ``message`` to every connection; returns how many took it.

    This is the one place where fan-out happens. Iterates over a snapshot: a
    send may close a connection, whose ``on_close`` then removes it from the
    caller's set. Each service's ``ServiceOptions.broadcast`` says how its
    sessions get the message:

    * ``naive``: every recipient gets its own ``send(message)``: encode,
      frame and write per recipient and per message (what sockjs-node does);
    * ``fast``: the message is JSON-encoded once; framed sessions collect the
      messages of one loop iteration and get one ``a[...]`` frame each at its
      end, and sessions that got the same messages share the frame's bytes
      (see ``protocol/fanout.py``); raw websockets share one frame per message.
    Both modes deliver the same messages in the same order.

    A service joined to a broadcast domain of several processes (``--broker``,
    ``sockbench_server.scaleout``) also hands the message to its relay:
    naive once per message here, fast once per flush (``Fanout.publish``).
    """
    pending: List[Any] = list(connections)
    sent = 0
    # One service at a time (one in practice: each has its codec, mode and
    # batch); the connections of other services are left for the next round.
    while pending:
        service = pending[0].session.service
        if service.naive:
            taken, pending = _send_each(pending, service, message)
            sent += taken
            if service.publish_message is not None:
                service.publish_message(message)
            continue
        taken, others = service.fanout.deliver(pending, service.codec.encode_str(message))
        taken_raw, pending = _send_shared(others, service, (message,))
        sent += taken + taken_raw
    return sent


def deliver_relayed(connections: Iterable[SockJSConnection], kind: str, body: str) -> int:
    """Deliver what another process of the broadcast domain published
    (docs/protocol.md section 6.1) to ``connections``, as ``broadcast``
    would have, and never publish it again. ``kind`` ``"a"``: ``body`` is a
    whole ``a[...]`` frame, whose inside fast mode adds to the iteration's
    batch as is (no decode, no re-encode) and which is decoded only for the
    sessions that take messages one by one (naive mode, raw websockets);
    ``"m"``: ``body`` is one message. Returns how many connections took it.

    The broker is part of the deployment and trusted like the process's own
    code: a frame is passed on as the publishing process encoded it. One that
    does not decode where it must is dropped with a warning."""
    pending: List[Any] = list(connections)
    sent = 0
    while pending:
        service = pending[0].session.service
        messages: Optional[List[str]] = [body] if kind == "m" else None
        if kind == "a" and (service.naive or _has_raw(pending, service)):
            try:
                messages = decode_messages(service.codec, body[1:])
            except BadPayload:
                log.warning("%s: dropped a relayed frame that is not a JSON array of strings: %.60r",
                            service.prefix, body)
                return sent
        if service.naive:
            rest = [conn for conn in pending if conn.session.service is not service]
            for message in messages or ():
                taken, _ = _send_each(pending, service, message)
                sent += taken
            pending = rest
            continue
        fragment = service.codec.encode_str(body) if kind == "m" else body[2:-1]
        if not fragment:  # a[] carries nothing
            return sent
        taken, others = service.fanout.deliver(pending, fragment, relayed=True)
        taken_raw, pending = _send_shared(others, service, messages or ())
        sent += taken + taken_raw
    return sent


def _has_raw(connections: List[Any], service: Any) -> bool:
    """Whether a raw websocket of ``service`` is among ``connections``."""
    for conn in connections:
        s = conn.session
        if s.service is service and not s.framed:
            return True
    return False


def _send_each(pending: List[Any], service: Any, message: str) -> Tuple[int, List[Any]]:
    """Naive: ``send`` per recipient of ``service``; -> (taken, the rest)."""
    rest: List[Any] = []
    sent = 0
    for conn in pending:
        s = conn.session
        if s.service is not service:
            rest.append(conn)
        elif s.send(message):
            sent += 1
    return sent, rest


def _send_shared(others: List[Any], service: Any, messages: Sequence[str]) -> Tuple[int, List[Any]]:
    """Raw websockets of ``service`` in ``others`` take each message as one
    frame, built once per wire format; -> (deliveries, connections of other
    services). Callers pass ``messages`` only when such sessions exist."""
    rest: List[Any] = []
    sent = 0
    mine: List[Any] = []
    for conn in others:
        if conn.session.service is not service:
            rest.append(conn)
        else:
            mine.append(conn)
    for message in messages:
        raw_cache: Dict[Any, bytes] = {}
        for conn in mine:
            if conn.session.send_shared(message, raw_cache):
                sent += 1
    return sent, rest
