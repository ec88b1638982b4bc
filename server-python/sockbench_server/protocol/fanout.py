"""The fast broadcast path: one encode per message, one ``a[...]`` frame per
session per loop iteration, and one set of wire bytes shared by every
session that got the same messages.

How it works. Every broadcast in an iteration appends its encoded message
to the current *batch* (``Fanout.fragments``); a recipient session only
records which slice of the batch is its own (``batch_from``/``batch_to``).
In the common case every session receives every broadcast of the
iteration, so they all end up with the same slice. At the end of the
iteration (one ``timers.call_soon`` per batch) :meth:`Fanout.flush` builds
the ``a[...]`` frame of each distinct slice once, and for each wire format
(RFC 6455, hixie-76) its bytes once, and hands those same bytes to every
session's stream.

A session falls out of the shared slice when its messages stop being one
contiguous run of the batch (it missed a broadcast in between, or got a
private ``send``): its slice is then copied to its own queue and it is
flushed on its own. Order is kept because a session's own queue is always
older than its batch slice.

Trap: the slice indices are only valid until the next flush, which resets
every member. A session that closes meanwhile is skipped by its state.

This module knows sessions only by the attributes it reads and writes
(``service``, ``framed``, ``state``, ``batch_from``/``batch_to``, ``queue``,
``receiver``, ``flush``, ``write_shared``, ``write_failed``, ``last_output``);
``session.py`` imports it, never the reverse.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

from . import frames
from .receiver import Timers
from .states import OPEN

#: ``batch_to`` of a session with no batch slice.
NO_SLICE = -1
#: ``batch_to`` of a session whose messages of this iteration were moved to
#: its own queue (it still needs flushing at the end of the iteration).
OWN_QUEUE = -2


class Fanout:
    """Coalesces the broadcasts of one loop iteration (one per Service)."""

    __slots__ = ("service", "timers", "fragments", "members", "scheduled", "publish", "local")

    def __init__(self, service: Any, timers: Timers):
        self.service = service
        self.timers = timers
        #: Encoded messages broadcast in this iteration, oldest first.
        self.fragments: List[str] = []
        #: Sessions with something pending in this iteration.
        self.members: List[Any] = []
        self.scheduled = False
        #: Scale-out (``--broker``): called once per flush with the ``a[...]``
        #: frame of this process's own messages of the iteration and their
        #: count, after the local sessions were written; None: one process.
        self.publish: Optional[Callable[[str, int], None]] = None
        #: This iteration's own (not relayed) fragments, kept only for ``publish``.
        self.local: List[str] = []

    def deliver(self, connections: List[Any], fragment: str,
                relayed: bool = False) -> Tuple[int, List[Any]]:
        """Queue one encoded message (a JSON string literal) on the open
        sessions of ``connections`` (application connections) that are framed
        sessions of this fan-out's service. Returns how many took it, and the
        connections it left to the caller (other services, raw websockets).
        Nothing is written before the end of the iteration. ``relayed``: the
        fragment came from another process of the broadcast domain (it may
        hold several comma-separated messages) and is not published again."""
        if not self.scheduled:
            self.scheduled = True
            self.timers.call_soon(self.flush)
        if not relayed and self.publish is not None:
            self.local.append(fragment)
        batch = self.fragments
        index = len(batch)
        batch.append(fragment)
        following = index + 1
        members = self.members
        service = self.service
        open_ = OPEN
        others: List[Any] = []
        taken = 0
        # Hot loop: attribute tests only, no calls in the common case.
        for conn in connections:
            s = conn.session
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
        return taken, others

    def detach(self, s: Any) -> None:
        """Move ``s``'s slice to its own queue (before a private send, a
        close or an attach), so the batch no longer holds anything of it."""
        to = s.batch_to
        if to >= 0:
            s.queue.extend(self.fragments[s.batch_from:to])
            s.batch_to = OWN_QUEUE

    def flush(self) -> None:
        """End of the iteration: write every member's pending messages."""
        self.scheduled = False
        batch = self.fragments
        members = self.members
        local = self.local
        self.fragments = []
        self.members = []
        if local:
            self.local = []
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
        open_ = OPEN
        for s in members:
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
        if local and self.publish is not None:
            # One publish per flush. When the whole batch is this process's
            # own (no relayed messages in it), its frame was most likely
            # built above for the sessions: publish those very characters.
            n = len(local)
            entry = shared.get((0, n)) if n == len(batch) else None
            self.publish(entry[0] if entry is not None else frames.message_frame(local), n)
