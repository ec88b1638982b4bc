"""The fast batch: what fast mode does with a message between its broadcast
and the end of the loop iteration. Who gets each message, and the naive
mode, are ``fanout.py``'s job: it hands this module the messages of fast
services (:meth:`Fanout.deliver`, and for a group :meth:`Fanout.begin_run`
and :meth:`Fanout.append`), and this module never imports it back.

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

A group's run. When ``fanout.py`` finds that a :class:`~.group.Group`'s
members allow it, :meth:`Fanout.begin_run` marks every open framed member
as taking the batch from here to its end (``batch_to`` IN_GROUP_RUN); that
is the group's *run* (:class:`GroupRun`), and each further message to the
unchanged group is one :meth:`Fanout.append`, whatever the group's size.
Anything the run cannot describe ends it first (:meth:`Fanout.end_run`
gives every member's slice its end, the batch's end at that moment): a
change of membership, a private send, a close, another group, a broadcast
to any other iterable. From there on the per-session logic above applies,
so the order of every session's messages is the same either way.

What the batch will hold once written is reported as it grows
(:meth:`Fanout.count_run`, :meth:`Fanout.count`) to a
:class:`DeferredOutput`, the I/O layer's output budget, and taken back by
the flush. In a broadcast domain (``--broker``) the flush also hands the
iteration's own messages to the relay, once (``Fanout.publish``); the
per-message hook of naive mode (``Fanout.publish_message``) sits here too
but is called by ``fanout.py``.

The protocols below (:class:`Broadcaster`, :class:`Recipient`,
:class:`RawRecipient`, :class:`BatchMember`, :class:`Addressee`) are how
this module and ``fanout.py`` know services, sessions and application
connections; they are declared here, in the lower of the two modules, so
that ``fanout.py`` imports them without a circle. ``service.py``,
``session.py``, ``raw_session.py`` and ``api.py`` meet them without this
module importing any of them. ``group.py`` is a leaf it imports.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, Tuple

from . import frames
from .codecs import Codec
from .group import Group
from .receiver import Receiver, Timers
from .states import OPEN

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
