"""Joins one mounted broadcast service to the relay (``--broker``): what its
sessions send goes to the other processes, what the others send reaches its
sessions. docs/protocol.md section 6; the relay itself is ``relay.py``.

Exactly once per session: a process writes its own sessions directly and
drops its own envelopes when Redis echoes them back (``relay.py``); every
other process delivers each envelope once. Per-sender order: a sender's
messages are delivered locally in order, and published by one process on one
connection in that same order (Redis keeps the order of one connection's
publishes for every subscriber).
"""
from __future__ import annotations

from typing import Any

from ..protocol.fanout import deliver_relayed


def join_domain(service: Any, relay: Any) -> None:
    """Wire ``service`` (a ``protocol.service.Service`` whose application
    class keeps its participants in ``members``, as ``apps/broadcast.py``
    does) to ``relay`` (``relay.RedisRelay``). Fast mode publishes once per
    flush, the frame as encoded for the local sessions; naive once per message.
    Relayed messages go to ``members`` as the application's own do: to a
    ``Group``, they go on the group's run in the batch, in arrival order."""
    members = service.connection_class.members
    if service.naive:
        service.fanout.publish_message = relay.publish_message
    else:
        service.fanout.publish = relay.publish_batch
    relay.set_receiver(lambda kind, body: deliver_relayed(members, kind, body))
