"""RFC 6455 on the raw echo endpoint (``/echo/websocket``), case by case as
Autobahn|Testsuite's fuzzing client checks it (categories 1-7 and 10; the
Autobahn case number is in each test's name or parameters).

Autobahn's verdict rules, mirrored by :func:`expect_failed`: when the
server must fail the connection it may send a close frame with the
expected code, or drop TCP without one; any other code is wrong, and a
connection still open after the wait is a failure.
"""
from __future__ import annotations

import socket
import struct
import sys
import time

import pytest

from client_frames import client_frame
from serverproc import ServerProcess
from wsclient import ConnectionClosed, WebSocket

OURS = [sys.executable, "-m", "sockbench_server"]
WAIT = 3.0  # seconds a test waits for the server's answer


@pytest.fixture(scope="module")
def server():
    srv = ServerProcess([], command=OURS)
    yield srv
    srv.stop()


@pytest.fixture
def ws(server):
    w = WebSocket(server.url + "/echo/websocket", timeout=WAIT)
    yield w
    w.conn.close()


frame = client_frame


def send(ws: WebSocket, *frames: bytes) -> None:
    ws.conn.send(b"".join(frames))


def next_frame(ws: WebSocket):
    """(opcode, payload) of the next server frame; ('eof', b'') if TCP ended."""
    try:
        _, opcode, data = ws.recv_frame()
    except ConnectionClosed:
        return "eof", b""
    except socket.timeout:
        raise AssertionError("no frame and no end of connection within %.0f s" % WAIT)
    except ConnectionResetError:
        return "eof", b""
    return opcode, data


def expect_message(ws: WebSocket, opcode: int, payload: bytes) -> None:
    assert next_frame(ws) == (opcode, payload)


def expect_failed(ws: WebSocket, code: int) -> None:
    """The server fails the connection: a close frame with ``code`` (and
    nothing else before it), or TCP dropped."""
    got = next_frame(ws)
    if got[0] == "eof":
        return
    assert got[0] == 0x8, "expected a close with %d, got %r" % (code, got)
    assert struct.unpack("!H", got[1][:2])[0] == code, got
    # Answer the close as a client does; then the server ends TCP at once.
    try:
        send(ws, frame(0x8, got[1][:2]))
    except OSError:
        return  # it did not even wait for our answer
    assert next_frame(ws)[0] == "eof"


def expect_close(ws: WebSocket, code) -> None:
    """A clean close frame echoing ``code`` (None: empty payload)."""
    opcode, data = next_frame(ws)
    assert opcode == 0x8, (opcode, data)
    if code is None:
        assert data == b""
    else:
        assert struct.unpack("!H", data[:2])[0] == code, data
    assert next_frame(ws)[0] == "eof"  # the server closes TCP after the handshake


def expect_silence(ws: WebSocket, seconds: float = 0.5) -> None:
    ws.conn.s.settimeout(seconds)
    try:
        with pytest.raises(socket.timeout):
            ws.recv_frame()
    finally:
        ws.conn.s.settimeout(WAIT)


# -- 1.x framing: echo of text and binary ----------------------------------------

@pytest.mark.parametrize("case,size", [("1.x.1", 0), ("1.x.2", 125), ("1.x.3", 126),
                                       ("1.x.4", 127), ("1.x.5", 128), ("1.x.6", 65535),
                                       ("1.x.7", 65536)])
@pytest.mark.parametrize("kind", ["1.1 text", "1.2 binary"])
def test_1_echo(ws, case, size, kind):
    opcode = 0x1 if kind.endswith("text") else 0x2
    payload = (b"*" if opcode == 1 else b"\xfe") * size
    send(ws, frame(opcode, payload))
    expect_message(ws, opcode, payload)


def test_1_1_8_text_65536_sent_in_chops_of_997(ws):
    payload = b"*" * 65536
    data = frame(0x1, payload)
    for i in range(0, len(data), 997):
        ws.conn.send(data[i:i + 997])
    expect_message(ws, 0x1, payload)


# -- 2.x ping / pong ----------------------------------------------------------------

