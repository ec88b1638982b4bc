"""The two pipes between a worker and its supervisor, both ends' words.

Supervisor to worker (the worker's stdin): the supervisor never closes the
pipe while it lives, so end of file means it is gone (even killed by
SIGKILL), and a worker does not outlive it. The only thing the supervisor
writes is ``go <index>\\n`` to the standby worker: take worker slot
``index`` and start listening (workers.py).

Worker to supervisor (the worker's stdout, which only the supervisor reads):
``STANDBY`` once a standby worker has loaded everything, and ``LISTENING
<json>`` once a worker accepts connections: its url and READY fields as data,
from which the supervisor formats the group's one READY line with the
server's formatter (``sockbench_server/ready.py``) instead of reading text
meant for people.
"""
from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import List, NamedTuple, Optional, Sequence, Union

from ..ready import Field

#: What the standby worker prints on stdout once it is ready to be told to listen.
STANDBY_LINE = "STANDBY"
#: First word of the line a worker prints once it accepts connections.
LISTENING_WORD = "LISTENING"


class Listening(NamedTuple):
    """A worker accepts connections: what its own READY line would say."""

    url: str
    fields: List[Field]


class Standby(NamedTuple):
    """The standby worker has loaded everything and waits for ``go``."""


def listening_line(url: str, fields: Sequence[Field]) -> str:
    """The worker's report, one line without its newline."""
    return LISTENING_WORD + " " + json.dumps({"url": url, "fields": [list(f) for f in fields]})


def read_worker_line(text: str) -> Union[Listening, Standby, None]:
    """What a worker's stdout line (no newline) reports; None for anything
    else (a worker says nothing else there, but the supervisor must not
    stop for a stray line)."""
    if text == STANDBY_LINE:
        return Standby()
    word, _, body = text.partition(" ")
    if word != LISTENING_WORD:
        return None
    try:
        report = json.loads(body)
        return Listening(str(report["url"]), [(str(k), str(v)) for k, v in report["fields"]])
    except (ValueError, KeyError, TypeError):
        return None


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

    @staticmethod
    def report_listening(url: str, fields: Sequence[Field]) -> None:
        """Tell the supervisor this worker accepts connections."""
        sys.stdout.write(listening_line(url, fields) + "\n")
        sys.stdout.flush()

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
