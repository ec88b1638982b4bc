"""A set of application connections whose changes the broadcast path can see.

``broadcast(connections, message)`` takes any iterable, so in fast mode it
must look at every recipient for every message: it cannot know whether the
recipients are the ones of the previous message. A :class:`Group` counts
every change of its membership in :attr:`Group.version`, so the fan-out
(``fanout.py``) can queue a message for the same unchanged group in O(1):
it looks at the members once per loop iteration, not once per message.

It is a plain container: a connection is a member between ``add`` and
``discard``, whatever its state. Connections are kept as given (the
application's ``SockJSConnection`` objects), in the order they joined, so
the fan-out writes to them in that order, the same every time.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, Iterator


class Group:
    """A set of connections to broadcast to (``broadcast(group, message)``)."""

    __slots__ = ("_members", "version", "run")

    def __init__(self, members: Iterable[Any] = ()):
        self._members: Dict[Any, None] = {}  # a dict for its order
        #: Goes up by one on every change of membership, never down: a
        #: fan-out that saw the members at one version knows they are the
        #: same while it has not moved.
        self.version = 0
        #: The fan-out's note of this group's messages in its current batch
        #: (``batch.GroupRun``), or None. Written by the fan-out only; typed
        #: loosely because this module must not import the fan-out or its batch.
        self.run: Any = None
        for conn in members:
            self.add(conn)

    def add(self, conn: Any) -> None:
        if conn not in self._members:
            self._members[conn] = None
            self.version += 1

    def discard(self, conn: Any) -> None:
        if conn in self._members:
            del self._members[conn]
            self.version += 1

    def remove(self, conn: Any) -> None:
        """Like :meth:`discard`, but a connection that is not a member raises KeyError."""
        if conn not in self._members:
            raise KeyError(conn)
        self.discard(conn)

    def clear(self) -> None:
        if self._members:
            self._members.clear()
            self.version += 1

    def __contains__(self, conn: object) -> bool:
        return conn in self._members

    def __iter__(self) -> Iterator[Any]:
        return iter(self._members)

    def __len__(self) -> int:
        return len(self._members)

    def __repr__(self) -> str:  # pragma: no cover
        return "<Group of %d, version %d>" % (len(self._members), self.version)