@pytest.mark.parametrize("case,payload", [("2.1", b""), ("2.2", b"Hello, world!"),
                                          ("2.3", b"\x00\xff\xfe\xfd\xfc\xfb\x00\xff"),
                                          ("2.4", b"*" * 125)])
def test_2_ping_is_answered_with_the_same_payload(ws, case, payload):
    send(ws, frame(0x9, payload))
    expect_message(ws, 0xA, payload)


def test_2_5_ping_with_126_bytes_fails(ws):
    send(ws, frame(0x9, b"*" * 126))
    expect_failed(ws, 1002)


def test_2_6_ping_125_sent_in_chops(ws):
    data = frame(0x9, b"*" * 125)
    for i in range(0, len(data), 1):
        ws.conn.send(data[i:i + 1])
    expect_message(ws, 0xA, b"*" * 125)


@pytest.mark.parametrize("case,payload", [("2.7", b""), ("2.8", b"unsolicited pong")])
def test_2_unsolicited_pong_is_ignored(ws, case, payload):
    send(ws, frame(0xA, payload), frame(0x1, b"after"))
    expect_message(ws, 0x1, b"after")


def test_2_9_pong_then_ping(ws):
    send(ws, frame(0xA, b"pong"), frame(0x9, b"ping"))
    expect_message(ws, 0xA, b"ping")


def test_2_10_ten_pings_ten_pongs(ws):
    send(ws, *[frame(0x9, b"p%d" % i) for i in range(10)])
    for i in range(10):
        expect_message(ws, 0xA, b"p%d" % i)


# -- 3.x reserved bits ------------------------------------------------------------

def test_3_1_rsv1_on_text_fails(ws):
    send(ws, frame(0x1, b"Hello", rsv=1))
    expect_failed(ws, 1002)


def test_3_2_rsv2_after_a_valid_message(ws):
    send(ws, frame(0x1, b"Hello"), frame(0x1, b"Hello", rsv=2), frame(0x9))
    expect_message(ws, 0x1, b"Hello")
    expect_failed(ws, 1002)


@pytest.mark.parametrize("case,opcode,rsv", [("3.3", 0x1, 3), ("3.4", 0x1, 4), ("3.5", 0x2, 5),
                                             ("3.6", 0x9, 6), ("3.7", 0x8, 7)])
def test_3_reserved_bits_fail(ws, case, opcode, rsv):
    payload = struct.pack("!H", 1000) if opcode == 0x8 else b"\x00\xff"
    send(ws, frame(opcode, payload, rsv=rsv))
    expect_failed(ws, 1002)


# -- 4.x reserved opcodes ---------------------------------------------------------

@pytest.mark.parametrize("case,opcode", [("4.1.1", 3), ("4.1.2", 4), ("4.1.3", 5), ("4.1.4", 6),
                                         ("4.1.5", 7), ("4.2.1", 11), ("4.2.2", 12),
                                         ("4.2.3", 13), ("4.2.4", 14), ("4.2.5", 15)])
def test_4_reserved_opcodes_fail(ws, case, opcode):
    send(ws, frame(0x1, b"before"), frame(opcode, b"reserved"), frame(0x9))
    expect_message(ws, 0x1, b"before")
    expect_failed(ws, 1002)


# -- 5.x fragmentation ------------------------------------------------------------

@pytest.mark.parametrize("case,opcode", [("5.1", 0x9), ("5.2", 0xA)])
def test_5_fragmented_control_frame_fails(ws, case, opcode):
    send(ws, frame(opcode, b"frag1", fin=False), frame(0x0, b"frag2"))
    expect_failed(ws, 1002)


def test_5_3_text_in_two_fragments(ws):
    send(ws, frame(0x1, b"frag1", fin=False), frame(0x0, b"frag2"))
    expect_message(ws, 0x1, b"frag1frag2")


def test_5_6_ping_between_fragments(ws):
    send(ws, frame(0x1, b"frag1", fin=False), frame(0x9, b"ping"), frame(0x0, b"frag2"))
    expect_message(ws, 0xA, b"ping")
    expect_message(ws, 0x1, b"frag1frag2")


