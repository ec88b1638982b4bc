"""When replacing dead workers stops making sense (docs/protocol.md section
6.2): a worker that dies again and again would otherwise be restarted
forever, with the server looking alive and serving ever fewer clients."""
from __future__ import annotations

from collections import deque
from typing import Deque

#: Deaths that, within ``CRASH_LOOP_WINDOW_S``, stop the server.
CRASH_LOOP_DEATHS = 5
#: Seconds from the first of those deaths to the last.
CRASH_LOOP_WINDOW_S = 10.0


class DeathWindow:
    """The times of the last ``deaths`` (> 0) worker deaths; a crash loop is
    ``deaths`` of them within ``window`` seconds (> 0)."""

    def __init__(self, deaths: int = CRASH_LOOP_DEATHS, window: float = CRASH_LOOP_WINDOW_S):
        if deaths <= 0 or not window > 0:
            raise ValueError("deaths and window must be > 0")
        self.deaths = deaths
        self.window = window
        self._times: Deque[float] = deque(maxlen=deaths)

    def record(self, now: float) -> bool:
        """A worker died at ``now`` (monotonic seconds): True if this death
        completes a crash loop."""
        self._times.append(now)
        return len(self._times) == self.deaths and now - self._times[0] <= self.window
