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

from typing import Any, Dict, Iterable, List

from .protocol.options import ConnectionInfo
from .protocol.states import OPEN

__all__ = ["SockJSConnection", "ConnectionInfo", "broadcast"]


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
    """
    pending: List[Any] = list(connections)
    sent = 0
    # One service at a time (one in practice: each has its codec, mode and
    # batch); the connections of other services are left for the next round.
    while pending:
        service = pending[0].session.service
        rest: List[Any] = []
        if service.naive:
            for conn in pending:
                s = conn.session
                if s.service is not service:
                    rest.append(conn)
                elif s.send(message):
                    sent += 1
            pending = rest
            continue
        taken, others = service.fanout.deliver(pending, service.codec.encode_str(message))
        sent += taken
        # Raw websockets of this service take the message as one frame,
        # built once per wire format.
        raw_cache: Dict[Any, bytes] = {}
        for conn in others:
            s = conn.session
            if s.service is not service:
                rest.append(conn)
            elif s.send_shared(message, raw_cache):
                sent += 1
        pending = rest
    return sent
