"""protocol/ws_reader.py: the RFC 6455 client frame reader, fed bytes as a
socket would give them. Every sample must give the same events fed whole,
cut in two at every byte, and one byte at a time; the rules that depend on
when bytes arrive (fail-fast UTF-8, refusing a frame before its payload) are
tested on their own."""
from __future__ import annotations

import os
import struct
import zlib

import pytest
from client_frames import client_frame

from sockbench_server.protocol import ws_reader as r
from sockbench_server.protocol.ws_reader import (
    BINARY, CLOSE, CLOSE_RECEIVED, DISCARDABLE, DROP, FAILURE, PING, PONG, TEXT, WAIT_FOR_CLOSE,
    ClientFrameReader, Close, Failure)

TAIL = b"\x00\x00\xff\xff"
MAX = 1 << 20


def frame(opcode: int, payload: bytes = b"", fin: bool = True, rsv: int = 0,
          masked: bool = True, length: int = -1, mask: bytes = b"\x37\xfa\x21\x3d") -> bytes:
    """A client frame with a fixed mask (the samples stay the same from run to run)."""
    return client_frame(opcode, payload, fin, rsv, masked, length, mask)


def close_payload(code: int, reason: bytes = b"") -> bytes:
    return struct.pack("!H", code) + reason


def deflate(text: bytes) -> bytes:
    """One permessage-deflate message (its own context; the tail removed)."""
    c = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    data = c.compress(text) + c.flush(zlib.Z_SYNC_FLUSH)
    assert data.endswith(TAIL)
    return data[:-4]


class TooBig(Exception):
    pass


def inflater(limit: int = MAX):
    """What the connection's decompressor does: one context for the
    connection, the tail appended, an error of its own past ``limit``."""
    d = zlib.decompressobj(-zlib.MAX_WBITS)

    def inflate(data: bytes) -> bytes:
        out = d.decompress(data + TAIL, limit)
        if d.unconsumed_tail:
            raise TooBig()
        return out
    return inflate


def reader(compression: bool = False, max_message_size: int = MAX) -> ClientFrameReader:
    return ClientFrameReader(max_message_size, inflate=inflater() if compression else None)


def fed(wire: bytes, cuts, **kw):
    """The events of ``wire`` fed in pieces cut at ``cuts``, and the reader."""
    rd = reader(**kw)
    events = []
    last = 0
    for cut in list(cuts) + [len(wire)]:
        events += rd.feed(wire[last:cut])
        last = cut
    return events, rd


def wait(code, reason):
    return (FAILURE, Failure(code, reason, WAIT_FOR_CLOSE))


def dropped(code, reason):
    return (FAILURE, Failure(code, reason, DROP))


KAPPA = "κόσμε".encode()

