"""JSON codecs for the SockJS framing: selection, wrappers and refusal reasons.

SockJS puts three demands on the JSON library (sockjs-protocol 0.3.3,
``JSONEncoding`` and ``EventSource`` tests):

1. every character of :data:`SERVER_ESCAPABLE` leaves the server as a
   ``\\uXXXX`` escape with lower-case hex digits (the suite compares text);
2. every string a client escapes decodes back to itself (round trip);
3. control characters use the usual short escapes (``\\n``, ``\\u0000``).

Each supported library is wrapped in a :class:`Codec` whose ``encode_str``
returns one JSON string literal that meets those rules, and whose ``decode``
parses one JSON text. Before a codec is used, :func:`select_codec` runs
:func:`self_test` on it; a library that is missing or breaks a rule is refused
with a :class:`CodecError` that says why.
"""
from __future__ import annotations

import json as _stdjson
import re
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

CODEC_NAMES = ("json", "simplejson", "ujson", "orjson")

#: Characters a SockJS server must send escaped (sockjs-protocol
#: ``escapable_by_server``), plus lone surrogates, which cannot be UTF-8.
SERVER_ESCAPABLE = re.compile(
    "[\x00-\x1f\u200c-\u200f\u2028-\u202f\u2060-\u206f\ufff0-\uffff\ud800-\udfff]"
)

#: Characters sockjs-client escapes before sending (sockjs-protocol
#: ``escapable_by_client``); the server must decode all of them.
CLIENT_ESCAPABLE = re.compile(
    "[\\\\\"\x00-\x1f\x7f-\x9f\u00ad\u0600-\u0604\u070f\u17b4\u17b5\u2000-\u20ff"
    "\ufeff\ufff0-\uffff\x00-\x1f\ufffe\uffff\u0300-\u0333\u033d-\u0346"
    "\u034a-\u034c\u0350-\u0352\u0357-\u0358\u035c-\u0362\u0374\u037e\u0387"
    "\u0591-\u05af\u05c4\u0610-\u0617\u0653-\u0654\u0657-\u065b\u065d-\u065e"
    "\u06df-\u06e2\u06eb-\u06ec\u0730\u0732-\u0733\u0735-\u0736\u073a\u073d"
    "\u073f-\u0741\u0743\u0745\u0747\u07eb-\u07f1\u0951\u0958-\u095f"
    "\u09dc-\u09dd\u09df\u0a33\u0a36\u0a59-\u0a5b\u0a5e\u0b5c-\u0b5d"
    "\u0e38-\u0e39\u0f43\u0f4d\u0f52\u0f57\u0f5c\u0f69\u0f72-\u0f76\u0f78"
    "\u0f80-\u0f83\u0f93\u0f9d\u0fa2\u0fa7\u0fac\u0fb9\u1939-\u193a\u1a17"
    "\u1b6b\u1cda-\u1cdb\u1dc0-\u1dcf\u1dfc\u1dfe\u1f71\u1f73\u1f75\u1f77"
    "\u1f79\u1f7b\u1f7d\u1fbb\u1fbe\u1fc9\u1fcb\u1fd3\u1fdb\u1fe3\u1feb"
    "\u1fee-\u1fef\u1ff9\u1ffb\u1ffd\u2000-\u2001\u20d0-\u20d1\u20d4-\u20d7"
    "\u20e7-\u20e9\u2126\u212a-\u212b\u2329-\u232a\u2adc\u302b-\u302c"
    "\uaab2-\uaab3\uf900-\ufa0d\ufa10\ufa12\ufa15-\ufa1e\ufa20\ufa22"
    "\ufa25-\ufa26\ufa2a-\ufa2d\ufa30-\ufa6d\ufa70-\ufad9\ufb1d\ufb1f"
    "\ufb2a-\ufb36\ufb38-\ufb3c\ufb3e\ufb40-\ufb41\ufb43-\ufb44\ufb46-\ufb4e]"
)


class CodecError(Exception):
    """A codec cannot be used; the message says why (one line)."""


def _escape_match(m: "re.Match[str]") -> str:
    return "\\u%04x" % ord(m.group())


def sockjs_escape(text: str) -> str:
    """Escape the SockJS server set in already-encoded JSON text.

    Only needed for encoders that emit raw UTF-8; ASCII text passes untouched.
    """
    if text.isascii():
        return text
    return SERVER_ESCAPABLE.sub(_escape_match, text)


_std_encode_str: Callable[[str], str] = _stdjson.encoder.encode_basestring_ascii  # type: ignore[attr-defined]
_std_loads = _stdjson.loads


class Codec:
    """One JSON library, wrapped for SockJS.

    ``encode_str(s)`` returns the JSON string literal for ``s`` (quotes
    included) obeying the SockJS escaping rules; ``decode(text)`` parses one
    JSON document and raises ``ValueError`` on malformed input.
    """

    __slots__ = ("name", "version", "encode_str", "decode")

    def __init__(self, name: str, version: str,
                 encode_str: Callable[[str], str], decode: Callable[[str], Any]):
        self.name = name
        self.version = version
        self.encode_str = encode_str
        self.decode = decode

    def encode_array(self, messages: List[str]) -> str:
        """``["m1","m2"]`` for a list of strings."""
        enc = self.encode_str
        return "[" + ",".join([enc(m) for m in messages]) + "]"

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return "<Codec %s %s>" % (self.name, self.version)


