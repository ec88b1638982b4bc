from __future__ import annotations

from ..api import SockJSConnection


class EchoConnection(SockJSConnection):
    """Sends each message back to its own connection."""

    def on_message(self, message: str) -> None:
        self.send(message)