#: (name, wire bytes, events, reader options): the same events however the bytes are cut.
SAMPLES = [
    ("empty text", frame(0x1), [(TEXT, "")], {}),
    ("text", frame(0x1, b"Hello"), [(TEXT, "Hello")], {}),
    ("multibyte text", frame(0x1, KAPPA), [(TEXT, "κόσμε")], {}),
    ("binary", frame(0x2, b"\x00\xff\xfe"), [(BINARY, b"\x00\xff\xfe")], {}),
    ("126-byte length form", frame(0x1, b"*" * 126), [(TEXT, "*" * 126)], {}),
    ("64-bit length form", frame(0x2, b"\xfe" * 65536), [(BINARY, b"\xfe" * 65536)], {}),
    ("several messages", frame(0x1, b"a") + frame(0x2, b"b") + frame(0x1, b"c" * 200),
     [(TEXT, "a"), (BINARY, b"b"), (TEXT, "c" * 200)], {}),
    ("ping and pong", frame(0x9, b"ping") + frame(0xA, b"pong") + frame(0x9),
     [(PING, b"ping"), (PONG, b"pong"), (PING, b"")], {}),
    ("fragmented text with interleaved control frames",
     frame(0x1, b"f1", fin=False) + frame(0x9, b"p1") + frame(0x0, b"f2", fin=False)
     + frame(0xA, b"p2") + frame(0x0, b"", fin=False) + frame(0x0, b"f3"),
     [(PING, b"p1"), (PONG, b"p2"), (TEXT, "f1f2f3")], {}),
    ("fragmented binary", frame(0x2, b"\x01", fin=False) + frame(0x0, b"\x02\x03"),
     [(BINARY, b"\x01\x02\x03")], {}),
    ("UTF-8 cut inside a code point across fragments",
     frame(0x1, KAPPA[:1], fin=False) + frame(0x0, KAPPA[1:]), [(TEXT, "κόσμε")], {}),
    ("close without payload", frame(0x8), [(CLOSE, Close(None, "", b""))], {}),
    ("close with code and reason", frame(0x8, close_payload(1000, b"bye")),
     [(CLOSE, Close(1000, "bye", close_payload(1000, b"bye")))], {}),
    ("nothing after the close is read",
     frame(0x1, b"before") + frame(0x8, close_payload(1001)) + frame(0x1, b"after") + frame(0x9),
     [(TEXT, "before"), (CLOSE, Close(1001, "", close_payload(1001)))], {}),
    ("a close ends a message in the middle",
     frame(0x1, b"fragment1", fin=False) + frame(0x8, close_payload(1000)) + frame(0x0, b"fragment2"),
     [(CLOSE, Close(1000, "", close_payload(1000)))], {}),
    ("1-byte close payload", frame(0x8, b"a"),
     [(FAILURE, Failure(1002, "Close frame with a 1-byte payload", CLOSE_RECEIVED))], {}),
    ("invalid close code", frame(0x8, close_payload(1004)),
     [(FAILURE, Failure(1002, "Invalid close code", CLOSE_RECEIVED, client_code=1004))], {}),
    ("close reason not UTF-8", frame(0x8, close_payload(1000, b"\xce\xba\xed\xa0\x80")),
     [(FAILURE, Failure(1007, "Invalid UTF-8 in close reason", CLOSE_RECEIVED))], {}),
    # Invalid UTF-8 found only at the end of the message, or in a frame's last
    # byte: the frame is complete whenever it is noticed, so the close is awaited.
    ("text cut inside its last code point", frame(0x1, b"\xce\xba\xe1\xbd"),
     [wait(1007, "Invalid UTF-8 in text message")], {}),
    ("bad byte last in its frame", frame(0x1, b"abc\xff") + frame(0x1, b"dropped"),
     [wait(1007, "Invalid UTF-8 in text message")], {}),
    ("bad fragment, then the client's close",
     frame(0x1, b"ok", fin=False) + frame(0x0, b"\xff", fin=False) + frame(0x0, b"x")
     + frame(0x9) + frame(0x8, close_payload(1000)),
     [wait(1007, "Invalid UTF-8 in text message"), (CLOSE, Close(1000, "", close_payload(1000)))], {}),
    # 1002: each refused frame is skipped; what follows until the client's
    # close is dropped (data, pings), and the close is reported.
    ("RSV1 without compression", frame(0x1, b"Hello", rsv=1) + frame(0x8, close_payload(1002)),
     [wait(1002, "Reserved bits set"), (CLOSE, Close(1002, "", close_payload(1002)))], {}),
    ("reserved opcode after a message", frame(0x1, b"before") + frame(0x3, b"x") + frame(0x9),
     [(TEXT, "before"), wait(1002, "Reserved opcode 3")], {}),
    ("fragmented ping", frame(0x9, b"frag1", fin=False) + frame(0x0, b"frag2"),
     [wait(1002, "Control frames must be final and at most 125 bytes")], {}),
    ("ping over 125 bytes", frame(0x9, b"*" * 126),
     [wait(1002, "Control frames must be final and at most 125 bytes")], {}),
    ("continuation with nothing to continue", frame(0x0, b"x") + frame(0x1, b"Hello"),
     [wait(1002, "Continuation frame without a message to continue")], {}),
    ("new message before the previous one ended", frame(0x1, b"f1", fin=False) + frame(0x1, b"f2"),
     [wait(1002, "New message before the previous one ended")], {}),
    ("a message then a stray continuation",
     frame(0x1, b"f1", fin=False) + frame(0x0, b"f2") + frame(0x0, b"f3", fin=False) + frame(0x0, b"f4"),
     [(TEXT, "f1f2"), wait(1002, "Continuation frame without a message to continue")], {}),
    ("a second protocol error drops the connection",
     frame(0x3) + frame(0x1, b"x", rsv=2) + frame(0x8),
     [wait(1002, "Reserved opcode 3"), dropped(1002, "Reserved bits set")], {}),
    ("unmasked frame", frame(0x1, b"Hello", masked=False),
     [dropped(1002, "Client frames must be masked")], {}),
    ("too big", frame(0x1, b"x" * 100, fin=False) + frame(0x0, b"y" * 100),
     [dropped(1009, "Message too big")], {"max_message_size": 150}),
    # permessage-deflate
    ("compressed text", frame(0x1, deflate(b"hello hello hello"), rsv=4),
     [(TEXT, "hello hello hello")], {"compression": True}),
    ("compressed binary in fragments with a ping between",
     frame(0x2, deflate(b"\x00\x01" * 50)[:5], rsv=4, fin=False) + frame(0x9, b"p")
     + frame(0x0, deflate(b"\x00\x01" * 50)[5:]),
     [(PING, b"p"), (BINARY, b"\x00\x01" * 50)], {"compression": True}),
    ("uncompressed text on a compressing connection", frame(0x1, b"plain"),
     [(TEXT, "plain")], {"compression": True}),
    ("compressed text that is not UTF-8", frame(0x1, deflate(b"\xff\xfe"), rsv=4),
     [wait(1007, "Invalid UTF-8 in text message")], {"compression": True}),
    ("bad deflate data", frame(0x1, b"\xff\xff\xff\xff", rsv=4),
     [wait(1007, "Invalid deflate data")], {"compression": True}),
    ("RSV1 on a continuation", frame(0x1, deflate(b"ab"), rsv=4, fin=False) + frame(0x0, b"c", rsv=4),
     [wait(1002, "Reserved bits set")], {"compression": True}),
    ("RSV1 on a control frame", frame(0x9, b"p", rsv=4),
     [wait(1002, "Reserved bits set")], {"compression": True}),
]