def test_5_19_fragments_with_pings_and_pauses(ws):
    send(ws, frame(0x1, b"f1", fin=False), frame(0x0, b"f2", fin=False), frame(0x9, b"p1"))
    expect_message(ws, 0xA, b"p1")
    time.sleep(0.3)
    send(ws, frame(0x0, b"f3", fin=False), frame(0x9, b"p2"), frame(0x0, b"f4"))
    expect_message(ws, 0xA, b"p2")
    expect_message(ws, 0x1, b"f1f2f3f4")


@pytest.mark.parametrize("case,fin", [("5.9", True), ("5.12", False)])
def test_5_continuation_without_a_message_fails(ws, case, fin):
    send(ws, frame(0x0, b"non-continuation payload", fin=fin), frame(0x1, b"Hello"))
    expect_failed(ws, 1002)


def test_5_15_message_then_a_stray_continuation(ws):
    send(ws, frame(0x1, b"f1", fin=False), frame(0x0, b"f2"),
         frame(0x0, b"f3", fin=False), frame(0x0, b"f4"))
    expect_message(ws, 0x1, b"f1f2")
    expect_failed(ws, 1002)


@pytest.mark.parametrize("case", ["5.18"])
def test_5_new_message_while_one_is_open_fails(ws, case):
    send(ws, frame(0x1, b"f1", fin=False), frame(0x1, b"f2"))
    expect_failed(ws, 1002)


# -- 6.x UTF-8 ---------------------------------------------------------------------

@pytest.mark.parametrize("case,payload", [
    ("6.1.1", b""),
    ("6.2.1", "κόσμε".encode()),
    ("6.5.x", b"hello\xf0\xa4\xad\xa2world"),
    ("6.7.4", b"\xf4\x8f\xbf\xbf"),
    ("6.11.x", b"\xef\xbf\xbe"),
])
def test_6_valid_utf8_is_echoed(ws, case, payload):
    send(ws, frame(0x1, payload))
    expect_message(ws, 0x1, payload)


def test_6_2_2_valid_utf8_split_inside_a_code_point_across_fragments(ws):
    payload = "κόσμε".encode()
    send(ws, frame(0x1, payload[:1], fin=False), frame(0x0, payload[1:]))
    expect_message(ws, 0x1, payload)


