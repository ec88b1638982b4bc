"""A stricter RFC 6455 frame reader for Tornado's websocket protocol.

Tornado 6.5's ``WebSocketProtocol13`` reads frames correctly but fails
connections in ways the RFC (and Autobahn|Testsuite) do not accept:

* a client close frame with a code no endpoint may send (0, 999, 1004,
  1100, 2000, 65535, ... - Autobahn 7.9.x) is echoed instead of being
  answered with 1002;
* a close frame with a 1-byte payload (7.3.2) is answered with an empty
  close instead of 1002; one whose reason is not UTF-8 (7.5.1) raises inside
  the read loop and leaves the connection hanging;
* invalid UTF-8 in a text message is only noticed once the whole message
  arrived, then the TCP connection is dropped without a close frame; RFC
  6455 8.1 and Autobahn 6.4.x want it failed with 1007 as soon as the bad
  byte arrives ("fail fast"), even in the middle of a frame;
* protocol errors (reserved bits or opcodes, bad fragmentation, oversized
  or fragmented control frames, unmasked client frames) drop the TCP
  connection without saying why; here they get a 1002 close frame.

With permessage-deflate negotiated (``--compression``, docs/compression.md)
RSV1 marks a compressed message on its first frame (RFC 7692 6.1): such a
message is collected whole, inflated by Tornado's decompressor for this
connection, then checked as UTF-8 (text) - the fail-fast check cannot run on
compressed bytes.

:class:`StrictProtocol13` replaces Tornado's frame reader (``receive_frame`` here)
and keeps the rest of Tornado's protocol (handshake, writing, ping/pong,
the closing handshake and its 5 s timeout). The Tornado hooks it needs are
reached through ``tornado_private.FencedProtocol13``; the message being
reassembled lives in this class's own attributes. The RFC 6455 tests in
tests/server cover this class.
"""
from __future__ import annotations

import codecs
import struct
import zlib
from typing import Any, Awaitable, List, Optional

from ..protocol import wsframes
from .tornado_private import FencedProtocol13, websocket_mask

#: Opcodes RFC 6455 defines: continuation, text, binary, close, ping, pong.
KNOWN_OPCODES = frozenset((0x0, 0x1, 0x2, 0x8, 0x9, 0xA))
PROTOCOL_ERROR = 1002
INVALID_PAYLOAD = 1007
TOO_BIG = 1009
#: Payload (bytes) of a refused frame that is read and dropped so that the
#: close handshake can complete; beyond this the connection is dropped.
DISCARDABLE = 1 << 16


