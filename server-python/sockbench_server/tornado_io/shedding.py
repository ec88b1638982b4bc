"""Load shedding: one budget for all the output the process holds.

Every accepted client stream reports the bytes it holds unsent
(``tornado_private.AccountedIOStream``), so :class:`OutputBudget` knows the
process's total at every moment. When the total passes ``limit`` the
server stops reading from *every* client: no ``recv`` on the sockets (their
senders then block in TCP, as with Node's single-threaded loop, which
simply does not get to them) and no new message handed to the
applications (what Tornado had already read waits, see :meth:`wait`).
Writing goes on, so the total falls as clients read; below ``resume_at``
(3/4 of the limit: without the gap a server at the limit would flip every
few writes) reading resumes everywhere.

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

#: Default process-wide budget of unsent output (bytes): 64 MiB.
DEFAULT_MAX_TOTAL_BUFFER = 64 * 1024 * 1024


class OutputBudget:
    """The process-wide count of unsent output bytes and the switch that
    pauses reading while it is over ``limit`` (bytes, > 0)."""

    def __init__(self, limit: int = DEFAULT_MAX_TOTAL_BUFFER):
        if limit <= 0:
            raise ValueError("limit must be > 0")
        self.limit = limit
        #: Reading resumes once the total is at or below this (bytes).
        self.resume_at = limit * 3 // 4
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
        elif total > self.limit:
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

    # -- internals ---------------------------------------------------------

    def _pause(self) -> None:
        self.paused = True
        self.pauses += 1
        self._log.warning("overloaded: %d bytes unsent (budget %d): not reading from "
                          "clients until under %d", self.total, self.limit, self.resume_at)
        for stream in self.streams:
            stream.pause_reading()

    def _resume(self) -> None:
        self.paused = False
        for stream in list(self.streams):
            stream.resume_reading()
        resumed, self._resumed = self._resumed, None
        if resumed is not None and not resumed.done():
            resumed.set_result(None)
