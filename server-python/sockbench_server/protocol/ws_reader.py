"""Reading the frames a websocket client sends (RFC 6455), without a socket.

:class:`ClientFrameReader` takes the bytes of one socket read at a time
(:meth:`ClientFrameReader.feed`) and returns every event they complete: a
text or binary message, a ping, a pong, the client's close, or a failure
that says which close code to send and whether to wait for the client's
close. A frame cut by the end of a read waits for the next one.

Why it exists: the server's reader used to await the socket for each field
of each frame (header, length, mask, payload), several futures and loop
callbacks per client message; at ~140k small messages/s that was most of
the inbound CPU. Parsing whatever one read holds leaves one future per
socket read (``tornado_io/rfc6455.py`` does the reading).

It is strict as Autobahn|Testsuite wants a server to be (RFC 6455 7.1.7,
8.1; the RFC 6455 tests in tests/server exercise it end to end):

* 1002 for reserved bits or opcodes, unmasked frames, control frames that
  are fragmented or over 125 bytes, a continuation with no message to
  continue, a new message before the previous one ended, a close frame with
  a 1-byte payload or with a code no endpoint may send;
* 1007 for invalid UTF-8 in a text message *as soon as the bad byte
  arrives*, even in the middle of a frame ("fail fast": each piece of a
  payload is fed to an incremental decoder as it comes), for bad deflate
  data, and for a close reason that is not UTF-8;
* 1009 for a message over ``max_message_size``, checked on each frame's
  header before its payload arrives.

After a failure the reader skips the refused frame if it is at most
:data:`DISCARDABLE` bytes, so that the client's answering close frame can
still be read (a clean close); data frames and pings are then dropped, and
only the client's close is reported. A bigger refused frame, or a second
failure, asks for the connection to be dropped.

permessage-deflate (RFC 7692) is the one extension: with an ``inflate``
function, RSV1 on the first frame of a data message marks it compressed; it
is collected whole, inflated, then (text) checked as UTF-8 - the fail-fast
check cannot run on compressed bytes.

This module reads client frames only: ``wsframes.pop_frames`` reads the
unmasked frames a server writes (tools and tests), whole and unchecked.
"""
from __future__ import annotations

import codecs
import zlib
from typing import Any, Callable, List, NamedTuple, Optional, Tuple

from .wsframes import valid_close_code

# -- events ---------------------------------------------------------------------
#
# Events are (kind, value) pairs; the kinds of frames are their opcodes.

#: (TEXT, str): a whole text message.
TEXT = 0x1
#: (BINARY, bytes): a whole binary message.
BINARY = 0x2
#: (CLOSE, Close): the client's valid close frame; nothing after it is read.
CLOSE = 0x8
#: (PING, bytes) and (PONG, bytes): the control frame's payload.
PING = 0x9
PONG = 0xA
#: (FAILURE, Failure): the client broke the protocol (see :class:`Failure`).
FAILURE = 0x100

Event = Tuple[int, Any]

PROTOCOL_ERROR = 1002
INVALID_PAYLOAD = 1007
TOO_BIG = 1009

#: Payload (bytes) of a refused frame that is read and dropped so that the
#: close handshake can complete; beyond this the connection is dropped.
DISCARDABLE = 1 << 16

#: What to do after sending a failure's close frame (:attr:`Failure.then`).
#: Wait for the client's close (RFC 6455 7.1.7); the reader reads on.
WAIT_FOR_CLOSE = "wait for the client's close"
#: Drop the connection now; the reader reads nothing more.
DROP = "drop the connection"
#: The failure was in the client's own close frame: the closing handshake is
#: over once ours is sent; the reader reads nothing more.
CLOSE_RECEIVED = "the client's close was received"

#: Opcodes RFC 6455 defines: continuation, text, binary, close, ping, pong.
KNOWN_OPCODES = frozenset((0x0, 0x1, 0x2, 0x8, 0x9, 0xA))

_Utf8Decoder = codecs.getincrementaldecoder("utf-8")


