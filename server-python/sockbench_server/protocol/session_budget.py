"""The session budget (docs/protocol.md section 7): how many sessions one
process holds, every mount and transport together.

Without it a client posting ``/broadcast/000/<random>/xhr`` on one
keep-alive connection creates thousands of sessions a second, each kept
for ``disconnect_delay`` (5 s), and memory is bounded only by request rate
times 5 s.

The default comes from the memory budget that already bounds output
(``--max-total-buffer``, 64 MiB by default, tornado_io/shedding.py):
sessions may together take at most that much, and one session is counted
at :data:`SESSION_BYTES`, what an idle session costs at most on either
interpreter with its connection (measured: server-python/README.md,
"Session budget"). 64 MiB / 20 KiB = 3,276 sessions per process.
"""
from __future__ import annotations

import logging
from typing import Optional

from .ratelog import RateLimitedLog

log = logging.getLogger("sockbench_server.sessions")

#: What one session is counted at for the default budget (bytes): an idle
#: session with its open connection, the dearest kind (a framed websocket:
#: 18.0 KB on CPython, 20.2 KB on PyPy; an xhr session without its
#: connection 1.3 / 6.8 KB), rounded up.
SESSION_BYTES = 20 * 1024
#: Range of ``--max-sessions`` (sessions per process).
MIN_SESSIONS, MAX_SESSIONS = 1, 1_000_000


def default_max_sessions(memory_budget: int) -> int:
    """Sessions that fit ``memory_budget`` bytes (> 0) at :data:`SESSION_BYTES`
    each, within ``MIN_SESSIONS``..``MAX_SESSIONS``."""
    return max(MIN_SESSIONS, min(MAX_SESSIONS, memory_budget // SESSION_BYTES))


def max_sessions_for_share(share: int, memory_budget: int) -> int:
    """The default budget of a process told (``--sessions``) that it will
    hold ``share`` sessions: room for them and a quarter more - the kernel's
    SO_REUSEPORT hash does not split connections exactly evenly between
    workers, and a benchmark level's sessions may still be closing when the
    next level's open - never below :func:`default_max_sessions`."""
    return max(default_max_sessions(memory_budget),
               min(MAX_SESSIONS, share + -(-share // 4)))


class SessionBudget:
    """Counts the sessions of a process against ``limit`` (sessions, > 0;
    None: no limit). Services call :meth:`take` when they create a session
    and :meth:`give_back` when it is gone."""

    __slots__ = ("limit", "count", "refused", "_log")

    def __init__(self, limit: Optional[int] = None):
        if limit is not None and limit <= 0:
            raise ValueError("limit must be > 0")
        self.limit = limit
        #: Sessions that exist now.
        self.count = 0
        #: Session requests refused since start.
        self.refused = 0
        self._log = RateLimitedLog(log)

    def has_room(self) -> bool:
        """Could a session be created now? A request that would create one
        asks first; when not, it is counted as refused and logged (at most
        one line per 10 s)."""
        if self.limit is None or self.count < self.limit:
            return True
        self.refused += 1
        self._log.warning("session limit reached: %d sessions open (--max-sessions %d); "
                          "new sessions refused with 503 (%d refused since start)",
                          self.count, self.limit, self.refused)
        return False

    def take(self) -> bool:
        """Count a new session; False (nothing counted) when full."""
        if not self.has_room():
            return False
        self.count += 1
        return True

    def give_back(self) -> None:
        self.count -= 1
