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
and 1,000 clients, and in fast mode nothing is written (so counted) before
the end of the loop turn. Hence :meth:`OutputBudget.admit`: every client
message asks first, and is counted as *in flight* at its worst case (its
size times the number of clients) until the end of the loop turn, by when
a broadcast has written (fast mode: queued) what it produces. A message
that does not fit waits for the next turn, or for reading to resume; the
first message of a turn always goes, so the overshoot is at most one
message's fan-out. Waiting messages keep their order: the reader of their
connection waits with them.

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

from ..protocol.ratelog import RateLimitedLog

log = logging.getLogger("sockbench_server.shedding")

#: Default process-wide memory target under overload (bytes): 64 MiB.
DEFAULT_MAX_TOTAL_BUFFER = 64 * 1024 * 1024
#: Bytes read from a client socket at once (Tornado's default is 64 KiB).
#: What a paused client has read but not yet handled stays in memory: at
#: 1,000 clients a 64 KiB chunk is up to 64 MiB of input held; 4 KiB is up
#: to 4 MiB, and one ``recv`` still takes all a client sends per loop turn
#: at any rate these benchmarks use.
READ_CHUNK = 4096


class OutputBudget:
    """The process-wide count of unsent output bytes and the switch that
    pauses reading while it is over ``pause_at`` (half of ``limit``, the
    memory target in bytes, > 0)."""

    def __init__(self, limit: int = DEFAULT_MAX_TOTAL_BUFFER):
        if limit <= 0:
            raise ValueError("limit must be > 0")
        self.limit = limit
        #: Reading pauses once the unsent total is over this (bytes).
        self.pause_at = max(limit // 2, 1)
        #: Reading resumes once the total is at or below this (bytes).
        self.resume_at = self.pause_at * 3 // 4
        #: Worst-case output (bytes) of the client messages admitted in this
        #: loop turn (see :meth:`admit_now`); 0 again at the end of the turn.
        self.in_flight = 0
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

    def admit_now(self, size: int) -> bool:
        """May a client message of ``size`` bytes (>= 0) be handed to the
        application now? Yes unless reading is paused, or its worst-case
        fan-out (``size`` to every client) would take the unsent total plus
        what this turn already admitted past ``pause_at`` (the first message
        of a turn always fits). When yes it is counted in ``in_flight``."""
        if self.paused:
            return False
        cost = (size + 1) * (len(self.streams) or 1)
        in_flight = self.in_flight
        if in_flight and self.total + in_flight + cost > self.pause_at:
            return False
        self.in_flight = in_flight + cost
        if not self._turn_scheduled:
            self._turn_scheduled = True
            asyncio.get_running_loop().call_soon(self._end_turn_soon)
        return True

    async def admit(self, size: int) -> None:
        """Return once a client message of ``size`` bytes may be handed on
        (:meth:`admit_now`), waiting for the next loop turn or for reading
        to resume as often as needed."""
        while not self.admit_now(size):
            gate = self.gate()
            if gate is None:  # not paused: this turn is full, wait for the next
                if self._turn_end is None:
                    self._turn_end = asyncio.get_running_loop().create_future()
                gate = self._turn_end
            await gate

    # -- internals ---------------------------------------------------------

    def _end_turn_soon(self) -> None:
        # Two hops: the first runs after what was ready when the turn's
        # first message was admitted, the second after what *that* message
        # scheduled (fast mode's flush of its broadcast).
        asyncio.get_running_loop().call_soon(self._end_turn)

    def _end_turn(self) -> None:
        # What the admitted messages produced is now in ``total`` (or, for
        # ones admitted after the flush, about to be: off by at most one
        # more turn's worth).
        self._turn_scheduled = False
        self.in_flight = 0
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