class Close(NamedTuple):
    """The client's close frame: its code (None if it sent none), reason
    and raw payload (what an echo of its code needs)."""
    code: Optional[int]
    reason: str
    payload: bytes


class Failure(NamedTuple):
    """The client broke the protocol: send a close frame with ``code`` and
    ``reason``, then do what ``then`` says (WAIT_FOR_CLOSE, DROP or
    CLOSE_RECEIVED). ``client_code`` is the close code the client sent when
    that code was the failure."""
    code: int
    reason: str
    then: str
    client_code: Optional[int] = None


# -- unmasking --------------------------------------------------------------------

def xor_unmask(mask: bytes, data: bytes) -> bytes:
    """``data`` XORed with the 4-byte ``mask`` repeated: one big-integer XOR
    over the whole payload, for interpreters without Tornado's C unmasking
    (PyPy); much faster there than a loop over the bytes."""
    n = len(data)
    if not n:
        return b""
    key = mask * ((n >> 2) + 1)
    return (int.from_bytes(data, "little") ^ int.from_bytes(key[:n], "little")).to_bytes(n, "little")


# -- the reader ------------------------------------------------------------------

class _Message:
    """A data message that spans more than one frame or read."""

    __slots__ = ("opcode", "compressed", "size", "parts", "decoder")

    def __init__(self, opcode: int, compressed: bool):
        self.opcode = opcode
        self.compressed = compressed
        #: Payload bytes so far (for ``max_message_size``).
        self.size = 0
        #: Decoded text (uncompressed text), else unmasked payload pieces.
        self.parts: List[Any] = []
        #: Checks UTF-8 as pieces arrive (uncompressed text only).
        self.decoder = _Utf8Decoder() if opcode == TEXT and not compressed else None


