"""Tornado's websocket protocol with our own frame reading: one future per
socket read instead of one per frame field.

Tornado's ``WebSocketProtocol13`` awaits the stream for each field of each
frame (header, extended length, mask, payload): several futures and loop
callbacks per client message, which at a high inbound rate (fast mode,
~140k small messages/s) was most of the server's CPU. :class:`StrictProtocol13`
instead awaits ``stream.read_bytes(READ_SIZE, partial=True)`` - whatever one
socket read holds - and hands those bytes to the sans-I/O
:class:`~sockbench_server.protocol.ws_reader.ClientFrameReader`, which
returns every event they complete; then it acts on each event in order.

The reader is stricter than Tornado 6.5 (its module docstring lists the
rules: close codes 1002, 1007 and 1009, fail-fast UTF-8, the DISCARDABLE
skip, permessage-deflate). Tornado fails connections in ways the RFC and
Autobahn|Testsuite do not accept: a close code no endpoint may send is
echoed, a 1-byte close payload gets an empty close, a close reason that is
not UTF-8 raises inside the read loop, invalid UTF-8 in text is noticed
only once the whole message arrived and then TCP is dropped without a
close frame, and other protocol errors drop TCP without saying why.

What stays Tornado's: the handshake, writing, ping/pong answers, the
closing handshake and its 5 s timeout, and ``on_message`` run through its
callback runner (an exception aborts the connection; a returned awaitable
is awaited before the next message, which is how the output budget holds
a client back - ``shedding.py``). Reading itself stops while the stream is
paused (``AccountedIOStream``): a paused stream's read takes nothing from
the socket, and no read is asked for while a message waits. The hooks are
reached through ``tornado_private.FencedProtocol13``; the RFC 6455 tests
in tests/server cover this class end to end, tests/unit/test_ws_reader.py
the reader.
"""
from __future__ import annotations

from ..protocol.ws_reader import (
    BINARY, CLOSE, CLOSE_RECEIVED, DROP, FAILURE, TEXT, ClientFrameReader, Failure, xor_unmask)
from .tornado_private import FencedProtocol13, native_websocket_mask

#: The most bytes one read hands to the reader. The socket is read
#: ``read_chunk_size`` at a time (``shedding.READ_CHUNK``); this only bounds
#: what Tornado's buffer gives at once.
READ_SIZE = 65536

#: Tornado's C unmasking where it is built (CPython); elsewhere one
#: big-integer XOR per payload rather than Tornado's loop over the bytes.
UNMASK = native_websocket_mask or xor_unmask


class StrictProtocol13(FencedProtocol13):
    """RFC 6455 with failures answered by the right close code, UTF-8
    checked as text arrives, and frames parsed from whole socket reads (see
    the module docstring)."""

    async def receive_frames(self) -> None:
        reader = ClientFrameReader(self.params.max_message_size,
                                   inflate=self.inflate if self.deflate_negotiated() else None,
                                   unmask=UNMASK)
        stream = self.stream
        while not self.client_terminated:
            for kind, value in reader.feed(await stream.read_bytes(READ_SIZE, partial=True)):
                if kind == TEXT or kind == BINARY:
                    handled = self.dispatch_message(value)
                    if handled is not None:
                        await handled
                elif kind == FAILURE:
                    self._fail_connection(value)
                elif kind == CLOSE:
                    self.handle_control(CLOSE, value.payload)  # echoes its code, ends the connection
                else:  # ping (answered) or pong (noted)
                    self.handle_control(kind, value)
                if self.client_terminated:
                    break  # closed or aborted: the events after are not for anyone

    def _fail_connection(self, failure: Failure) -> None:
        """Fail the connection (RFC 6455 7.1.7): our close frame with the
        failure's code, then what the failure says - wait for the client's
        close (Tornado aborts after 5 s), drop TCP, or end at once when the
        bad frame was the client's close itself."""
        if failure.then == CLOSE_RECEIVED:
            self.client_terminated = True
            if failure.client_code is not None:
                self.close_code = failure.client_code
        self.close(failure.code, failure.reason)
        if failure.then == DROP:
            self.abort()
