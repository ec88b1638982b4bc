"""Many ``ws_session.Client`` sessions on one selector, in one thread: open
them (at most ``IN_FLIGHT`` handshakes at a time), read what the server
sends (counting bytes, or parsing frames), notice the sessions the server
closes, and drop them all with a reset."""
from __future__ import annotations

import json
import os
import selectors
import socket
import struct
import time
from typing import List

from ws_session import Client

#: Handshakes in flight at once (under the default listen backlog of 128).
IN_FLIGHT = 100


class Driver:
    """The selector loop over every client socket."""

    def __init__(self, host: str, port: int, prefix: str = "/broadcast"):
        self.host, self.port, self.prefix = host, port, prefix
        self.sel = selectors.DefaultSelector()
        self.received_bytes = 0
        #: Open sessions the server closed or reset.
        self.closed_by_server = 0
        #: Of those, the ones seen to get ``c[1008,...]`` ("client not
        #: reading") first (a reset may come before it is read).
        self.closed_1008 = 0

    def lost(self, c: "Client") -> None:
        """The server closed ``c`` (seen as EOF or a reset): count it once."""
        if c.state == "closed":
            return
        if c.state == "open":
            self.closed_by_server += 1
        try:
            self.sel.unregister(c.sock)
        except (KeyError, ValueError):
            pass
        c.state = "closed"

    def open_sessions(self, count: int, *, first_index: int, parse: bool,
                      deadline: float) -> List[Client]:
        """``count`` open sessions, numbered from ``first_index``; ``parse``:
        keep their messages (else only count bytes)."""
        clients: List[Client] = []
        opened = in_flight = 0
        next_index = 0
        while opened < count:
            while in_flight < IN_FLIGHT and next_index < count:
                c = Client(first_index + next_index, parse=parse)
                next_index += 1
                c.sock.connect_ex((self.host, self.port))
                self.sel.register(c.sock, selectors.EVENT_WRITE, c)
                clients.append(c)
                in_flight += 1
            if time.monotonic() > deadline:
                raise SystemExit("overload: only %d of %d sessions opened" % (opened, count))
            for key, _ in self.sel.select(timeout=0.5):
                c = key.data
                was_open = c.state == "open"
                self.handle(c)
                if not was_open and c.state == "open":
                    opened += 1
                    in_flight -= 1
        return clients

    def handle(self, c: Client) -> None:
        if c.state == "connecting":
            err = c.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if err:
                raise SystemExit("overload: connect failed: %s" % os.strerror(err))
            c.sock.send(("GET %s/000/s%d/websocket HTTP/1.1\r\nHost: %s:%d\r\n"
                         "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n"
                         % (self.prefix, c.index, self.host, self.port)).encode())
            c.state = "handshake"
            self.sel.modify(c.sock, selectors.EVENT_READ, c)
            return
        try:
            data = c.sock.recv(1 << 18)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:  # ECONNRESET
            data = b""
        if not data:
            self.lost(c)
            return
        self.received_bytes += len(data)
        if c.state == "open" and not c.parse:
            # Overload phase: read and drop, but notice the 1008 close.
            if b"c[1008" in c.tail + data[:8] or b"c[1008" in data:
                self.closed_1008 += 1
                c.tail = b""
            else:
                c.tail = data[-8:]
            return
        c.buf += data
        if c.state == "handshake":
            end = c.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            if not c.buf.startswith(b"HTTP/1.1 101"):
                raise SystemExit("overload: handshake refused: %r" % bytes(c.buf[:200]))
            del c.buf[:end + 4]
            c.state = "upgraded"
        for _, payload in c.frames():
            text = payload.decode("utf-8", "replace")
            if c.state == "upgraded" and text == "o":
                c.state = "open"
                if not c.parse:
                    c.buf.clear()
                    return
            elif c.parse and text.startswith("a"):
                c.texts.extend(json.loads(text[1:]))

    def pump(self, timeout: float) -> None:
        for key, _ in self.sel.select(timeout=timeout):
            self.handle(key.data)

    def drop(self, clients: List[Client]) -> None:
        """Disconnect with a RST (SO_LINGER 0): a client that vanished."""
        for c in clients:
            if c.state != "closed":
                try:
                    self.sel.unregister(c.sock)
                except (KeyError, ValueError):
                    pass
            c.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            c.sock.close()
