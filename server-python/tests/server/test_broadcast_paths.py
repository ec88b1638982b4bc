"""Every kind of recipient of /broadcast gets the same messages in the same
order, in fast and in naive mode: RFC 6455 and hixie-76 websockets (fast
mode shares one bytes object per wire format), raw websockets, and an
xhr-streaming response (which wraps the shared frame string its own way)."""
from __future__ import annotations

import json
import sys
import time

import pytest

from serverproc import ServerProcess
from sockjs_client import POST_async, RawHttpConnection
from test_sockjs_protocol import new_session, ws_url
from wsclient import WebSocket

OURS = [sys.executable, "-m", "sockbench_server"]
MESSAGES = ["m%d \u2028 \"q\"" % i for i in range(5)]


def hixie76(url: str) -> RawHttpConnection:
    """A hixie-76 session; the handshake answer is read and dropped."""
    c = RawHttpConnection(url)
    r = c.request("GET", url, http="1.1", headers={
        "Connection": "Upgrade", "Upgrade": "WebSocket",
        "Origin": "/".join(url.split("/")[:3]),
        "Sec-WebSocket-Key1": "4 @1  46546xW%0l 1 5",
        "Sec-WebSocket-Key2": "12998 5 Y3 1  .P00",
    })
    assert r.status == 101
    c.send(b"aaaaaaaa")
    c.read_bytes(16)
    return c


def hixie76_frame(c: RawHttpConnection) -> str:
    assert c.read_bytes(1) == b"\x00"
    data = b""
    while not data.endswith(b"\xff"):
        data += c.read_bytes(1)
    return data[:-1].decode("utf-8")


def messages_in(frame: str):
    if frame.startswith("a"):
        return json.loads(frame[1:])
    assert frame == "h", frame
    return []


def collect(read_frame, count: int, deadline: float):
    got = []
    while len(got) < count:
        assert time.monotonic() < deadline, "got only %r" % got
        got.extend(messages_in(read_frame()))
    return got


@pytest.mark.parametrize("naive", [False, True], ids=["fast", "naive"])
def test_every_transport_gets_every_broadcast_in_order(naive):
    srv = ServerProcess(["--naive"] if naive else [], command=OURS)
    assert srv.fields["mode"] == ("naive" if naive else "fast")
    top = srv.url + "/broadcast"
    clients = []
    try:
        rfc = WebSocket(ws_url(new_session(top)) + "/websocket")
        clients.append(rfc.conn)
        assert rfc.recv() == "o"
        hix = hixie76(new_session(top) + "/websocket")
        clients.append(hix)
        assert hixie76_frame(hix) == "o"
        raw = WebSocket(ws_url(top) + "/websocket")
        clients.append(raw.conn)
        stream = POST_async(new_session(top) + "/xhr_streaming")
        clients.append(stream.conn)
        assert stream.read().startswith("h")
        assert stream.read() == "o\n"
        time.sleep(0.2)  # every session open before the broadcast

        # All messages in one websocket frame: one loop iteration on the
        # server, so fast mode sends each framed session one a[...] frame.
        rfc.send(json.dumps(MESSAGES))
        deadline = time.monotonic() + 10
        first = rfc.recv()
        # Deterministic: the five broadcasts run in one callback.
        assert messages_in(first) == (MESSAGES[:1] if naive else MESSAGES)
        rest = collect(rfc.recv, len(MESSAGES) - len(messages_in(first)), deadline)
        assert messages_in(first) + rest == MESSAGES
        assert collect(lambda: hixie76_frame(hix), len(MESSAGES), deadline) == MESSAGES
        assert [raw.recv() for _ in MESSAGES] == MESSAGES
        assert collect(lambda: stream.read().rstrip("\n"), len(MESSAGES), deadline) == MESSAGES
    finally:
        for c in clients:
            c.close()
        srv.stop()
