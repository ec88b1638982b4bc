"""At most one log line per interval for conditions that can hit many
sessions at once (an overload closes hundreds of slow consumers)."""
from __future__ import annotations

import logging
import time
from typing import Any, Callable


class RateLimitedLog:
    """``warning(msg, *args)`` logs at most once per ``interval`` seconds
    (> 0); the next line that gets through says how many were left out."""

    __slots__ = ("log", "interval", "clock", "last", "suppressed")

    def __init__(self, log: logging.Logger, interval: float = 10.0,
                 clock: Callable[[], float] = time.monotonic):
        self.log = log
        self.interval = interval
        self.clock = clock
        self.last = -float("inf")
        self.suppressed = 0

    def warning(self, msg: str, *args: Any) -> bool:
        """True if the line was logged, False if it was counted only."""
        now = self.clock()
        if now - self.last < self.interval:
            self.suppressed += 1
            return False
        if self.suppressed:
            msg += " (%d more like this in the last %.0f s not logged)"
            args = args + (self.suppressed, now - self.last)
        self.last = now
        self.suppressed = 0
        self.log.warning(msg, *args)
        return True


#: The one line about clients closed for not reading (every session kind).
slow_consumers = RateLimitedLog(logging.getLogger("sockbench_server.session"))
