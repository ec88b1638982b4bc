"""What one Redis PUBLISH carries between the processes of a broadcast domain
(docs/protocol.md section 6.1; server-node's src/relay-envelope.js is the same
format, so processes of both runtimes can share one Redis)::

    <origin><kind><body>

origin: 16 lowercase hex characters, random per process; a process drops its
own envelopes (it delivered them to its own sessions directly).
kind ``a``: kind+body is a whole SockJS ``a[...]`` frame (fast mode: one
publish per flush, the batch as encoded for the process's own sessions);
kind ``m``: body is one message, the raw string (naive: one per message).
"""

from __future__ import annotations

import json
import os
import re

ORIGIN_LENGTH = 16
_ORIGIN = re.compile(r"[0-9a-f]{16}\Z")


class EnvelopeError(ValueError):
    """Something on the channel that is not an envelope of this format."""


def new_origin() -> str:
    """A fresh origin id for this process."""
    return os.urandom(ORIGIN_LENGTH // 2).hex()


def batch_envelope(origin: str, frame: str) -> str:
    """The envelope of a flushed batch whose SockJS frame is ``frame`` (``a[...]``)."""
    return origin + frame


def message_envelope(origin: str, message: str) -> str:
    """The envelope of one message (naive mode)."""
    return origin + "m" + message


def open_envelope(envelope: str) -> tuple[str, str, str]:
    """-> (origin, kind, body); for kind ``a`` body is the whole ``a[...]`` frame."""
    origin = envelope[:ORIGIN_LENGTH]
    kind = envelope[ORIGIN_LENGTH:ORIGIN_LENGTH + 1]
    if not _ORIGIN.match(origin) or kind not in ("a", "m"):
        raise EnvelopeError(f"not a sockbench relay envelope: {envelope[:40]!r}")
    if kind == "a":
        if envelope[ORIGIN_LENGTH + 1:ORIGIN_LENGTH + 2] != "[" or not envelope.endswith("]"):
            raise EnvelopeError(f"batch envelope without an a[...] frame: {envelope[:40]!r}")
        return origin, kind, envelope[ORIGIN_LENGTH:]
    return origin, kind, envelope[ORIGIN_LENGTH + 1:]


def frame_messages(frame: str) -> list[str]:
    """The messages of an ``a[...]`` frame, for sessions that take them one by
    one (raw websockets, polling sessions between polls)."""
    try:
        messages = json.loads(frame[1:])
    except ValueError as exc:
        raise EnvelopeError(f"batch frame is not JSON: {exc}") from None
    if not isinstance(messages, list) or not all(isinstance(m, str) for m in messages):
        raise EnvelopeError("batch frame is not an array of strings")
    return messages
