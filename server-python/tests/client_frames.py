"""Client-to-server websocket frames built byte by byte, for the tests of
our frame readers (tests/unit/test_ws_reader.py: the sans-I/O reader;
tests/server/test_rfc6455.py: the server over a socket). Masking is the
conformance suite's (``wsclient.mask_payload``), one XOR for megabytes."""
from __future__ import annotations

import os
import struct
import sys
from typing import Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "contract",
                                "conformance"))

from wsclient import mask_payload  # noqa: E402


def client_frame(opcode: int, payload: bytes = b"", fin: bool = True, rsv: int = 0, masked: bool = True,
                 length: int = -1, mask: Optional[bytes] = None) -> bytes:
    """A client frame; ``length`` overrides the announced payload length,
    ``mask`` the random 4-byte mask."""
    n = len(payload) if length < 0 else length
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    mbit = 0x80 if masked else 0
    if n < 126:
        head += bytes([mbit | n])
    elif n <= 0xFFFF:
        head += struct.pack("!BH", mbit | 126, n)
    else:
        head += struct.pack("!BQ", mbit | 127, n)
    if not masked:
        return head + payload
    mask = os.urandom(4) if mask is None else mask
    return head + mask + mask_payload(mask, payload)
