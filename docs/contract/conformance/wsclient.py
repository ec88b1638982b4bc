"""A small blocking RFC 6455 websocket client for the tests (plain sockets,
CPython and PyPy 3.9). It exposes what the conformance tests need to see:
text messages in order, the close frame's code and reason, and the raw
frames when a test wants to send something unusual."""
from __future__ import annotations

import base64
import hashlib
import os
import socket
import struct
import time
from typing import Dict, Optional, Tuple
from urllib.parse import urlsplit

from sockjs_client import TIMEOUT, HttpError, RawHttpConnection, Response

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class ConnectionClosed(Exception):
    """The server closed the websocket: a close frame (``code``, ``reason``)
    or, for an abrupt end of the TCP connection, code 1006."""

    def __init__(self, code: int, reason: str):
        super().__init__("websocket closed: %s %r" % (code, reason))
        self.code = code
        self.reason = reason


class HandshakeFailed(Exception):
    def __init__(self, response: Response):
        super().__init__("websocket handshake failed: %s %r" % (response.status, response.headers))
        self.response = response


def http_url(url: str) -> str:
    return "http" + url[2:] if url.startswith("ws") else url


def mask_payload(mask: bytes, payload: bytes) -> bytes:
    """XOR ``payload`` with the repeated 4-byte ``mask`` (RFC 6455 5.3), as
    one big-integer XOR: a per-byte loop is far too slow for megabytes."""
    n = len(payload)
    if not n:
        return b""
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")


class WebSocket:
    def __init__(self, url: str, headers: Optional[Dict[str, str]] = None,
                 timeout: float = TIMEOUT):
        url = http_url(url)
        self.conn = RawHttpConnection(url, timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        u = urlsplit(url)
        h = {"Upgrade": "websocket", "Connection": "Upgrade",
             "Sec-WebSocket-Key": key, "Sec-WebSocket-Version": "13",
             "Origin": "%s://%s" % (u.scheme, u.netloc)}
        h.update(headers or {})
        self.timeout = timeout
        r = self.conn.request("GET", url, headers=h)
        self.response = r
        if r.status != 101:
            self.conn.close()
            raise HandshakeFailed(r)
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        if r["Sec-WebSocket-Accept"] != accept:
            self.conn.close()
            raise HttpError("bad Sec-WebSocket-Accept %r" % r["Sec-WebSocket-Accept"])
        self.closed: Optional[Tuple[int, str]] = None

    # -- sending -----------------------------------------------------------

    def send_frame(self, opcode: int, payload: bytes, fin: bool = True) -> None:
        head = bytes([(0x80 if fin else 0) | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n <= 0xFFFF:
            head += struct.pack("!BH", 0x80 | 126, n)
        else:
            head += struct.pack("!BQ", 0x80 | 127, n)
        mask = os.urandom(4)
        masked = mask_payload(mask, payload)
        self.conn.send(head + mask + masked)

    def send(self, text: str) -> None:
        self.send_frame(0x1, text.encode("utf-8"))

    def send_close(self, code: Optional[int] = 1000, reason: str = "") -> None:
        payload = b"" if code is None else struct.pack("!H", code) + reason.encode("utf-8")
        self.send_frame(0x8, payload)

    # -- receiving ---------------------------------------------------------

    def recv_frame(self) -> Tuple[bool, int, bytes]:
        """(fin, opcode, payload) of the next frame."""
        try:
            b1, b2 = self.conn.read_bytes(2)
        except HttpError:
            raise ConnectionClosed(1006, "") from None
        opcode = b1 & 0x0F
        n = b2 & 0x7F
        if n == 126:
            n = struct.unpack("!H", self.conn.read_bytes(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", self.conn.read_bytes(8))[0]
        if b2 & 0x80:
            raise HttpError("server frames must not be masked")
        return bool(b1 & 0x80), opcode, self.conn.read_bytes(n) if n else b""

    def recv(self) -> str:
        """The next text message; raises :class:`ConnectionClosed` at the end
        and ``socket.timeout`` if no message comes within the timeout (pings
        and pongs do not count)."""
        if self.closed:
            raise ConnectionClosed(*self.closed)
        parts = []
        deadline = time.monotonic() + self.timeout
        while True:
            if time.monotonic() > deadline:
                raise socket.timeout("no websocket message within %.1fs" % self.timeout)
            fin, opcode, data = self.recv_frame()
            if opcode == 0x8:
                code = struct.unpack("!H", data[:2])[0] if len(data) >= 2 else 1005
                reason = data[2:].decode("utf-8")
                self.closed = (code, reason)
                try:
                    self.send_close(code if len(data) >= 2 else None)
                except OSError:
                    pass
                raise ConnectionClosed(code, reason)
            if opcode == 0x9:
                self.send_frame(0xA, data)
                continue
            if opcode == 0xA:
                continue
            parts.append(data)
            if fin:
                return b"".join(parts).decode("utf-8")

    def close(self) -> None:
        try:
            if not self.closed:
                self.send_close(1000)
        except OSError:
            pass
        self.conn.close()
