"""The session core's timer interface on the asyncio loop Tornado runs on."""
from __future__ import annotations

import asyncio
from typing import Any, Callable


class LoopTimers:
    __slots__ = ("loop", "time")

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.time = loop.time

    def call_at(self, when: float, callback: Callable[[], None]) -> Any:
        return self.loop.call_at(when, callback)

    def cancel(self, handle: Any) -> None:
        handle.cancel()

    def call_soon(self, callback: Callable[[], None]) -> None:
        # Runs after every callback already ready in this iteration, which
        # is what lets a broadcast batch gather the iteration's messages.
        self.loop.call_soon(callback)
