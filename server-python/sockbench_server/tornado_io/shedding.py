"""Load shedding: one budget for all the output the process holds.

Every accepted client stream reports the bytes it holds unsent
(``tornado_private.AccountedIOStream``), so :class:`OutputBudget` knows the
process's total at every moment. ``limit`` is the *memory* target: what the
server may grow by while overloaded. Unsent output is held to half of it
(``pause_at``); the other half is for what this count does not see: the
Python objects around each queued chunk, the client input read but not yet
handled (at most one ``READ_CHUNK`` per client), allocator fragmentation,
and on PyPy the garbage of output already sent, which waits for the next
major collection (by default when the heap reaches 1.82 times what
survived the last one).

When the total passes ``pause_at`` the server stops reading from *every*
client: no ``recv`` on the sockets (their senders then block in TCP, as
with Node's single-threaded loop, which simply does not get to them) and no
new message handed to the applications. Writing goes on, so the total falls
as clients read; at ``resume_at`` (3/4 of ``pause_at``: without the gap a
server at the limit would flip every few writes) reading resumes.

One read can hold many client messages, and a broadcast sends each to every
client, so checking only *before* a batch of messages lets one batch
overshoot by (messages x clients x size): tens of MiB with 4 KiB messages
and 1,000 clients. Hence :meth:`OutputBudget.admit`: every client message
asks first. It is counted *in flight* at its worst case (its size times the
number of clients: what an application could make of it) while it is handed
to the application; after that, what it produced is counted where it went.
Naive mode writes at once, so into ``total``. Fast mode writes nothing
before the end of the loop turn: its batch (``protocol/batch.py``) tells
the budget what it will hold once written (:meth:`defer`, :meth:`watch`).
A message is admitted while the unsent total plus the deferred batches
plus its own worst case stay under ``pause_at``, and while the turn's
batches stay under ``frame_cap`` bytes of messages. One that does not fit
waits for the next turn (after the flush), or for reading to resume; the
first message of a turn always goes, so the overshoot is at most one
message's fan-out. Waiting messages keep their order: the reader of their
connection waits with them.

Trap: a fast batch is *one* frame shared by every session that gets it.
Counting it as a copy per session (as an early version did: size times
clients per message until the end of the turn) capped a turn at
``pause_at / (size x clients)`` messages, about 490 of the bench's 64-byte
messages at 1,000 clients, while nothing was unsent: smaller frames, so more
writes per message, than sockjs-node near saturation (docs/flush-policy.md
item 4). What a shared frame can cost each session is what its stream copies
of it (``tornado_private.SHARED_FRAME_COPY_LIMIT``); the bytes are held once.
So ``total`` counts bytes *owed* to clients, an upper bound of the memory
they take, and may pass ``pause_at`` by up to one turn's frame per session
when every socket refuses it; reading then pauses as usual. ``frame_cap``
(a quarter of the per-session cap) keeps one turn from making a healthy
client a slow consumer.

What it bounds: output that only grows because input keeps coming, which
is every broadcast server under overload. What it does not: a single
client that stops reading still gets its session closed by the
per-session cap (``ServiceOptions.max_buffer``), or else it would keep the
whole process paused.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Optional, Set

from ..protocol.options import DEFAULT_MAX_BUFFER
from ..protocol.ratelog import RateLimitedLog
from .tornado_private import SHARED_FRAME_COPY_LIMIT

log = logging.getLogger("sockbench_server.shedding")

#: Default process-wide memory target under overload (bytes): 64 MiB.
DEFAULT_MAX_TOTAL_BUFFER = 64 * 1024 * 1024
#: Bytes read from a client socket at once (Tornado's default is 64 KiB).
#: What a paused client has read but not yet handled stays in memory: at
#: 1,000 clients a 64 KiB chunk is up to 64 MiB of input held; 4 KiB is up
#: to 4 MiB, and one ``recv`` still takes all a client sends per loop turn
#: at any rate these benchmarks use.
READ_CHUNK = 4096
#: One loop turn's fast batches hold at most 1 / FRAME_CAP_SHARE of a
#: session's cap of unsent output.
FRAME_CAP_SHARE = 4


class OutputBudget:
    """The process-wide count of unsent output bytes and the switch that
    pauses reading while it is over ``pause_at`` (half of ``limit``, the
    memory target in bytes, > 0)."""

    def __init__(self, limit: int = DEFAULT_MAX_TOTAL_BUFFER,
                 session_cap: int = DEFAULT_MAX_BUFFER):
        if limit <= 0:
            raise ValueError("limit must be > 0")
        if session_cap <= 0:
            raise ValueError("session_cap must be > 0")
        self.limit = limit
        #: Reading pauses once the unsent total is over this (bytes).
        self.pause_at = max(limit // 2, 1)
        #: Reading resumes once the total is at or below this (bytes).
        self.resume_at = self.pause_at * 3 // 4
        #: Bytes of messages the fast batches of one loop turn may hold
        #: together: a quarter of one session's cap of unsent output
        #: (``session_cap``, bytes), so a client three turns behind is
        #: still within it.
        self.frame_cap = max(session_cap // FRAME_CAP_SHARE, 1)
        #: Worst-case output (bytes) of the client messages being handed to
        #: their application right now (:meth:`admit_now` to :meth:`release`).
        self.in_flight = 0
        #: What the fast batches waiting for their flush will add to the
        #: process's memory once written (bytes; :meth:`defer`).
        self.deferred = 0
        #: Bytes of the messages in those batches (:meth:`defer`).
        self.batched = 0
        self._turn_end: Optional["asyncio.Future[None]"] = None
        self._turn_scheduled = False
        #: Unsent bytes in all client streams right now.
        self.total = 0
        self.paused = False
        #: How many times reading was paused (for logs and tests).
        self.pauses = 0
        #: Every open client stream (AccountedIOStream).
        self.streams: Set[Any] = set()
        self._resumed: Optional["asyncio.Future[None]"] = None
        self._log = RateLimitedLog(log)

    # -- streams report here -----------------------------------------------

    def track(self, stream: Any) -> None:
        """A new client stream; it starts paused if the process is."""
        self.streams.add(stream)
        if self.paused:
            stream.pause_reading()

    def untrack(self, stream: Any) -> None:
        self.streams.discard(stream)

    def add(self, delta: int) -> None:
        """A stream's unsent bytes changed by ``delta``."""
        total = self.total = self.total + delta
        if self.paused:
            if total <= self.resume_at:
                self._resume()
        elif total > self.pause_at:
            self._pause()

    # -- what readers of client input ask ------------------------------------

    def gate(self) -> "Optional[asyncio.Future[None]]":
        """None while reading is on; else a Future resolved when it resumes."""
        if not self.paused:
            return None
        if self._resumed is None:
            self._resumed = asyncio.get_running_loop().create_future()
        return self._resumed

    async def wait(self) -> None:
        """Return once reading is on (at once if it is)."""
        while True:
            gate = self.gate()
            if gate is None:
                return
            await gate

    def admit_now(self, size: int) -> int:
        """May a client message of ``size`` bytes (>= 0) be handed to the
        application now? Not while reading is paused, nor (except for the
        first message of a turn) when its worst-case fan-out (``size`` to
        every client) would take the unsent total, plus what is in flight,
        plus the deferred batches past ``pause_at``, nor when the batches
        already hold ``frame_cap`` bytes. When yes it is counted in
        ``in_flight`` and the count is returned (> 0): hand it to
        :meth:`release` once the application has the message. 0 means no."""
        if self.paused:
            return 0
        cost = (size + 1) * (len(self.streams) or 1)
        in_flight, deferred = self.in_flight, self.deferred
        if in_flight or deferred:
            if self.total + in_flight + deferred + cost > self.pause_at:
                return 0
            if self.batched and self.batched + size + 1 > self.frame_cap:
                return 0
        self.in_flight = in_flight + cost
        if not self._turn_scheduled:
            self._schedule_turn_end()
        return cost

    def release(self, cost: int) -> None:
        """The application has the message :meth:`admit_now` counted as
        ``cost``: what it produced is in ``total`` (written) or ``deferred``
        (in a fast batch) now."""
        self.in_flight -= cost

    async def admit(self, size: int) -> int:
        """Return once a client message of ``size`` bytes may be handed on
        (:meth:`admit_now`), waiting for the next loop turn or for reading
        to resume as often as needed; returns its count for :meth:`release`."""
        while True:
            cost = self.admit_now(size)
            if cost:
                return cost
            gate = self.gate()
            if gate is None:  # not paused: this turn is full, wait for the next
                if self._turn_end is None:
                    self._turn_end = asyncio.get_running_loop().create_future()
                if not self._turn_scheduled:  # full of what no admitted message began
                    self._schedule_turn_end()
                gate = self._turn_end
            await gate

    # -- what fast batches report ------------------------------------------

    def watch(self, fanout: Any) -> None:
        """Have ``fanout`` (a service's ``protocol.batch.Fanout``) report
        its batches here (:meth:`defer`), each shared frame counted once
        plus what each session's stream copies of it."""
        fanout.budget = self
        fanout.copy_limit = SHARED_FRAME_COPY_LIMIT

    def defer(self, memory: int, batched: int) -> None:
        """A fast batch grew by ``batched`` bytes of messages and ``memory``
        bytes of what it will hold once written (both negative when it was
        flushed: what it wrote is in ``total`` from then on)."""
        self.deferred += memory
        self.batched += batched

    # -- internals ---------------------------------------------------------

    def _schedule_turn_end(self) -> None:
        self._turn_scheduled = True
        asyncio.get_running_loop().call_soon(self._end_turn_soon)

    def _end_turn_soon(self) -> None:
        # Two hops: the first runs after what was ready when the turn's
        # first message was admitted, the second after what *that* message
        # scheduled (fast mode's flush of its broadcast).
        asyncio.get_running_loop().call_soon(self._end_turn)

    def _end_turn(self) -> None:
        # The turn's batches were flushed (``deferred`` and ``batched``
        # fell back): the messages that waited for room ask again.
        self._turn_scheduled = False
        turn_end, self._turn_end = self._turn_end, None
        if turn_end is not None and not turn_end.done():
            turn_end.set_result(None)

    def _pause(self) -> None:
        self.paused = True
        self.pauses += 1
        self._log.warning("overloaded: %d bytes unsent (budget %d, of which unsent output may "
                          "use %d): not reading from clients until under %d",
                          self.total, self.limit, self.pause_at, self.resume_at)
        for stream in self.streams:
            stream.pause_reading()

    def _resume(self) -> None:
        self.paused = False
        for stream in list(self.streams):
            stream.resume_reading()
        resumed, self._resumed = self._resumed, None
        if resumed is not None and not resumed.done():
            resumed.set_result(None)
