"""WebSocket wire helpers that need no socket.

* RFC 6455 server frames (unmasked): :func:`text_frame` builds the bytes of
  one text message once, so the same bytes can be written to many streams;
  :func:`pop_frames` reads them back off a byte buffer (tools and tests).
* RFC 6455 close codes: :func:`valid_close_code`.
* hixie-76 (draft-hixie-thewebsocketprotocol-76, the handshake old Safari and
  HAProxy setups speak): key arithmetic, challenge answer and 0x00/0xFF
  framing, with an incremental decoder.
"""
from __future__ import annotations

import hashlib
import struct
from typing import Callable, Iterator, List, Optional, Tuple

# -- RFC 6455 ------------------------------------------------------------------

_FIN_TEXT = 0x81
_FIN_RSV1_TEXT = 0xC1  # a compressed text message in one frame (RFC 7692 6)
_FIN_BINARY = 0x82
_FIN_CLOSE = 0x88


def _short_headers(first_byte: int) -> Tuple[bytes, ...]:
    """The 2-byte headers of the final, unmasked frames starting with
    ``first_byte`` whose payload is under 126 bytes, by payload length."""
    return tuple(bytes((first_byte, n)) for n in range(126))


#: ``TEXT_HEADERS[n]`` heads a text frame of ``n`` < 126 payload bytes:
#: ``TEXT_HEADERS[n] + payload`` is ``text_frame(payload)``, for a caller
#: that writes once per copy of every message (naive mode's websocket
#: receiver) and so saves the call.
TEXT_HEADERS = _short_headers(_FIN_TEXT)


def _frame_builder(first_byte: int, doc: str,
                   short_headers: Optional[Tuple[bytes, ...]] = None) -> Callable[[bytes], bytes]:
    """A builder of final, unmasked frames starting with ``first_byte``; a
    closure rather than a shared helper so the hot path (a text frame per
    message in naive mode) makes no extra call. The 126 short headers are
    built once: a short frame is then one concatenation, with no tuple and
    no header object made per frame (PyPy's naive profile had 7.5 % here)."""
    if short_headers is None:
        short_headers = _short_headers(first_byte)

    def build(payload: bytes) -> bytes:
        n = len(payload)
        if n < 126:
            return short_headers[n] + payload
        if n <= 0xFFFF:
            return struct.pack("!BBH", first_byte, 126, n) + payload
        return struct.pack("!BBQ", first_byte, 127, n) + payload
    build.__doc__ = doc
    return build


text_frame = _frame_builder(_FIN_TEXT, "One final, unmasked text frame carrying ``payload`` (UTF-8 bytes).",
                            TEXT_HEADERS)
binary_frame = _frame_builder(_FIN_BINARY, "One final, unmasked binary frame.")
compressed_text_frame = _frame_builder(
    _FIN_RSV1_TEXT, "One final, unmasked text frame with RSV1 set: ``payload`` is a "
    "permessage-deflate message (compressed, the 00 00 ff ff tail removed).")


def close_frame(code: int, reason: str = "") -> bytes:
    """An unmasked close frame (reason truncated to fit 125 bytes)."""
    data = struct.pack("!H", code) + reason.encode("utf-8")[:123]
    return bytes((_FIN_CLOSE, len(data))) + data


def pop_frames(buf: bytearray) -> Iterator[Tuple[int, bytes]]:
    """The complete unmasked frames at the front of ``buf``, as (opcode,
    payload), each removed from ``buf`` as it is yielded; stops at the first
    incomplete one and leaves it there for the next read.

    The reading side of :func:`text_frame`, for tools and tests that read a
    server's frames off raw sockets (the server itself reads client frames
    through Tornado). FIN and RSV bits are not checked: callers read frames
    this server wrote, which are never fragmented.
    """
    while len(buf) >= 2:
        n, offset = buf[1] & 0x7F, 2
        if n == 126:
            if len(buf) < 4:
                return
            n, offset = struct.unpack_from("!H", buf, 2)[0], 4
        elif n == 127:
            if len(buf) < 10:
                return
            n, offset = struct.unpack_from("!Q", buf, 2)[0], 10
        if len(buf) < offset + n:
            return
        opcode = buf[0] & 0x0F
        payload = bytes(buf[offset:offset + n])
        del buf[:offset + n]
        yield opcode, payload


def valid_close_code(code: int) -> bool:
    """Whether a peer may send ``code`` in a close frame (RFC 6455 7.4)."""
    if 1000 <= code <= 1014:
        return code not in (1004, 1005, 1006)
    return 3000 <= code <= 4999


# -- hixie-76 ------------------------------------------------------------------

class HandshakeError(ValueError):
    pass


def hixie76_key_number(key: str) -> int:
    """Digits of a Sec-WebSocket-Key1/2 value divided by its space count."""
    digits = "".join(c for c in key if c.isdigit())
    spaces = key.count(" ")
    if not digits or spaces == 0:
        raise HandshakeError("malformed Sec-WebSocket-Key")
    number = int(digits)
    if number % spaces:
        raise HandshakeError("Sec-WebSocket-Key is not a multiple of its spaces")
    return number // spaces


def hixie76_challenge(key1: str, key2: str, nonce: bytes) -> bytes:
    """The 16-byte answer to the client's 8-byte nonce."""
    if len(nonce) != 8:
        raise HandshakeError("hixie-76 nonce must be 8 bytes")
    n1 = hixie76_key_number(key1)
    n2 = hixie76_key_number(key2)
    if n1 > 0xFFFFFFFF or n2 > 0xFFFFFFFF:
        raise HandshakeError("Sec-WebSocket-Key out of range")
    return hashlib.md5(struct.pack(">II", n1, n2) + nonce).digest()


def hixie76_response_head(origin: str, location: str) -> bytes:
    """Status line and headers, sent before the nonce arrives (HAProxy)."""
    lines = [
        "HTTP/1.1 101 WebSocket Protocol Handshake",
        "Upgrade: WebSocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Origin: " + origin,
        "Sec-WebSocket-Location: " + location,
        "", "",
    ]
    return "\r\n".join(lines).encode("utf-8")


def hixie76_frame(text: str) -> bytes:
    return b"\x00" + text.encode("utf-8") + b"\xff"


HIXIE76_CLOSE = b"\xff\x00"


class Hixie76Decoder:
    """Feed bytes, get complete text messages; ``closed`` once the client
    sent the closing handshake or an unsupported frame."""

    def __init__(self, max_message: int = 10 * 1024 * 1024):
        self.buf = bytearray()
        self.closed = False
        self.max_message = max_message

    def feed(self, data: bytes) -> List[str]:
        out: List[str] = []
        if self.closed:
            return out
        self.buf += data
        while self.buf:
            kind = self.buf[0]
            if kind == 0x00:
                end = self.buf.find(b"\xff", 1)
                if end < 0:
                    if len(self.buf) > self.max_message:
                        self.closed = True
                    break
                try:
                    out.append(bytes(self.buf[1:end]).decode("utf-8"))
                except UnicodeDecodeError:
                    self.closed = True
                    break
                del self.buf[:end + 1]
            elif kind == 0xFF:
                if len(self.buf) < 2:
                    break
                # 0xFF 0x00 is the closing handshake; length-prefixed binary
                # frames are not used by SockJS and end the connection too.
                self.closed = True
                break
            else:
                self.closed = True
                break
        return out