class StrictProtocol13(FencedProtocol13):
    """RFC 6455 with failures answered by the right close code, and UTF-8
    checked as text arrives (see the module docstring)."""

    # The message being received lives in slots, not in the instance dict Tornado's protocol already
    # fills with 27 keys: CPython 3.11 shares a dict's keys (with its class) only up to 30, and these
    # six, set by the first message, made every session that ever sent one carry a dict of its own
    # (1.3 KB more; server-python/README.md, "Where the bytes go").
    __slots__ = ("_text_decoder", "_text_parts", "_failed", "_pending_bytes", "_message_opcode",
                 "_message_buffer", "_message_compressed")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Incremental UTF-8 decoder of the text message being received.
        self._text_decoder: Any = None
        #: Decoded parts of the text message being received.
        self._text_parts: Optional[List[str]] = None
        #: Set once we failed the connection: later data frames are dropped
        #: while we wait for the client's close frame.
        self._failed = False
        #: Payload bytes of the data message being received (for the size limit).
        self._pending_bytes = 0
        #: Opcode (1 text, 2 binary) and binary payload of the data message
        #: being received; None between messages.
        self._message_opcode: Optional[int] = None
        self._message_buffer: Optional[bytearray] = None
        #: The data message being received is compressed (RSV1 on its first frame).
        self._message_compressed = False

    def _read_exactly(self, n: int) -> Awaitable[bytes]:
        # Not a coroutine: receive_frame awaits the stream's Future directly; a coroutine here
        # would be one more frame alive while the rest of a frame is awaited.
        return self.stream.read_bytes(n)

    def close(self, code: Optional[int] = None, reason: Optional[str] = None) -> None:
        if (self.client_terminated and not self.server_terminated and code is not None
                and not wsframes.valid_close_code(code)):
            # Echoing the client's close code: not one a peer may send.
            code, reason = PROTOCOL_ERROR, "Invalid close code"
        super().close(code, reason)

    def _fail(self, code: int, reason: str) -> None:
        """Fail the connection (RFC 6455 7.1.7): close frame, then wait for
        the client's close (Tornado aborts after 5 s)."""
        self._failed = True
        self._message_buffer = None
        self._text_decoder = self._text_parts = None
        self.close(code, reason)

    async def receive_frame(self, head: bytes) -> None:
        """The rest of the frame that starts with ``head`` (its first two bytes,
        read by FencedProtocol13.read_frames)."""
        fin = head[0] & 0x80
        reserved = head[0] & 0x70
        opcode = head[0] & 0x0F
        masked = head[1] & 0x80
        length = head[1] & 0x7F
        control = opcode & 0x8

        # The length must be read before anything is refused, so that a
        # frame dropped after failing does not desynchronise the stream.
        if length == 126:
            length = struct.unpack("!H", await self._read_exactly(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", await self._read_exactly(8))[0]

        # RSV1 starts a compressed message when permessage-deflate was negotiated;
        # no other reserved bit, frame or extension is ever allowed.
        compressed = reserved == 0x40 and opcode in (1, 2) and self.deflate_negotiated()
        problem = None
        if reserved and not compressed:
            problem = "Reserved bits set"
        elif opcode not in KNOWN_OPCODES:
            problem = "Reserved opcode %d" % opcode
        elif not masked:
            problem = "Client frames must be masked"
        elif control and (length > 125 or not fin):
            problem = "Control frames must be final and at most 125 bytes"
        elif opcode == 0 and self._message_buffer is None and not self._failed:
            problem = "Continuation frame without a message to continue"
        elif opcode in (1, 2) and self._message_buffer is not None:
            problem = "New message before the previous one ended"
        if problem is not None:
            if self._failed:  # failing already: the client is not listening
                self.abort()
                return
            self._fail(PROTOCOL_ERROR, problem)
            if masked and length <= DISCARDABLE:
                # Skip the payload so the client's answering close frame
                # can still be read: a clean close.
                await self._read_exactly(4 + length)
            else:
                self.abort()
            return

        if not control and self._pending_bytes + length > self.params.max_message_size:
            self.close(TOO_BIG, "Message too big")
            self.abort()
            return

        mask = await self._read_exactly(4)
        if opcode == 1 and not self._failed and not compressed:
            self._text_decoder = codecs.getincrementaldecoder("utf-8")()
            self._text_parts = []
        checking_text = (not control and not self._failed and self._text_decoder is not None
                         and (opcode == 1 or self._message_opcode == 1))
        payload = await self._read_payload(length, mask, checking_text)
        if payload is None:  # invalid UTF-8: failed already
            return

        if control:
            self._control_frame(opcode, payload)
            return
        if self._failed:
            return  # a data frame after we failed: dropped
        if opcode != 0:
            self._message_opcode = opcode
            self._message_buffer = bytearray()
            self._pending_bytes = 0
            self._message_compressed = compressed
        buffer = self._message_buffer
        assert buffer is not None
        self._pending_bytes += length
        if self._message_opcode == 2 or self._message_compressed:
            buffer.extend(payload)
        if not fin:
            return
        message_opcode = self._message_opcode
        self._message_buffer = None
        self._pending_bytes = 0
        if self._message_compressed:
            self._message_compressed = False
            future = self._inflated_message(message_opcode, bytes(buffer))
        elif message_opcode == 1:
            try:
                self._text_parts.append(self._text_decoder.decode(b"", final=True))  # type: ignore[union-attr]
            except UnicodeDecodeError:
                self._fail(INVALID_PAYLOAD, "Invalid UTF-8 in text message")
                return
            text = "".join(self._text_parts)  # type: ignore[arg-type]
            self._text_decoder = self._text_parts = None
            future = self.dispatch_message(text)
        else:
            data = bytes(buffer)
            future = self.dispatch_message(data)
        if future is not None:
            await future

    def _inflated_message(self, opcode: Optional[int], data: bytes) -> Any:
        """Inflate a compressed message and dispatch it (a text one checked as
        UTF-8); fails the connection on bad deflate data or bad UTF-8."""
        try:
            data = self.inflate(data)
        except zlib.error:
            self._fail(INVALID_PAYLOAD, "Invalid deflate data")
            return None
        except Exception:  # Tornado's own error for more than max_message_size
            self.close(TOO_BIG, "Message too big")
            self.abort()
            return None
        if opcode != 1:
            return self.dispatch_message(data)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            self._fail(INVALID_PAYLOAD, "Invalid UTF-8 in text message")
            return None
        return self.dispatch_message(text)

    async def _read_payload(self, length: int, mask: bytes, checking_text: bool) -> Optional[bytes]:
        """The unmasked payload; text is decoded as it arrives (partial
        reads), so invalid UTF-8 fails the connection at once."""
        if not checking_text:
            return websocket_mask(mask, await self._read_exactly(length)) if length else b""
        got = 0
        while got < length:
            chunk = await self.stream.read_bytes(length - got, partial=True)
            shift = got % 4  # the mask continues where the last chunk ended
            chunk = websocket_mask(mask[shift:] + mask[:shift], chunk)
            got += len(chunk)
            try:
                self._text_parts.append(self._text_decoder.decode(chunk))  # type: ignore[union-attr]
            except UnicodeDecodeError:
                self._fail(INVALID_PAYLOAD, "Invalid UTF-8 in text message")
                if got < length:
                    # The rest of the frame may never come (Autobahn 6.4.3
                    # waits): the close frame is out, end the connection.
                    self.abort()
                return None
        return b""  # text lives in _text_parts

    def _control_frame(self, opcode: int, payload: bytes) -> None:
        if self._failed and opcode != 0x8:
            return  # failed: nothing but the client's close matters now
        if opcode == 0x8:
            if len(payload) == 1:
                self._fail(PROTOCOL_ERROR, "Close frame with a 1-byte payload")
                self.client_terminated = True
                self.close()
                return
            if len(payload) >= 2:
                code = struct.unpack("!H", payload[:2])[0]
                if not wsframes.valid_close_code(code):
                    self.client_terminated = True
                    self.close_code = code
                    self.close(code)  # answered with 1002 by close()
                    return
                try:
                    payload[2:].decode("utf-8")
                except UnicodeDecodeError:
                    self._fail(INVALID_PAYLOAD, "Invalid UTF-8 in close reason")
                    self.client_terminated = True
                    self.close()
                    return
        # Valid close, ping, pong: Tornado's handling (echo the close code,
        # answer pings, note pongs).
        self.handle_control(opcode, payload)
