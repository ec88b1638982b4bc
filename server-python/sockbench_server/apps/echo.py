from __future__ import annotations

from ..api import SockJSConnection


class EchoConnection(SockJSConnection):
    """Sends each message back to its own connection. On a raw websocket a
    binary message comes back as the same binary message (RFC 6455 echo, as
    Autobahn|Testsuite expects); on SockJS transports everything is text."""

    binary_messages = True

    def on_message(self, message: str) -> None:
        self.send(message)
