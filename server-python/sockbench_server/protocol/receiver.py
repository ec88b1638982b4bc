"""The interfaces the I/O layer implements for the core (a leaf module).

* :class:`Receiver`: whatever can carry frames to the client right now (an
  HTTP response, a websocket). Every receiver has ``send_frame`` and
  ``close``.
* :class:`WireReceiver`: a receiver that also takes pre-built bytes - the
  websockets. Sessions that send the same frame build its bytes once per
  ``wire_format`` (``encode_wire``) and hand the same object to every
  connection (``write_prebuilt``). A receiver without ``wire_format``
  (``getattr(r, "wire_format", None) is None``) is a plain :class:`Receiver`.
* :class:`Timers`: the event loop's clock and callbacks.

Receivers report trouble by raising ``errors.ReceiverGone`` (the connection
is gone) or ``errors.SlowConsumer`` (written, but the client is not reading).
"""
from __future__ import annotations

from typing import Any, Callable

try:
    from typing import Protocol
except ImportError:  # pragma: no cover - Python < 3.8 is not supported anyway
    Protocol = object  # type: ignore[assignment]


class Receiver(Protocol):
    def send_frame(self, frame: str) -> bool:
        """Write one SockJS frame; False when this receiver takes no more
        (a polling response, a streaming one past ``response_limit``)."""

    def close(self, code: int = 1000, reason: str = "Normal closure") -> None:
        """End the connection (websockets: a close frame with ``code``)."""


class WireReceiver(Receiver, Protocol):
    #: Name of the byte format (``"rfc6455"``, ``"hixie76"``): receivers with
    #: the same format take the same bytes for the same frame.
    wire_format: str

    def encode_wire(self, frame: str) -> bytes:
        """The bytes of ``frame`` in this receiver's wire format."""

    def write_prebuilt(self, wire: bytes) -> bool:
        """Write bytes made by ``encode_wire`` (of any receiver with the
        same ``wire_format``); always True (a websocket takes more)."""


class Timers(Protocol):
    def time(self) -> float:
        """Monotonic seconds."""

    def call_at(self, when: float, callback: Callable[[], None]) -> Any:
        """Run ``callback`` at ``when``; returns a handle for :meth:`cancel`."""

    def cancel(self, handle: Any) -> None: ...

    def call_soon(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` at the end of this loop iteration."""