def _make_json() -> Codec:
    return Codec(name="json", version="stdlib", encode_str=_std_encode_str, decode=_std_loads)


def _make_simplejson() -> Codec:
    import simplejson  # type: ignore[import-not-found]

    enc = simplejson.encoder.encode_basestring_ascii
    return Codec(name="simplejson", version=simplejson.__version__, encode_str=enc,
                 decode=simplejson.loads)


def _make_ujson() -> Codec:
    import ujson  # type: ignore[import-not-found]

    dumps = ujson.dumps
    loads = ujson.loads

    def encode_str(s: str) -> str:
        try:
            return dumps(s, ensure_ascii=True, escape_forward_slashes=False)
        except (UnicodeEncodeError, OverflowError, ValueError):
            # Lone surrogates; the stdlib escapes them as \udXXX.
            return _std_encode_str(s)

    return Codec(name="ujson", version=ujson.__version__, encode_str=encode_str, decode=loads)


def _make_orjson() -> Codec:
    import orjson  # type: ignore[import-not-found]

    dumps = orjson.dumps
    loads = orjson.loads

    def encode_str(s: str) -> str:
        try:
            out = dumps(s).decode("utf-8")
        except TypeError:
            # orjson refuses str with lone surrogates.
            return _std_encode_str(s)
        if out.isascii():
            return out
        return SERVER_ESCAPABLE.sub(_escape_match, out)

    def decode(text: str) -> Any:
        try:
            return loads(text)
        except ValueError:
            # orjson rejects escaped lone surrogates ("\ud800"), which are
            # valid JSON that browsers do send; only then ask the stdlib.
            return _std_loads(text)

    return Codec(name="orjson", version=orjson.__version__, encode_str=encode_str, decode=decode)


_FACTORIES: Dict[str, Callable[[], Codec]] = {
    "json": _make_json,
    "simplejson": _make_simplejson,
    "ujson": _make_ujson,
    "orjson": _make_orjson,
}


def runtime_name() -> str:
    return "pypy" if sys.implementation.name == "pypy" else "cpython"


def _not_installed_reason(name: str) -> str:
    if name == "orjson" and runtime_name() == "pypy":
        return "codec 'orjson' is not available on PyPy: orjson supports CPython only"
    return ("codec %r is not installed for this interpreter (%s): "
            "install it with pip or run 'make setup'" % (name, sys.executable))


# Strings from sockjs-protocol's JSONEncoding tests, built the same way.
def server_killer_string() -> Tuple[str, str]:
    """(raw string, exact JSON text the server must send for it)."""
    chars = [chr(i) for i in range(255, 65536) if SERVER_ESCAPABLE.match(chr(i))
             and not 0xD800 <= i <= 0xDFFF]
    return "".join(chars), '"' + "".join("\\u%04x" % ord(c) for c in chars) + '"'


def client_killer_string() -> Tuple[str, str]:
    """(raw string, the escaped JSON text a client sends for it)."""
    chars = [chr(i) for i in range(65536) if CLIENT_ESCAPABLE.match(chr(i))]
    return "".join(chars), '"' + "".join("\\u%04x" % ord(c) for c in chars) + '"'


def self_test(codec: Codec) -> Optional[str]:
    """Check a codec against the SockJS rules; return why it fails, or None."""
    raw, expected = server_killer_string()
    got = codec.encode_str(raw)
    if got != expected:
        return ("it does not escape the characters SockJS servers must escape "
                "(U+200C..U+200F, U+2028..U+202F, U+2060..U+206F, U+FFF0..U+FFFF) "
                "as lower-case \\uXXXX")
    raw, escaped = client_killer_string()
    try:
        back = codec.decode("[" + escaped + "]")
    except ValueError as e:
        return "it cannot decode the characters sockjs-client escapes (%s)" % e
    if back != [raw]:
        return "it does not decode the characters sockjs-client escapes back to themselves"
    if codec.encode_str('  \x00\n\r "/') != '"  \\u0000\\n\\r \\"/"':
        return "its control-character or slash escaping differs from JSON.stringify"
    if codec.decode(codec.encode_str("\ud800")) != "\ud800":
        return "it cannot round-trip a lone surrogate"
    for broken in ('["x', '["a"]x', "[1,]"):
        try:
            codec.decode(broken)
        except ValueError:
            continue
        return "it accepts malformed JSON (%r)" % broken
    return None


def load_codec(name: str) -> Codec:
    """Import and wrap a codec without checking it."""
    if name not in _FACTORIES:
        raise CodecError("unknown codec %r (choose from %s)" % (name, ", ".join(CODEC_NAMES)))
    try:
        return _FACTORIES[name]()
    except ImportError:
        raise CodecError(_not_installed_reason(name)) from None


def select_codec(name: str) -> Codec:
    """The codec to run with, or :class:`CodecError` saying why not."""
    codec = load_codec(name)
    reason = self_test(codec)
    if reason:
        raise CodecError("codec %r %s refused: %s" % (name, codec.version, reason))
    return codec


def survey() -> Tuple[List[str], Dict[str, str]]:
    """(usable codec names, {refused name: reason}) for this interpreter."""
    usable: List[str] = []
    refused: Dict[str, str] = {}
    for name in CODEC_NAMES:
        try:
            select_codec(name)
        except CodecError as e:
            refused[name] = str(e)
        else:
            usable.append(name)
    return usable, refused