def cuts(wire: bytes):
    """Every byte position of a sample, or of a long one (each cut feeds it
    all again) those near its ends and every 257th."""
    n = len(wire)
    if n <= 4096:
        return range(n + 1)
    return sorted(set(range(64)) | set(range(0, n, 257)) | set(range(n - 64, n + 1)))


@pytest.mark.parametrize("name,wire,events,options", SAMPLES, ids=[s[0] for s in SAMPLES])
def test_a_sample_gives_its_events_however_it_is_cut(name, wire, events, options):
    whole, _ = fed(wire, [], **options)
    assert whole == events
    for cut in cuts(wire):
        assert fed(wire, [cut], **options)[0] == events, cut
    assert fed(wire, range(len(wire)), **options)[0] == events


def test_each_compressed_message_continues_the_connections_inflate_context():
    c = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    first = c.compress(b"the same words again") + c.flush(zlib.Z_SYNC_FLUSH)
    second = c.compress(b"the same words again") + c.flush(zlib.Z_SYNC_FLUSH)
    wire = frame(0x1, first[:-4], rsv=4) + frame(0x1, second[:-4], rsv=4)
    assert reader(compression=True).feed(wire) == [(TEXT, "the same words again")] * 2


def test_a_compressed_message_that_inflates_past_the_limit_drops_the_connection():
    rd = ClientFrameReader(MAX, inflate=inflater(limit=100))
    assert rd.feed(frame(0x1, deflate(b"x" * 1000), rsv=4) + frame(0x1, b"late")) == [
        dropped(1009, "Message too big")]
    assert rd.done


# -- fail fast: what is decided before the rest of a frame arrives --------------

PART1 = b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5"
PART2 = b"\xf4\x90\x80\x80"
PART3 = b"edited"


def test_invalid_utf8_fails_as_the_bad_bytes_arrive_in_the_middle_of_a_frame():
    payload = PART1 + PART2 + PART3
    wire = frame(0x1, payload)
    header = len(wire) - len(payload)
    rd = reader()
    assert rd.feed(wire[:header + len(PART1)]) == []
    # The rest of the frame may never come (Autobahn 6.4.3): the connection is dropped.
    assert rd.feed(wire[header + len(PART1):header + len(PART1) + len(PART2)]) == [
        dropped(1007, "Invalid UTF-8 in text message")]
    assert rd.done
    assert rd.feed(wire[header + len(PART1) + len(PART2):]) == []


def test_invalid_utf8_fails_on_the_fragment_that_breaks_it():
    rd = reader()
    assert rd.feed(frame(0x1, PART1, fin=False)) == []
    assert rd.feed(frame(0x0, PART2, fin=False)) == [wait(1007, "Invalid UTF-8 in text message")]
    assert not rd.done  # the frame was whole: the client's close is awaited
    assert rd.feed(frame(0x0, PART3) + frame(0x8, close_payload(1000))) == [
        (CLOSE, Close(1000, "", close_payload(1000)))]


