"""Who gets a message: every message that reaches many sessions at once goes
through here, whether an application broadcast it (:func:`broadcast`) or
another process of the broadcast domain published it (:func:`deliver_relayed`).
Each service's ``ServiceOptions.broadcast`` decides how its sessions get it:

* ``naive``: every recipient gets its own ``send(message)``: encode, frame
  and write per recipient and per message (what sockjs-node does);
* ``fast``: the message is JSON-encoded once; framed sessions collect the
  messages of one loop iteration and get one ``a[...]`` frame each at its
  end, and sessions that got the same messages share the frame's bytes
  (the fast batch, ``batch.py``); raw websockets share one frame per message.

Both modes deliver the same messages in the same order. A service joined to
a broadcast domain (``--broker``, ``scaleout/domain.py``) also hands what its
own applications broadcast to the relay, never what was relayed to it:
naive once per message, fast once per flush.

Broadcasting to a :class:`~.group.Group` (a set whose membership changes
are counted) skips the walk over the recipients while it can. The first
message to a group in an iteration looks at its members once
(:func:`_survey`) and, when they allow one, makes them the batch's group
run (``batch.py``, ``Fanout.begin_run``). Each following message to the same
group, while its version has not moved and nothing else was added to the
batch, is one append: O(1) whatever the group's size. Raw websocket members
are listed once per run and get each message as it comes, as they would
anyway. What ends a run, and why every session's order stays the same:
``batch.py``. A group with a member that is not open yet, or members of
several services, or of a naive service, takes the per-session path for
every message.

This module imports ``batch.py``, never the reverse, and knows services,
sessions and application connections only through the protocols declared
there (``Broadcaster``, ``Recipient``, ``RawRecipient``, ``Addressee``) and
:class:`ClockedRecipient` below, which ``service.py``, ``session.py``,
``raw_session.py`` and ``api.py`` meet without this module importing any of
them. ``group.py`` is a leaf it imports.
"""
from __future__ import annotations

import logging
from typing import Any, Dict, Iterable, List, Optional, Protocol, Sequence, Tuple

from . import frames
from .batch import Addressee, Broadcaster, GroupRun, RawRecipient, Recipient
from .group import Group
from .states import CONNECTING, OPEN

log = logging.getLogger("sockbench_server.relay")


def broadcast(connections: Iterable[Addressee], message: str) -> int:
    """Send ``message`` to every connection; returns how many took it.

    ``connections`` may be any iterable; a :class:`~.group.Group` lets fast
    mode queue a message for the same unchanged group in O(1) (the module's
    doc). Any other iterable is copied first: a send may close a connection,
    whose ``on_close`` then removes it from the caller's set. How each
    service's sessions get it, and when it is handed to the relay: the
    module's doc."""
    if isinstance(connections, Group):
        return _to_group(connections, message=message)
    return _dispatch(connections, message=message)


def deliver_relayed(connections: Iterable[Addressee], kind: str, body: str) -> int:
    """Deliver what another process of the broadcast domain published
    (docs/protocol.md section 6.1) to ``connections``, as :func:`broadcast`
    would have, and never publish it again. ``kind`` ``"a"``: ``body`` is a
    whole ``a[...]`` frame, whose inside fast mode adds to the iteration's
    batch as is (no decode, no re-encode) and which is decoded only for the
    sessions that take messages one by one (naive mode, raw websockets);
    ``"m"``: ``body`` is one message. Returns how many connections took it.

    The broker is part of the deployment and trusted like the process's own
    code: a frame is passed on as the publishing process encoded it. One that
    does not decode where it must is dropped with a warning."""
    message, frame = (None, body) if kind == "a" else (body, None)
    if isinstance(connections, Group):
        return _to_group(connections, message=message, frame=frame, relayed=True)
    return _dispatch(connections, message=message, frame=frame, relayed=True)


def _dispatch(connections: Iterable[Addressee], *, message: Optional[str] = None,
              frame: Optional[str] = None, relayed: bool = False) -> int:
    """The one per-session fan-out of :func:`broadcast` and
    :func:`deliver_relayed`: ``message`` (one message), or ``frame`` (a
    relayed ``a[...]`` frame, possibly several messages); ``relayed``: it
    came from the relay and is not published again (a frame always did)."""
    pending: List[Addressee] = list(connections)
    relayed = relayed or frame is not None
    sent = 0
    # One service at a time (one in practice: each has its codec, mode and
    # batch); the connections of other services are left for the next round.
    while pending:
        service = pending[0].session.service
        messages: Sequence[str] = () if message is None else (message,)
        if frame is not None and (service.naive or _has_raw(pending, service)):
            decoded = _decode_relayed(service, frame)
            if decoded is None:
                return sent
            messages = decoded
        fanout = service.fanout
        if service.naive:
            rest: Optional[List[Addressee]] = None
            for each in messages:
                taken, rest = _send_each(pending, service, each)
                sent += taken
                if not relayed and fanout.publish_message is not None:
                    fanout.publish_message(each)
            if rest is None:  # nothing to send (a relayed a[])
                rest = [conn for conn in pending if conn.session.service is not service]
            pending = rest
            continue
        fragment = service.codec.encode_str(message) if frame is None else frame[2:-1]
        if not fragment:  # a[] carries nothing
            return sent
        taken, others = fanout.deliver(pending, fragment, relayed=relayed)
        taken_raw, pending = _send_shared(others, service, messages)
        sent += taken + taken_raw
    return sent


