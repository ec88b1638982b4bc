from __future__ import annotations

import struct

import pytest

from sockbench_server.protocol import wsframes as w


@pytest.mark.parametrize("build, first_byte, filler", [
    (w.text_frame, 0x81, b"x"),
    (w.binary_frame, 0x82, b"\xfe"),  # bytes that are not text
])
@pytest.mark.parametrize("n, length", [
    (0, b"\x00"),
    (125, b"\x7d"),
    (126, b"\x7e\x00\x7e"),
    (65535, b"\x7e\xff\xff"),
    (65536, b"\x7f" + struct.pack("!Q", 65536)),
])
def test_frames_carry_their_length_in_the_shortest_form(build, first_byte, filler, n, length):
    payload = filler * n
    assert build(payload) == bytes((first_byte,)) + length + payload


def test_close_frame():
    assert w.close_frame(1001, "bye") == b"\x88\x05\x03\xe9bye"
    assert len(w.close_frame(1000, "x" * 500)) == 2 + 125


@pytest.mark.parametrize("code,ok", [
    (1000, True), (1001, True), (1002, True), (1003, True), (1004, False),
    (1005, False), (1006, False), (1007, True), (1011, True), (1014, True),
    (1015, False), (999, False), (0, False), (2000, False), (2999, False),
    (3000, True), (4999, True), (5000, False), (65535, False),
])
def test_valid_close_code(code, ok):
    assert w.valid_close_code(code) is ok


def test_hixie76_challenge_matches_the_suite_vector():
    # sockjs-protocol WebsocketHixie76.test_haproxy
    got = w.hixie76_challenge("4 @1  46546xW%0l 1 5", "12998 5 Y3 1  .P00", b"aaaaaaaa")
    assert got == b"\xca4\x00\xd8\xa5\x08G\x97,\xd5qZ\xba\xbfC{"


def test_hixie76_challenge_matches_the_draft_example():
    # draft-hixie-thewebsocketprotocol-76, section 1.3
    got = w.hixie76_challenge("4 @1  46546xW%0l 1 5", "12998 5 Y3 1  .P00", b"^n:ds[4U")
    assert got == b"8jKS'y:G*Co,Wxa-"


@pytest.mark.parametrize("k1,k2", [("nodigits here", "1 2"), ("123", "1 2"), ("1 3 3", "1 2")])
def test_hixie76_bad_keys(k1, k2):
    with pytest.raises(w.HandshakeError):
        w.hixie76_challenge(k1, k2, b"12345678")


def test_hixie76_response_head():
    head = w.hixie76_response_head("http://h", "ws://h/p").decode()
    assert head.startswith("HTTP/1.1 101 ")
    assert "Sec-WebSocket-Origin: http://h\r\n" in head
    assert "Sec-WebSocket-Location: ws://h/p\r\n" in head
    assert head.endswith("\r\n\r\n")
    assert "Content-Length" not in head


def test_hixie76_decoder_reassembles_and_closes():
    d = w.Hixie76Decoder()
    assert d.feed(b"\x00hel") == []
    assert d.feed(b"lo\xff\x00\xc5\xbc\xff\x00") == ["hello", "ż"]
    assert d.feed(b"x\xff") == ["x"]
    assert not d.closed
    assert d.feed(w.HIXIE76_CLOSE) == []
    assert d.closed
    assert d.feed(b"\x00late\xff") == []
    assert w.hixie76_frame("ż") == b"\x00\xc5\xbc\xff"


def test_hixie76_decoder_rejects_garbage():
    d = w.Hixie76Decoder()
    d.feed(b"GET / HTTP/1.1")
    assert d.closed
    d = w.Hixie76Decoder(max_message=4)
    d.feed(b"\x00123456")
    assert d.closed


def test_pop_frames_reads_back_every_length_form_and_keeps_a_partial_frame():
    frames = [w.text_frame(b"o"), w.text_frame(b"a" * 126), w.binary_frame(b"b" * 65536), w.close_frame(1000, "bye")]
    wire = b"".join(frames)
    buf = bytearray(wire[:-3])          # the close frame arrives in two reads
    got = list(w.pop_frames(buf))
    assert got == [(0x1, b"o"), (0x1, b"a" * 126), (0x2, b"b" * 65536)]
    assert bytes(buf) == frames[3][:-3]
    buf += wire[-3:]
    assert list(w.pop_frames(buf)) == [(0x8, struct.pack("!H", 1000) + b"bye")]
    assert buf == bytearray()


@pytest.mark.parametrize("partial", [b"\x81", b"\x81\x7e\x00", b"\x81\x7f\x00\x00", b"\x81\x05abc"])
def test_pop_frames_yields_nothing_until_a_frame_is_complete(partial):
    buf = bytearray(partial)
    assert list(w.pop_frames(buf)) == []
    assert bytes(buf) == partial