def test_a_too_big_message_is_refused_on_its_header_alone():
    rd = reader(max_message_size=10 * 1024 * 1024)
    assert rd.feed(frame(0x1, b"", length=10 * 1024 * 1024 + 1)[:10]) == [dropped(1009, "Message too big")]


@pytest.mark.parametrize("wire,reason", [
    (frame(0x1, b"x", rsv=2), "Reserved bits set"),
    (frame(0x1, b"x", rsv=4), "Reserved bits set"),  # RSV1 without permessage-deflate
    (frame(0xB, b"x"), "Reserved opcode 11"),
    (frame(0x9, b"x", fin=False), "Control frames must be final and at most 125 bytes"),
    (frame(0x8, b"x" * 126), "Control frames must be final and at most 125 bytes"),
    (frame(0x0, b"x"), "Continuation frame without a message to continue"),
])
def test_a_protocol_error_is_refused_on_its_header_before_the_mask_arrives(wire, reason):
    header = 4 if wire[1] & 0x7F == 126 else 2
    rd = reader()
    assert rd.feed(wire[:header]) == [wait(1002, reason)]


def test_an_unmasked_frame_is_refused_on_its_first_two_bytes():
    assert reader().feed(frame(0x1, b"Hello", masked=False)[:2]) == [
        dropped(1002, "Client frames must be masked")]


def test_a_refused_frame_up_to_discardable_is_skipped_and_a_bigger_one_drops_the_connection():
    close = frame(0x8, close_payload(1002))
    rd = reader()
    events = rd.feed(frame(0x2, b"x" * DISCARDABLE, rsv=2) + close)
    assert events == [wait(1002, "Reserved bits set"), (CLOSE, Close(1002, "", close_payload(1002)))]
    rd = reader()
    assert rd.feed(frame(0x2, b"x" * (DISCARDABLE + 1), rsv=2)[:10]) == [dropped(1002, "Reserved bits set")]
    assert rd.done and rd.feed(close) == []


def test_after_a_failure_data_and_pings_are_dropped_until_the_close():
    rd = reader()
    assert rd.feed(frame(0x3)) == [wait(1002, "Reserved opcode 3")]
    assert rd.feed(frame(0x1, b"text") + frame(0x2, b"bin", fin=False) + frame(0x0, b"more")
                   + frame(0x9, b"ping") + frame(0xA)) == []
    assert rd.feed(frame(0x8)) == [(CLOSE, Close(None, "", b""))]
    assert rd.done


@pytest.mark.parametrize("code", [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535])
def test_close_codes_no_endpoint_may_send_are_1002(code):
    assert reader().feed(frame(0x8, close_payload(code))) == [
        (FAILURE, Failure(1002, "Invalid close code", CLOSE_RECEIVED, client_code=code))]


@pytest.mark.parametrize("code", [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 4999])
def test_valid_close_codes_are_reported(code):
    assert reader().feed(frame(0x8, close_payload(code))) == [(CLOSE, Close(code, "", close_payload(code)))]


# -- size and unmasking ------------------------------------------------------------------

def test_a_large_message_in_small_reads_is_reassembled():
    payload = os.urandom(1 << 20)
    wire = frame(0x2, payload[:300000], fin=False) + frame(0x0, payload[300000:])
    rd = reader(max_message_size=2 << 20)
    events = []
    for i in range(0, len(wire), 4096):
        events += rd.feed(wire[i:i + 4096])
    assert events == [(BINARY, payload)]


def per_byte_unmask(mask: bytes, data: bytes) -> bytes:
    return bytes(b ^ mask[i % 4] for i, b in enumerate(data))


@pytest.mark.parametrize("n", list(range(0, 18)) + [125, 4096, 65537])
def test_xor_unmask_matches_unmasking_byte_by_byte(n):
    mask = b"\x00\x80\xff\x5a"
    data = os.urandom(n)
    assert r.xor_unmask(mask, data) == per_byte_unmask(mask, data)
    # leading and trailing zero bytes survive the trip through an integer
    assert r.xor_unmask(mask, per_byte_unmask(mask, b"\x00" * n)) == b"\x00" * n


def test_the_reader_uses_the_unmask_it_is_given():
    calls = []

    def unmask(mask, data):
        calls.append(len(data))
        return per_byte_unmask(mask, data)

    rd = ClientFrameReader(MAX, unmask=unmask)
    assert rd.feed(frame(0x1, b"Hello")) == [(TEXT, "Hello")]
    assert calls == [5]