class ClientFrameReader:
    """RFC 6455 frames from a client, parsed from whatever each socket read
    holds (see the module docstring).

    ``inflate`` is given when permessage-deflate was negotiated: it inflates
    one compressed message, raising ``zlib.error`` on bad data and any other
    exception when the result would be too big. ``unmask(mask, data)``
    removes a 4-byte mask (:func:`xor_unmask` unless a faster one is given).
    """

    __slots__ = ("max_message_size", "_inflate", "_unmask", "_rest", "_message", "_failed",
                 "_done", "_left", "_mask", "_offset", "_fin")

    def __init__(self, max_message_size: int, inflate: Optional[Callable[[bytes], bytes]] = None,
                 unmask: Callable[[bytes, bytes], bytes] = xor_unmask):
        self.max_message_size = max_message_size
        self._inflate = inflate
        self._unmask = unmask
        #: The start of a frame whose header (or control payload) is incomplete.
        self._rest = b""
        #: The data message being received, if it spans frames or reads.
        self._message: Optional[_Message] = None
        #: A failure was reported: data frames and pings are dropped now.
        self._failed = False
        #: Nothing more is read (the client's close, or a dropped connection).
        self._done = False
        # The frame whose payload (or skipped bytes) the next read continues:
        # bytes still to come, its mask (None: skipped), the payload bytes
        # already seen (the mask continues where they ended) and its FIN bit.
        self._left = 0
        self._mask: Optional[bytes] = None
        self._offset = 0
        self._fin = 0

    @property
    def done(self) -> bool:
        """True once nothing more will be read: the client's close came, or a
        failure asked for the connection to be dropped."""
        return self._done

    def feed(self, data: bytes) -> List[Event]:
        """The events completed by ``data``, the next bytes from the client,
        in order. Nothing once :attr:`done`."""
        events: List[Event] = []
        if self._done:
            return events
        if type(data) is not bytes:
            data = bytes(data)
        if self._rest:
            data = self._rest + data
            self._rest = b""
        unmask = self._unmask
        pos, end = 0, len(data)
        while pos < end:
            if self._left:
                pos = self._continue_frame(data, pos, end, events)
                if self._left or self._done:
                    break
                continue

            # The header: 2 bytes, then the extended length if any.
            if pos + 2 > end:
                break
            b0 = data[pos]
            b1 = data[pos + 1]
            length = b1 & 0x7F
            if length < 126:
                head = pos + 2
            elif length == 126:
                head = pos + 4
                if head > end:
                    break
                length = (data[pos + 2] << 8) | data[pos + 3]
            else:
                head = pos + 10
                if head > end:
                    break
                length = int.from_bytes(data[pos + 2:head], "big")
            fin = b0 & 0x80
            opcode = b0 & 0x0F
            control = opcode & 0x8
            reserved = b0 & 0x70
            message = self._message

            # Refused as soon as the length is known, before the mask or
            # payload come (the client may never send them). Inline rather
            # than a helper: this runs once per client message.
            compressed = (reserved == 0x40 and self._inflate is not None
                          and (opcode == TEXT or opcode == BINARY))
            if reserved and not compressed:
                problem: Optional[str] = "Reserved bits set"
            elif opcode not in KNOWN_OPCODES:
                problem = "Reserved opcode %d" % opcode
            elif not b1 & 0x80:
                problem = "Client frames must be masked"
            elif control and (length > 125 or not fin):
                problem = "Control frames must be final and at most 125 bytes"
            elif opcode == 0 and message is None and not self._failed:
                problem = "Continuation frame without a message to continue"
            elif (opcode == TEXT or opcode == BINARY) and message is not None:
                problem = "New message before the previous one ended"
            else:
                problem = None
            if problem is not None:
                if self._failed or not b1 & 0x80 or length > DISCARDABLE:
                    self._stop(events, Failure(PROTOCOL_ERROR, problem, DROP))
                    break
                self._fail(events, Failure(PROTOCOL_ERROR, problem, WAIT_FOR_CLOSE))
                # Skip the frame (mask and payload): the client's answering
                # close frame can then still be read.
                self._left, self._mask = 4 + length, None
                pos = head
                continue
            if not control and (message.size if message is not None else 0) + length > self.max_message_size:
                self._stop(events, Failure(TOO_BIG, "Message too big", DROP))
                break
            if self._failed and not control:
                self._left, self._mask = 4 + length, None  # a data frame after we failed: dropped
                pos = head
                continue

            start = head + 4  # the payload, after the mask
            stop = start + length
            if control:
                if stop > end:
                    break  # at most 125 bytes: wait until all of it is here
                pos = stop
                self._control_frame(opcode, unmask(data[head:start], data[start:stop]), events)
                if self._done:
                    break
                continue
            if start > end:
                break  # the mask is not all here yet
            mask = data[head:start]
            if opcode:
                if fin and stop <= end:
                    # A whole message in this read: the common case, no state kept.
                    pos = stop
                    payload = unmask(mask, data[start:stop])
                    if compressed:
                        self._inflated(opcode, payload, events)
                        if self._done:
                            break
                    elif opcode == TEXT:
                        try:
                            events.append((TEXT, payload.decode("utf-8")))
                        except UnicodeDecodeError:
                            self._fail(events, Failure(INVALID_PAYLOAD, "Invalid UTF-8 in text message",
                                                       WAIT_FOR_CLOSE))
                    else:
                        events.append((BINARY, payload))
                    continue
                message = self._message = _Message(opcode, compressed)
            assert message is not None  # a continuation's message: checked above
            message.size += length
            self._left, self._mask, self._offset, self._fin = length, mask, 0, fin
            pos = self._continue_frame(data, start, end, events)
            if self._left or self._done:
                break

        if pos < end and not self._done:
            self._rest = data[pos:]
        return events

    # -- internals ---------------------------------------------------------

    def _continue_frame(self, data: bytes, pos: int, end: int, events: List[Event]) -> int:
        """Take what ``data[pos:end]`` holds of the current frame's payload
        (or of the bytes being skipped); returns the new position. Text is
        decoded piece by piece, so invalid UTF-8 fails at once."""
        left = self._left
        n = left if left <= end - pos else end - pos
        left -= n
        self._left = left
        mask = self._mask
        if mask is None:
            return pos + n  # skipped
        chunk = data[pos:pos + n]
        pos += n
        shift = self._offset & 3
        if shift:  # the mask goes on where the previous piece ended
            mask = mask[shift:] + mask[:shift]
        self._offset += n
        chunk = self._unmask(mask, chunk)
        message = self._message
        assert message is not None
        decoder = message.decoder
        if decoder is not None:
            try:
                message.parts.append(decoder.decode(chunk))
            except UnicodeDecodeError:
                if left:
                    # The rest of the frame may never come (Autobahn 6.4.3
                    # waits): after the close frame, drop the connection.
                    self._stop(events, Failure(INVALID_PAYLOAD, "Invalid UTF-8 in text message", DROP))
                else:
                    self._fail(events, Failure(INVALID_PAYLOAD, "Invalid UTF-8 in text message",
                                               WAIT_FOR_CLOSE))
                return pos
        elif chunk:
            message.parts.append(chunk)
        if not left:
            self._mask = None
            if self._fin:
                self._message_complete(events)
        return pos

    def _message_complete(self, events: List[Event]) -> None:
        message = self._message
        assert message is not None
        self._message = None
        if message.compressed:
            self._inflated(message.opcode, b"".join(message.parts), events)
        elif message.decoder is not None:
            try:
                tail = message.decoder.decode(b"", True)
            except UnicodeDecodeError:  # a code point cut off at the end
                self._fail(events, Failure(INVALID_PAYLOAD, "Invalid UTF-8 in text message", WAIT_FOR_CLOSE))
                return
            message.parts.append(tail)
            events.append((TEXT, "".join(message.parts)))
        else:
            events.append((BINARY, b"".join(message.parts)))

    def _inflated(self, opcode: int, data: bytes, events: List[Event]) -> None:
        """A compressed message, inflated (a text one checked as UTF-8)."""
        assert self._inflate is not None
        try:
            data = self._inflate(data)
        except zlib.error:
            self._fail(events, Failure(INVALID_PAYLOAD, "Invalid deflate data", WAIT_FOR_CLOSE))
            return
        except Exception:  # the inflater's own error for a message over its limit
            self._stop(events, Failure(TOO_BIG, "Message too big", DROP))
            return
        if opcode != TEXT:
            events.append((BINARY, data))
            return
        try:
            events.append((TEXT, data.decode("utf-8")))
        except UnicodeDecodeError:
            self._fail(events, Failure(INVALID_PAYLOAD, "Invalid UTF-8 in text message", WAIT_FOR_CLOSE))

    def _control_frame(self, opcode: int, payload: bytes, events: List[Event]) -> None:
        if opcode != CLOSE:
            if not self._failed:  # failed: nothing but the client's close matters now
                events.append((opcode, payload))
            return
        self._done = True  # nothing after the client's close is read
        self._message = None
        n = len(payload)
        if n == 0:
            events.append((CLOSE, Close(None, "", payload)))
        elif n == 1:
            events.append((FAILURE, Failure(PROTOCOL_ERROR, "Close frame with a 1-byte payload",
                                            CLOSE_RECEIVED)))
        else:
            code = (payload[0] << 8) | payload[1]
            if not valid_close_code(code):
                events.append((FAILURE, Failure(PROTOCOL_ERROR, "Invalid close code", CLOSE_RECEIVED,
                                                client_code=code)))
                return
            try:
                reason = payload[2:].decode("utf-8")
            except UnicodeDecodeError:
                events.append((FAILURE, Failure(INVALID_PAYLOAD, "Invalid UTF-8 in close reason",
                                                CLOSE_RECEIVED)))
                return
            events.append((CLOSE, Close(code, reason, payload)))

    def _fail(self, events: List[Event], failure: Failure) -> None:
        """Report ``failure`` and read on, waiting for the client's close."""
        self._failed = True
        self._message = None
        events.append((FAILURE, failure))

    def _stop(self, events: List[Event], failure: Failure) -> None:
        """Report ``failure``; nothing more is read."""
        self._done = True
        self._failed = True
        self._message = None
        self._left = 0
        events.append((FAILURE, failure))
