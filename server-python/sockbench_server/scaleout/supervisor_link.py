"""A worker's end of the pipe from its supervisor (its stdin).

The supervisor never closes the pipe while it lives, so end of file means
it is gone (even killed by SIGKILL), and a worker does not outlive it. The
only thing the supervisor writes is ``go <index>\\n`` to the standby worker:
take worker slot ``index`` and start listening (workers.py).
"""
from __future__ import annotations

import asyncio
import os
import sys
from typing import Optional

#: What the standby worker prints on stdout once it is ready to be told to listen.
STANDBY_LINE = "STANDBY"


class SupervisorLink:
    """Watches stdin: sets ``gone`` at end of file, resolves :meth:`wait_for_go`
    on ``go <index>``."""

    def __init__(self, loop: asyncio.AbstractEventLoop, gone: asyncio.Event):
        self._loop = loop
        self._gone = gone
        self._fd = sys.stdin.fileno()
        self._pending = b""
        self._go: "asyncio.Future[int]" = loop.create_future()
        loop.add_reader(self._fd, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self._fd, 4096)
        except OSError:
            data = b""
        if not data:
            self._loop.remove_reader(self._fd)
            self._gone.set()
            return
        self._pending += data
        while b"\n" in self._pending:
            line, self._pending = self._pending.split(b"\n", 1)
            word, _, index = line.decode("ascii", "replace").partition(" ")
            if word == "go" and index.isdigit() and not self._go.done():
                self._go.set_result(int(index))

    async def wait_for_go(self, stop: asyncio.Event) -> Optional[int]:
        """Say STANDBY on stdout, then wait: the slot index to take, or None
        when ``stop`` is set first (a signal, or the supervisor is gone)."""
        sys.stdout.write(STANDBY_LINE + "\n")
        sys.stdout.flush()
        stopped = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait([self._go, stopped], return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopped.cancel()
        return self._go.result() if self._go.done() else None
