"""``--compression permessage-deflate`` (RFC 7692, docs/compression.md): the
upgrade accepts a client's offer, every frame to that session is compressed
with its own context (kept across messages), what the client sends may be
compressed or not, and a server started without the flag, or a client that
does not offer it, gets plain frames."""
from __future__ import annotations

import json
import sys
import zlib

import pytest

from serverproc import ServerProcess
from wsclient import WebSocket

OURS = [sys.executable, "-m", "sockbench_server"]
OFFER = {"Sec-WebSocket-Extensions": "permessage-deflate; client_max_window_bits"}
TAIL = b"\x00\x00\xff\xff"


@pytest.fixture(scope="module")
def server():
    srv = ServerProcess(["--compression", "permessage-deflate"], command=OURS)
    yield srv
    srv.stop()


class Inflating:
    """A client's side of one permessage-deflate session: frames read raw,
    RSV1 messages inflated with one context for the whole session."""

    def __init__(self, ws: WebSocket):
        self.ws = ws
        self.inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        self.compressed = 0

    def recv(self) -> str:
        first, second = self.ws.conn.read_bytes(2)
        n = second & 0x7F
        if n == 126:
            n = int.from_bytes(self.ws.conn.read_bytes(2), "big")
        elif n == 127:
            n = int.from_bytes(self.ws.conn.read_bytes(8), "big")
        payload = self.ws.conn.read_bytes(n) if n else b""
        assert first & 0x0F == 1, "a text frame"
        assert first & 0x80, "one frame per message"
        if first & 0x40:
            self.compressed += 1
            payload = self.inflater.decompress(payload + TAIL)
        return payload.decode("utf-8")


def compress(deflater, text: str) -> bytes:
    data = deflater.compress(text.encode()) + deflater.flush(zlib.Z_SYNC_FLUSH)
    assert data.endswith(TAIL)
    return data[:-4]


def test_ready_says_compression(server):
    assert server.fields["compression"] == "permessage-deflate"


def test_the_offer_is_accepted_and_every_frame_is_compressed_with_context_takeover(server):
    ws = WebSocket(server.url + "/broadcast/000/deflate1/websocket", headers=OFFER)
    try:
        answer = ws.response["Sec-WebSocket-Extensions"]
        assert answer.split(";")[0].strip() == "permessage-deflate", answer
        assert "server_no_context_takeover" not in answer
        client = Inflating(ws)
        assert client.recv() == "o"
        message = "1:0:1:2:" + "x" * 200
        ws.send(json.dumps([message]))  # uncompressed from the client: allowed (RFC 7692 6)
        assert json.loads(client.recv()[1:]) == [message]
        # compressed from the client too: RSV1 on the first frame
        deflater = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
        payload = compress(deflater, json.dumps([message]))
        frame_head = bytes([0xC1, 0x80 | len(payload)])
        mask = b"\x01\x02\x03\x04"
        ws.conn.send(frame_head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        assert json.loads(client.recv()[1:]) == [message]
        assert client.compressed == 3, "o and both broadcasts came compressed"
    finally:
        ws.conn.close()


def test_without_an_offer_frames_stay_plain(server):
    ws = WebSocket(server.url + "/broadcast/000/plain1/websocket")
    try:
        assert ws.response["Sec-WebSocket-Extensions"] in (None, "")
        assert ws.recv() == "o"
    finally:
        ws.conn.close()


def test_a_server_without_the_flag_does_not_accept_the_offer():
    srv = ServerProcess([], command=OURS)
    try:
        assert srv.fields["compression"] == "none"
        ws = WebSocket(srv.url + "/broadcast/000/plain2/websocket", headers=OFFER)
        try:
            assert ws.response["Sec-WebSocket-Extensions"] in (None, "")
            assert ws.recv() == "o"
        finally:
            ws.conn.close()
    finally:
        srv.stop()


def test_a_bad_value_is_a_usage_error():
    import subprocess
    p = subprocess.run(OURS + ["--compression", "gzip"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert "--compression" in p.stderr
