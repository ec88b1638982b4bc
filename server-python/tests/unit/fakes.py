"""Test doubles for the sans-I/O core: a manual clock/timer wheel, receivers
that record frames (and pre-built wire bytes), and an application that
records callbacks; and
`messages_of`, which reads the messages back out of recorded frames."""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Tuple

from sockbench_server.api import SockJSConnection
from sockbench_server.protocol import transports as tp
from sockbench_server.protocol.codecs import load_codec
from sockbench_server.protocol.options import FAST, NAIVE, ConnectionInfo, ServiceOptions
from sockbench_server.protocol.service import Service


class FakeTimers:
    def __init__(self, now: float = 1000.0):
        self.now = now
        self.pending: Dict[object, Tuple[float, Callable[[], None]]] = {}
        self.soon: List[Callable[[], None]] = []

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback: Callable[[], None]) -> object:
        handle = object()
        self.pending[handle] = (when, callback)
        return handle

    def cancel(self, handle: object) -> None:
        self.pending.pop(handle, None)

    def call_soon(self, callback: Callable[[], None]) -> None:
        self.soon.append(callback)

    def end_iteration(self) -> None:
        """Run what ``call_soon`` queued, as the end of a loop iteration would."""
        while self.soon:
            batch, self.soon = self.soon, []
            for callback in batch:
                callback()

    def advance(self, seconds: float) -> None:
        """Move the clock, running due callbacks in deadline order."""
        target = self.now + seconds
        self.end_iteration()
        while True:
            due = [(w, h) for h, (w, _) in self.pending.items() if w <= target]
            if not due:
                break
            when, handle = min(due, key=lambda x: x[0])
            _, callback = self.pending.pop(handle)
            self.now = max(self.now, when)
            callback()
        self.now = target


class FakeReceiver:
    """Takes ``capacity`` frames (None: unlimited), like a streaming response."""

    def __init__(self, capacity: Optional[int] = None):
        self.frames: List[str] = []
        self.closed: Optional[Tuple[int, str]] = None
        self.capacity = capacity

    def send_frame(self, frame: str) -> bool:
        assert self.closed is None, "frame after close: %r" % frame
        self.frames.append(frame)
        return self.capacity is None or len(self.frames) < self.capacity

    def close(self, code: int = 1000, reason: str = "Normal closure") -> None:
        assert self.closed is None, "closed twice"
        self.closed = (code, reason)


class WireReceiver(FakeReceiver):
    """Like a websocket receiver: takes pre-built bytes of one wire format
    (``wires``: each bytes object as handed over)."""

    wire_format = "test-wire"

    def __init__(self) -> None:
        super().__init__()
        self.wires: List[bytes] = []

    @staticmethod
    def encode_wire(frame: str) -> bytes:
        return b"<" + frame.encode("utf-8") + b">"

    def write_prebuilt(self, wire: bytes) -> bool:
        self.wires.append(wire)
        self.frames.append(wire[1:-1].decode("utf-8"))
        return True


def polling() -> FakeReceiver:
    return FakeReceiver(capacity=1)


class StringHttpReceiver(tp.HttpReceiver):
    """The real core receiver, writing into a string."""

    def __init__(self, framing: tp.Framing, limit: int):
        super().__init__(framing, limit)
        self.out: List[str] = []
        self.finished = False

    def write(self, data: str) -> None:
        assert not self.finished
        self.out.append(data)

    def finish(self) -> None:
        self.finished = True


class Recorder(SockJSConnection):
    """Records callbacks in ``events`` (shared per test via the class)."""

    events: List[Any] = []
    on_open_hook: Optional[Callable[["Recorder"], None]] = None

    def on_open(self, info) -> None:
        self.events.append(("open", self))
        if self.on_open_hook:
            type(self).on_open_hook(self)

    def on_message(self, message: str) -> None:
        self.events.append(("message", message))

    def on_close(self) -> None:
        self.events.append(("close", self))


def make_service(app=None, codec: str = "json", **options) -> Tuple[Service, FakeTimers]:
    timers = FakeTimers()
    if app is None:
        app = type("App", (Recorder,), {"events": []})
    svc = Service("/test", connection_class=app, options=ServiceOptions(**options),
                  codec=load_codec(codec), timers=timers)
    return svc, timers


def naive_and_fast(app):
    """One open xhr session of ``app`` in a naive and one in a fast service:
    (naive receiver, fast receiver, end_iteration of both services)."""
    naive_svc, naive_timers = make_service(app, broadcast=NAIVE)
    fast_svc, fast_timers = make_service(app, broadcast=FAST)
    rn, rf = FakeReceiver(), FakeReceiver()
    naive_svc.create("n", info()).attach(rn)
    fast_svc.create("f", info()).attach(rf)

    def end_iteration():
        naive_timers.end_iteration()
        fast_timers.end_iteration()
    return rn, rf, end_iteration


def info():
    return ConnectionInfo(remote_ip="127.0.0.1", path="/test/1/2/xhr", headers={},
                          transport="xhr")


def messages_of(frames):
    """Every message of the a[...] frames, in order."""
    out = []
    for f in frames:
        if f.startswith("a"):
            out.extend(json.loads(f[1:]))
    return out


def open_sessions(svc: Service, n: int, receiver: Optional[Callable[[], Any]] = None) -> List[Tuple[Any, Any]]:
    """``n`` open sessions of ``svc``, each with a fresh receiver attached
    (WireReceiver unless told): [(session, receiver)]."""
    make = WireReceiver if receiver is None else receiver
    out = []
    for i in range(n):
        s = svc.create("s%d" % i, info())
        r = make()
        s.attach(r)
        out.append((s, r))
    return out
