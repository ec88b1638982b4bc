"""SockJS frames: what the server sends (o, h, a[...], c[...]) and how the
payloads clients send are decoded. Pure functions over strings; no I/O.
"""
from __future__ import annotations

from typing import Any, List

from .codecs import Codec

OPEN = "o"
HEARTBEAT = "h"


class BadPayload(ValueError):
    """Client data that cannot be accepted; ``str(e)`` is the SockJS error text."""

    message = "Payload expected."

    def __str__(self) -> str:
        return self.message


class PayloadExpected(BadPayload):
    """Empty body, or JSON that is not an array of strings."""

    message = "Payload expected."


class BrokenJSON(BadPayload):
    """The body is not valid JSON (or not valid UTF-8)."""

    message = "Broken JSON encoding."


def message_frame(fragments: List[str]) -> str:
    """``a[...]`` from already-encoded JSON string literals."""
    if len(fragments) == 1:
        return "a[" + fragments[0] + "]"
    return "a[" + ",".join(fragments) + "]"


def messages_frame(codec: Codec, messages: List[str]) -> str:
    """``a[...]`` for plain strings."""
    return "a" + codec.encode_array(messages)


def close_frame(codec: Codec, code: int, reason: str) -> str:
    """``c[3000,"Go away!"]``."""
    return "c[%d,%s]" % (int(code), codec.encode_str(reason))


def _check_strings(value: List[Any]) -> List[str]:
    for item in value:
        if type(item) is not str:
            raise PayloadExpected()
    return value


def decode_messages(codec: Codec, text: str) -> List[str]:
    """Messages from an HTTP send body (``xhr_send``, ``jsonp_send``).

    SockJS requires a JSON array of strings here. Raises
    :class:`PayloadExpected` for an empty body or any other JSON value and
    :class:`BrokenJSON` when the text is not JSON.
    """
    if not text:
        raise PayloadExpected()
    try:
        value = codec.decode(text)
    except (ValueError, RecursionError):
        raise BrokenJSON() from None
    if type(value) is not list:
        raise PayloadExpected()
    return _check_strings(value)


def decode_ws_messages(codec: Codec, text: str) -> List[str]:
    """Messages from one framed-websocket text message.

    A JSON array of strings or a single JSON string; an empty message carries
    nothing (the suite's ``test_empty_frame``). Raises :class:`BadPayload`.
    """
    if not text:
        return []
    try:
        value = codec.decode(text)
    except (ValueError, RecursionError):
        raise BrokenJSON() from None
    if type(value) is str:
        return [value]
    if type(value) is not list:
        raise PayloadExpected()
    return _check_strings(value)


def decode_body(body: bytes) -> str:
    """UTF-8 text of a request body; invalid UTF-8 is broken JSON."""
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise BrokenJSON() from None
