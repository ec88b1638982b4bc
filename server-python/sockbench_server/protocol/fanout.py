"""The broadcast path: every message that reaches many sessions at once goes
through here, whether an application broadcast it (:func:`broadcast`) or
another process of the broadcast domain published it (:func:`deliver_relayed`).
Each service's ``ServiceOptions.broadcast`` decides how its sessions get it:

* ``naive``: every recipient gets its own ``send(message)``: encode, frame
  and write per recipient and per message (what sockjs-node does);
* ``fast``: the message is JSON-encoded once; framed sessions collect the
  messages of one loop iteration and get one ``a[...]`` frame each at its
  end, and sessions that got the same messages share the frame's bytes
  (:class:`Fanout`); raw websockets share one frame per message.

Both modes deliver the same messages in the same order. A service joined to
a broadcast domain (``--broker``, ``scaleout/domain.py``) also hands what its
own applications broadcast to the relay, never what was relayed to it:
naive once per message, fast once per flush.

How the fast batch works. Every broadcast in an iteration appends its
encoded message to the current *batch* (``Fanout.fragments``); a recipient
session only records which slice of the batch is its own
(``batch_from``/``batch_to``). In the common case every session receives
every broadcast of the iteration, so they all end up with the same slice.
At the end of the iteration (one ``timers.call_soon`` per batch)
:meth:`Fanout.flush` builds the ``a[...]`` frame of each distinct slice
once, and for each wire format (RFC 6455, hixie-76) its bytes once, and
hands those same bytes to every session's stream.

A session falls out of the shared slice when its messages stop being one
contiguous run of the batch (it missed a broadcast in between, or got a
private ``send``): its slice is then copied to its own queue and it is
flushed on its own. Order is kept because a session's own queue is always
older than its batch slice.

Trap: the slice indices are only valid until the next flush, which resets
every member. A session that closes meanwhile is skipped by its state. A
write during the flush can run application code (``on_close``) that sends
or broadcasts, so the flush keeps the batch's list until its last member
is written (:meth:`Fanout.flush`).

Broadcasting to a :class:`~.group.Group` (a set whose membership changes
are counted) skips the walk over the recipients while it can. The first
message to a group in an iteration looks at its members once
(:func:`_survey`) and marks every open framed member as taking the batch
from here to its end (``batch_to`` IN_GROUP_RUN, :meth:`Fanout.begin_run`);
that is the group's *run*. Each following message to the same group, while
its version has not moved and nothing else was added to the batch, is one
append: O(1) whatever the group's size. Raw websocket members are listed
once per run and get each message as it comes, as they would anyway.
Anything the run cannot describe ends it first (:meth:`Fanout.end_run`
gives every member's slice its end, the batch's end at that moment): a
change of membership, a private send, a close, another group, a broadcast
to any other iterable. From there on the per-session logic above applies,
so the order of every session's messages is the same either way. A group
with a member that is not open yet, or members of several services, or of
a naive service, takes the per-session path for every message.

This module knows services, sessions and application connections only
through the protocols below (:class:`Broadcaster`, :class:`Recipient`,
:class:`RawRecipient`, :class:`BatchMember`, :class:`Addressee`), which
``service.py``, ``session.py``, ``raw_session.py`` and ``api.py`` meet;
those modules import this one, never the reverse. ``group.py`` is a leaf
it imports.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Dict, Iterable, List, Optional, Protocol, Sequence, Tuple

from . import frames
from .codecs import Codec
from .group import Group
from .receiver import Receiver, Timers
from .states import CONNECTING, OPEN

log = logging.getLogger("sockbench_server.relay")

#: ``batch_to`` of a session with no batch slice.
NO_SLICE = -1
#: ``batch_to`` of a session whose messages of this iteration were moved to
#: its own queue (it still needs flushing at the end of the iteration).
OWN_QUEUE = -2
#: ``batch_to`` of a member of the fan-out's current group run: its slice
#: goes from ``batch_from`` to the end of the batch, wherever that is now.
IN_GROUP_RUN = -3


class Broadcaster(Protocol):
    """What the broadcast needs of a mounted service (``service.Service``)."""

    prefix: str
    codec: Codec
    fanout: "Fanout"

    @property
    def naive(self) -> bool:
        """Whether the service writes per recipient (``--naive``)."""


class Recipient(Protocol):
    """What the broadcast needs of any session: its service, whether it
    takes ``a[...]`` frames, its state (``states.py``), and a private send."""

    service: Broadcaster
    framed: bool
    state: int

    def send(self, message: str) -> bool:
        """Send one message to this session alone; False if it did not take it."""


class RawRecipient(Recipient, Protocol):
    """A raw websocket (``raw_session.RawSession``, ``framed`` False): one
    websocket message per application message."""

    def send_shared(self, message: str, wire_cache: Dict[Any, bytes]) -> bool:
        """Like ``send``, the wire bytes built once per format in ``wire_cache``."""


class BatchMember(Recipient, Protocol):
    """A framed session (``session.Session``, ``framed`` True): what the fast
    batch reads and writes of it."""

    #: Its slice of the current batch, or ``to`` NO_SLICE / OWN_QUEUE.
    batch_from: int
    batch_to: int
    #: Encoded messages waiting for it, older than its batch slice.
    queue: List[str]
    #: What can carry frames to the client now (None: nothing attached).
    receiver: Optional[Receiver]
    last_output: float

    def flush(self) -> None:
        """Write ``queue`` as one frame (or hold it: no receiver)."""

    def write_shared(self, frame: str, wire_cache: Dict[Any, bytes]) -> None:
        """Write a frame other sessions get too, bytes built once per format."""

    def write_failed(self, r: Receiver, e: Exception) -> None:
        """A write to ``r`` raised ``e``: close or end the session as it calls for."""


class Addressee(Protocol):
    """An application connection (``api.SockJSConnection``): broadcast reaches
    it through its session."""

    session: Recipient


class DeferredOutput(Protocol):
    """Who counts what a fast batch will hold once written, before it is
    (the I/O layer's output budget, ``tornado_io/shedding.py``): the batch
    reports as it grows, and takes it all back when it is flushed."""

    def defer(self, memory: int, batched: int) -> None:
        """The batch grew by ``batched`` bytes of messages that will hold
        ``memory`` bytes once written (both negative: it was flushed)."""


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


class GroupRun:
    """One group's messages at the end of a fan-out's batch (the module's
    doc): what a further message to the unchanged group needs besides its
    append to the batch."""

    __slots__ = ("fanout", "version", "framed", "raw", "size")

    def __init__(self, fanout: "Fanout", version: int, framed: int,
                 raw: List[RawRecipient]):
        self.fanout = fanout
        #: Bytes of the run's messages in the batch so far (each fragment and its comma).
        self.size = 0
        #: The group's version when its members were looked at.
        self.version = version
        #: Open framed members: each message's count of takers.
        self.framed = framed
        #: Open raw websocket members: they get each message as it comes.
        self.raw: Sequence[RawRecipient] = raw


class Fanout:
    """Coalesces the broadcasts of one loop iteration (one per Service)."""

    __slots__ = ("service", "timers", "fragments", "members", "scheduled", "publish",
                 "publish_message", "local", "run", "flushing", "budget", "copy_limit",
                 "deferred", "batched")

    def __init__(self, service: Broadcaster, timers: Timers):
        self.service = service
        self.timers = timers
        #: Encoded messages broadcast in this iteration, oldest first.
        self.fragments: List[str] = []
        #: Sessions with something pending in this iteration.
        self.members: List[BatchMember] = []
        self.scheduled = False
        #: Scale-out (``--broker``): called once per flush with the ``a[...]``
        #: frame of this process's own messages of the iteration and their
        #: count, after the local sessions were written; None: one process.
        self.publish: Optional[Callable[[str, int], None]] = None
        #: Scale-out, naive mode: called with each message an application
        #: broadcast, after the local sessions took it; None: one process.
        self.publish_message: Optional[Callable[[str], None]] = None
        #: This iteration's own (not relayed) fragments, kept only for ``publish``.
        self.local: List[str] = []
        #: The group run the batch ends with, if any: its members' ``batch_to``
        #: is IN_GROUP_RUN, and the last fragment is the group's.
        self.run: Optional[GroupRun] = None
        #: While :meth:`flush` writes: the members it took, some not written yet.
        self.flushing: Optional[List[BatchMember]] = None
        #: Told what the batch will hold once written (:class:`DeferredOutput`,
        #: the I/O layer's output budget); None: nobody counts it.
        self.budget: Optional[DeferredOutput] = None
        #: Bytes of a frame shared by many sessions that each session's
        #: stream copies at most if the socket does not take it (the rest is
        #: held once, by reference); None: each copies all of it.
        self.copy_limit: Optional[int] = None
        #: What this batch has reported to ``budget`` so far: memory once
        #: written, and bytes of messages (:meth:`count`).
        self.deferred = 0
        self.batched = 0

    def append(self, fragment: str, relayed: bool) -> int:
        """Add one encoded message (or a relayed frame's inside) to the
        batch, the flush scheduled; returns its index. Who gets it is the
        caller's business."""
        if not self.scheduled:
            self.scheduled = True
            self.timers.call_soon(self.flush)
        if not relayed and self.publish is not None:
            self.local.append(fragment)
        batch = self.fragments
        batch.append(fragment)
        return len(batch) - 1

    def deliver(self, connections: List[Addressee], fragment: str,
                relayed: bool = False) -> Tuple[int, List[Addressee]]:
        """Queue one encoded message (a JSON string literal) on the open
        sessions of ``connections`` (application connections) that are framed
        sessions of this fan-out's service. Returns how many took it, and the
        connections it left to the caller (other services, raw websockets).
        Nothing is written before the end of the iteration. ``relayed``: the
        fragment came from another process of the broadcast domain (it may
        hold several comma-separated messages) and is not published again."""
        if self.run is not None:  # the batch no longer ends with a group's messages
            self.end_run()
        index = self.append(fragment, relayed)
        batch = self.fragments
        following = index + 1
        members = self.members
        service = self.service
        open_ = OPEN
        others: List[Addressee] = []
        taken = 0
        # Hot loop: attribute tests only, no calls in the common case.
        for conn in connections:
            s = conn.session  # a BatchMember once the framed test passes
            if s.service is not service or not s.framed:
                others.append(conn)
                continue
            if s.state != open_:
                continue
            taken += 1
            to = s.batch_to
            if to == index:  # got the previous broadcast too: extend the slice
                s.batch_to = following
            elif to == NO_SLICE:
                s.batch_from = index
                s.batch_to = following
                members.append(s)
            else:  # a gap, or already on its own queue
                if to >= 0:
                    s.queue.extend(batch[s.batch_from:to])
                    s.batch_to = OWN_QUEUE
                s.queue.append(fragment)
        if taken and self.budget is not None:
            # Sessions with the same slice will share its frame; counted as
            # copies here, since a slice's sharers are not known before the flush.
            size = len(fragment) + 1
            self.count(size * taken, size)
        return taken, others

    def count_run(self, run: GroupRun, fragment: str) -> None:
        """Report one more message of ``run`` to ``budget``: its bytes once
        (the run's frame is shared), plus what each member's stream would
        copy of the larger frame (up to ``copy_limit`` each)."""
        size = len(fragment) + 1
        before = run.size
        after = run.size = before + size
        limit = self.copy_limit
        if limit is None:
            copied = size
        else:
            copied = (after if after < limit else limit) - (before if before < limit else limit)
        self.count(size + run.framed * copied, size)

    def count(self, memory: int, size: int) -> None:
        """Report to ``budget`` that the batch grew by ``size`` bytes of
        messages that will hold ``memory`` bytes once written."""
        self.deferred += memory
        self.batched += size
        self.budget.defer(memory, size)  # type: ignore[union-attr]  # callers check it

    def begin_run(self, run: GroupRun, group: Group) -> None:
        """Make ``run`` (surveyed just now, nothing called since) the batch's
        group run: every open framed member of ``group`` takes the batch from
        its current end on. A member whose slice ends right here keeps it
        (it goes on into the run); one with a gap moves its slice to its own
        queue first, which is older than the run. O(members), once per run."""
        if self.run is not None:
            self.end_run()
        batch = self.fragments
        start = len(batch)
        members = self.members
        open_ = OPEN
        in_run = IN_GROUP_RUN
        for conn in group:
            s = conn.session  # a BatchMember once the framed test passes
            if not s.framed or s.state != open_:
                continue
            to = s.batch_to
            if to != start:
                if to == NO_SLICE:
                    members.append(s)
                elif to >= 0:
                    s.queue.extend(batch[s.batch_from:to])
                s.batch_from = start
            s.batch_to = in_run
        self.run = run
        group.run = run

    def end_run(self) -> None:
        """End the current group run: each of its members' slices ends at
        the batch's end, so the per-session logic can go on from there.
        O(sessions with something pending), once per run that is cut short."""
        run = self.run
        assert run is not None
        self.run = None
        run.raw = ()  # a finished run keeps no session alive
        end = len(self.fragments)
        in_run = IN_GROUP_RUN
        for s in self.members:
            if s.batch_to == in_run:
                s.batch_to = end
        if self.flushing is not None:
            for s in self.flushing:
                if s.batch_to == in_run:
                    s.batch_to = end

    def detach(self, s: BatchMember) -> None:
        """Move ``s``'s slice to its own queue (before a private send, a
        close or an attach), so the batch no longer holds anything of it.
        A group run it is in ends first: its count of open members, and
        the members' common end, no longer hold."""
        if s.batch_to == IN_GROUP_RUN:
            self.end_run()
        to = s.batch_to
        if to >= 0:
            s.queue.extend(self.fragments[s.batch_from:to])
            s.batch_to = OWN_QUEUE

    def flush(self) -> None:
        """End of the iteration: write every member's pending messages.

        A write can run application code (the ``on_close`` of a session
        found gone), which may send, close or broadcast meanwhile. So the
        batch's list stays the batch until every member is written: the
        slices of the members not written yet stay valid, and what is
        broadcast meanwhile goes behind them, for the next flush (or for a
        member not written yet whose slice it extends). A group run begun
        meanwhile may include members not written yet: ``flushing`` lets
        :meth:`end_run` find them."""
        if self.run is not None:  # its members' slices end with the batch
            self.end_run()
        self.scheduled = False
        # What this flush writes leaves the deferred count at its end (it is
        # in the stream's unsent bytes by then); what is broadcast meanwhile
        # is counted afresh, for the next flush.
        deferred, batched = self.deferred, self.batched
        self.deferred = self.batched = 0
        batch = self.fragments
        members = self.members
        local = self.local
        self.members = []
        self.flushing = members
        if local:
            self.local = []
        flushed = len(batch)
        now = self.timers.time()
        # (from, to) -> (frame str, {wire format: bytes}); sessions with the
        # same slice follow each other in ``members``, hence ``last``.
        shared: Dict[Tuple[int, int], Tuple[str, Dict[Any, bytes]]] = {}
        last_from = last_to = -1
        frame = ""
        wires: Dict[Any, bytes] = {}
        # The wire bytes for the last receiver class seen: one lookup per
        # distinct (slice, receiver class) run instead of one per session.
        last_class: Any = None
        wire = b""
        no_slice = NO_SLICE
        in_run = IN_GROUP_RUN
        open_ = OPEN
        for s in members:
            to = s.batch_to
            if to == in_run:  # of a group run application code began meanwhile
                self.end_run()
                to = s.batch_to
            start = s.batch_from
            s.batch_to = no_slice
            if s.state != open_:
                continue
            r = s.receiver
            if to < 0 or r is None or s.queue:
                # On its own: OWN_QUEUE, no request to write to right now
                # (polling), or older messages queued.
                if to >= 0:
                    s.queue.extend(batch[start:to])
                s.flush()
                continue
            if start != last_from or to != last_to:
                last_from, last_to = start, to
                entry = shared.get((start, to))
                if entry is None:
                    entry = shared[(start, to)] = (frames.message_frame(batch[start:to]), {})
                frame, wires = entry
                last_class = None
            if r.__class__ is not last_class:
                fmt = getattr(r, "wire_format", None)
                if fmt is None:  # HTTP responses: each wraps the frame its way
                    s.write_shared(frame, wires)
                    continue
                last_class = r.__class__
                cached = wires.get(fmt)
                if cached is None:
                    cached = wires[fmt] = r.encode_wire(frame)
                wire = cached
            # Inlined Session._write for the websocket case (never "full").
            try:
                r.write_prebuilt(wire)
            except Exception as e:
                s.write_failed(r, e)
                continue
            s.last_output = now
        self.flushing = None
        if len(batch) == flushed:  # else what was broadcast meanwhile is in it
            self.fragments = []
        if batched and self.budget is not None:
            self.budget.defer(-deferred, -batched)
        if local and self.publish is not None:
            # One publish per flush. When the whole batch is this process's
            # own (no relayed messages in it), its frame was most likely
            # built above for the sessions: publish those very characters.
            n = len(local)
            entry = shared.get((0, n)) if n == flushed else None
            self.publish(entry[0] if entry is not None else frames.message_frame(local), n)
