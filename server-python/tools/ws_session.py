"""One framed SockJS websocket session of a load tool, on a non-blocking
socket: the masked client frames it sends, and a send that never blocks
(what TCP does not take now is kept, and the next message is refused until
it has gone). ``ws_driver.py`` runs many of them on one selector."""
from __future__ import annotations

import socket
import struct
from typing import List

from sockbench_server.protocol.wsframes import pop_frames


def ws_frame(text: str) -> bytes:
    """A masked client text frame (the mask is fixed: nothing to hide here)."""
    payload = text.encode("utf-8")
    mask = b"\x01\x02\x03\x04"
    n = len(payload)
    if n < 126:
        head = bytes((0x81, 0x80 | n))
    elif n <= 0xFFFF:
        head = struct.pack("!BBH", 0x81, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
    masked = bytes(b ^ mask[i & 3] for i, b in enumerate(payload))
    return head + mask + masked


class Client:
    """One websocket session: connect, handshake, then frames."""

    __slots__ = ("sock", "index", "buf", "state", "pending", "parse", "texts", "tail",
                 "reset")

    def __init__(self, index: int, *, parse: bool):
        self.index = index
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        self.buf = bytearray()
        self.state = "connecting"
        #: Bytes of a message the socket did not fully take yet.
        self.pending = b""
        #: Parse frames (light phase) or just count bytes (overload phase).
        self.parse = parse
        self.texts: List[str] = []
        #: The last bytes read while not parsing, to spot ``c[1008`` split
        #: across two reads.
        self.tail = b""
        #: The server reset the connection under a send (it closed it).
        self.reset = False

    def frames(self):
        return pop_frames(self.buf)

    def send(self, data: bytes) -> bool:
        """Send a whole message or nothing new: False if the socket still
        holds part of an earlier one (TCP pushes back)."""
        if self.reset:
            return False
        if self.pending:
            self.flush()
            if self.pending:
                return False
        try:
            sent = self.sock.send(data)
        except BlockingIOError:
            return False
        except OSError:  # ECONNRESET, EPIPE: the server closed this session
            self.reset = True
            return False
        self.pending = data[sent:]
        return True

    def flush(self) -> None:
        if self.pending:
            try:
                sent = self.sock.send(self.pending)
            except BlockingIOError:
                return
            except OSError:
                self.reset = True
                self.pending = b""
                return
            self.pending = self.pending[sent:]
