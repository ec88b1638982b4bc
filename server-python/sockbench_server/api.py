"""The public application API.

An application is a :class:`SockJSConnection` subclass; one instance exists
per client connection, whatever the transport::

    from sockbench_server import Group, SockJSConnection, broadcast

    class Chat(SockJSConnection):
        room = Group()

        def on_open(self, info):
            self.room.add(self)

        def on_message(self, message):
            broadcast(self.room, message)

        def on_close(self):
            self.room.discard(self)

Messages are ``str`` both ways. ``send`` and ``close`` may be called from any
callback or from other code running on the server's event loop.
``broadcast(connections, message)`` sends one message to many connections,
fast or naive as each service is configured; it lives with the rest of the
fan-out in ``protocol/fanout.py`` (fast mode's batch: ``protocol/batch.py``).
``connections`` may be any iterable of connections; a :class:`Group`
(``protocol/group.py``) is the one to use for a room that gets many
messages: in fast mode another message to the same unchanged group costs
O(1), not a look at every member.
"""
from __future__ import annotations

from typing import Any

from .protocol.fanout import broadcast
from .protocol.group import Group
from .protocol.options import ConnectionInfo
from .protocol.states import OPEN

__all__ = ["SockJSConnection", "ConnectionInfo", "Group", "broadcast"]


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
