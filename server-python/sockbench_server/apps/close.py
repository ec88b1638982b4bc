from __future__ import annotations

from ..api import SockJSConnection
from ..protocol.options import ConnectionInfo


class CloseConnection(SockJSConnection):
    """Closes every connection right after it opens, with c[3000,"Go away!"]."""

    def on_open(self, info: ConnectionInfo) -> None:
        self.close(3000, "Go away!")