def _to_group(group: Group, *, message: Optional[str] = None,
              frame: Optional[str] = None, relayed: bool = False) -> int:
    """:func:`_dispatch` for a :class:`~.group.Group`: O(1) for the framed
    members while the group's run in its fan-out's batch goes on (the
    module's doc), the per-session path when the group does not allow one."""
    run: Optional[GroupRun] = group.run
    fresh = run is None or run.fanout.run is not run or run.version != group.version
    if fresh:
        run = _survey(group)
        if run is None:
            return _dispatch(group, message=message, frame=frame, relayed=relayed)
    assert run is not None
    fanout = run.fanout
    raw = run.raw  # this run's own list, even if a raw send below ends the run
    messages: Sequence[str] = ()
    if frame is None:
        fragment = fanout.service.codec.encode_str(message)
        if raw:
            messages = (message,)  # type: ignore[assignment]
    else:
        relayed = True
        fragment = frame[2:-1]
        if not fragment:  # a[] carries nothing
            return 0
        if raw:
            decoded = _decode_relayed(fanout.service, frame)
            if decoded is None:
                return 0
            messages = decoded
    # Only now that the message is known to go out: a run begun for nothing
    # would leave its members an empty slice, and an empty frame.
    if fresh:
        fanout.begin_run(run, group)
    fanout.append(fragment, relayed)
    if fanout.budget is not None:
        fanout.count_run(run, fragment)
    taken = run.framed
    if raw:
        taken += _send_to_raw(raw, messages)
    return taken


def _survey(group: Group) -> Optional["GroupRun"]:
    """A run for ``group`` if its members allow one: open sessions of one
    fast-mode service (closed members are passed over: they never take a
    message again). None when a member is not open yet (it may open during
    the iteration without the group changing), or the members belong to a
    naive service or to several services. Reads only; nothing is queued."""
    service: Optional[Broadcaster] = None
    framed = 0
    raw: List[RawRecipient] = []
    open_ = OPEN
    for conn in group:
        s = conn.session
        if s.service is not service:
            if service is not None:
                return None  # several services: each has its own batch
            service = s.service
            if service.naive:
                return None
        if s.state != open_:
            if s.state == CONNECTING:
                return None
            continue
        if s.framed:
            framed += 1
        else:
            raw.append(s)  # type: ignore[arg-type]
    if service is None:  # an empty group
        return None
    return GroupRun(service.fanout, group.version, framed, raw)


def _decode_relayed(service: Broadcaster, frame: str) -> Optional[Sequence[str]]:
    """The messages of a relayed ``a[...]`` frame, for sessions that take
    them one by one; None (logged) if it is not a JSON array of strings."""
    try:
        return frames.decode_messages(service.codec, frame[1:])
    except frames.BadPayload:
        log.warning("%s: dropped a relayed frame that is not a JSON array of strings: %.60r",
                    service.prefix, frame)
        return None


def _has_raw(connections: List[Addressee], service: Broadcaster) -> bool:
    """Whether a raw websocket of ``service`` is among ``connections``."""
    for conn in connections:
        s = conn.session
        if s.service is service and not s.framed:
            return True
    return False


class ClockedRecipient(Recipient, Protocol):
    """What :func:`_send_each` calls: ``send`` with the clock the caller
    read (``session.Session.send``, ``raw_session.RawSession.send``)."""

    def send(self, message: str, now: Optional[float] = None) -> bool:
        """Like ``Recipient.send``; ``now`` is the time of this write."""


def _send_each(pending: List[Addressee], service: Broadcaster,
               message: str) -> Tuple[int, List[Addressee]]:
    """Naive: ``send`` per recipient of ``service``; -> (taken, the rest).

    The clock is read once here for every copy (``Session.send`` says why
    that is early enough), not once per copy. Trap: a send can run
    application code (``on_close`` of a session it found gone) that
    broadcasts again; the recipients of that inner broadcast written after
    it by this loop keep this older ``now`` - by at most this broadcast's
    duration, the same bound."""
    rest: List[Addressee] = []
    sent = 0
    now = service.fanout.timers.time()
    for conn in pending:
        s: ClockedRecipient = conn.session  # type: ignore[assignment]
        if s.service is not service:
            rest.append(conn)
        elif s.send(message, now):
            sent += 1
    return sent, rest


def _send_shared(others: List[Addressee], service: Broadcaster,
                 messages: Sequence[str]) -> Tuple[int, List[Addressee]]:
    """Raw websockets of ``service`` in ``others`` take each message as one
    frame, built once per wire format; -> (deliveries, connections of other
    services). Callers pass ``messages`` only when such sessions exist."""
    rest: List[Addressee] = []
    mine: List[RawRecipient] = []
    for conn in others:
        s = conn.session
        if s.service is not service:
            rest.append(conn)
        else:  # Fanout.deliver passed on only the raw websockets of its service
            mine.append(s)  # type: ignore[arg-type]
    return _send_to_raw(mine, messages), rest


def _send_to_raw(sessions: Sequence[RawRecipient], messages: Sequence[str]) -> int:
    """Each message as one websocket message to each raw websocket, the
    wire bytes built once per format; -> deliveries."""
    sent = 0
    for message in messages:
        raw_cache: Dict[Any, bytes] = {}
        for s in sessions:
            if s.send_shared(message, raw_cache):
                sent += 1
    return sent