@pytest.mark.parametrize("case,payload", [
    ("6.3.1", b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80edited"),
    ("6.6.x", b"\xce\xba\xe1\xbd"),  # truncated at the end
    ("6.8.1", b"\xf8\x88\x80\x80\x80"),
    ("6.10.3", b"\xf4\x90\x80\x80"),
    ("6.12.1", b"\x80"),
    ("6.13.1", b"\xc0 \xc1 "),
    ("6.17.1", b"\xc0\xaf"),
    ("6.19.1", b"\xed\xa0\x80"),
    ("6.21.1", b"\xed\xa0\x80\xed\xb0\x80"),
])
def test_6_invalid_utf8_fails_with_1007(ws, case, payload):
    send(ws, frame(0x1, payload))
    expect_failed(ws, 1007)


PART1 = b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5"
PART2 = b"\xf4\x90\x80\x80"
PART3 = b"edited"


def test_6_4_1_fail_fast_on_the_fragment_that_breaks_utf8(ws):
    send(ws, frame(0x1, PART1, fin=False))
    expect_silence(ws)
    send(ws, frame(0x0, PART2, fin=False))
    # Failed now, before the third fragment is sent.
    expect_failed(ws, 1007)


def test_6_4_3_fail_fast_inside_a_frame(ws):
    payload = PART1 + PART2 + PART3
    head = frame(0x1, payload)
    header_len = len(head) - len(payload)
    send(ws, head[:header_len + len(PART1)])
    expect_silence(ws)
    send(ws, head[header_len + len(PART1):header_len + len(PART1) + len(PART2)])
    expect_failed(ws, 1007)


# -- 7.x closing ---------------------------------------------------------------------

def test_7_1_1_echo_then_close(ws):
    send(ws, frame(0x1, b"Hello World!"), frame(0x8, struct.pack("!H", 1000)))
    expect_message(ws, 0x1, b"Hello World!")
    expect_close(ws, 1000)


@pytest.mark.parametrize("case,after", [("7.1.2", frame(0x8, struct.pack("!H", 1000))),
                                        ("7.1.3", frame(0x9, b"ping")),
                                        ("7.1.4", frame(0x1, b"text"))])
def test_7_frames_after_close_are_ignored(ws, case, after):
    send(ws, frame(0x8, struct.pack("!H", 1000)), after)
    expect_close(ws, 1000)


def test_7_1_5_close_in_the_middle_of_a_fragmented_message(ws):
    send(ws, frame(0x1, b"fragment1", fin=False), frame(0x8, struct.pack("!H", 1000)),
         frame(0x0, b"fragment2"))
    expect_close(ws, 1000)


def test_7_1_6_close_after_a_large_message(ws):
    send(ws, frame(0x1, b"BAsd7&jh23" * 26214), frame(0x1, b"Hello World!"),
         frame(0x8, struct.pack("!H", 1000)))
    expect_message(ws, 0x1, b"BAsd7&jh23" * 26214)
    expect_message(ws, 0x1, b"Hello World!")
    expect_close(ws, 1000)


def test_7_3_1_close_without_payload_is_echoed_empty(ws):
    send(ws, frame(0x8))
    expect_close(ws, None)


def test_7_3_2_close_with_a_one_byte_payload_fails(ws):
    send(ws, frame(0x8, b"a"))
    expect_failed(ws, 1002)


@pytest.mark.parametrize("case,reason", [("7.3.3", b""), ("7.3.4", b"Hello World!"),
                                         ("7.3.5", b"*" * 123)])
def test_7_3_close_with_code_and_reason(ws, case, reason):
    send(ws, frame(0x8, struct.pack("!H", 1000) + reason))
    expect_close(ws, 1000)


def test_7_3_6_close_payload_over_125_bytes_fails(ws):
    send(ws, frame(0x8, struct.pack("!H", 1000) + b"*" * 124))
    expect_failed(ws, 1002)


def test_7_5_1_close_reason_not_utf8_fails_with_1007(ws):
    send(ws, frame(0x8, struct.pack("!H", 1000) + b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc"
                   b"\xce\xb5\xed\xa0\x80\x65\x64\x69\x74\x65\x64"))
    expect_failed(ws, 1007)


@pytest.mark.parametrize("code", [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011,
                                  3000, 3999, 4000, 4999])
def test_7_7_valid_close_codes_are_echoed(ws, code):
    send(ws, frame(0x8, struct.pack("!H", code)))
    expect_close(ws, code)


@pytest.mark.parametrize("code", [0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999, 5000,
                                  65535])
def test_7_9_invalid_close_codes_get_1002(ws, code):
    send(ws, frame(0x8, struct.pack("!H", code)))
    expect_close(ws, 1002)


# -- beyond Autobahn: frames the RFC forbids -----------------------------------------

def test_unmasked_client_frame_fails(ws):
    send(ws, frame(0x1, b"Hello", masked=False))
    expect_failed(ws, 1002)


# -- 10.x limits ---------------------------------------------------------------------

def test_10_1_1_text_65536_in_fragments_of_1300(ws):
    payload = b"*" * 65536
    pieces = [payload[i:i + 1300] for i in range(0, len(payload), 1300)]
    frames = [frame(0x1 if i == 0 else 0x0, p, fin=(i == len(pieces) - 1))
              for i, p in enumerate(pieces)]
    send(ws, *frames)
    expect_message(ws, 0x1, payload)


def test_a_message_over_the_size_limit_gets_1009(ws):
    # Tornado's default max_message_size: 10 MiB. Only the header is sent.
    send(ws, frame(0x1, b"", length=10 * 1024 * 1024 + 1)[:10])
    expect_failed(ws, 1009)
