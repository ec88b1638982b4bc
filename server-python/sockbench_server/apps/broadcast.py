"""The benchmark application: every message goes to every open connection."""
from __future__ import annotations

from typing import Type

from ..api import Group, SockJSConnection, broadcast
from ..protocol.options import ConnectionInfo


def make_broadcast() -> Type[SockJSConnection]:
    """A broadcast application class with its own group of participants, so
    two mounts never share recipients. A Group, not a set: in fast mode the
    messages of one loop iteration then cost O(1) each, not a walk over
    every participant (``protocol/fanout.py``)."""
    participants = Group()

    class BroadcastConnection(SockJSConnection):
        """Delivers each message to every open connection, the sender too,
        in the order each sender sent them. Payloads are never inspected."""

        members = participants

        def on_open(self, info: ConnectionInfo) -> None:
            participants.add(self)

        def on_message(self, message: str) -> None:
            broadcast(participants, message)

        def on_close(self) -> None:
            participants.discard(self)

    return BroadcastConnection
