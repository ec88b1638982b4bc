"""docs/protocol.md, beyond the SockJS suite: command line, READY line,
shutdown, the /broadcast application, bad input, heartbeat and
disconnect_delay. Server-agnostic: only what the contract promises."""
from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import time

import pytest

from serverproc import ServerProcess, server_command
from sockbench_contract.ready_line import KEY_RE, parse_ready_line
from sockjs_client import GET, POST, POST_async, old_POST_async
from test_sockjs_protocol import new_session, ws_url
from wsclient import ConnectionClosed, WebSocket

DISCONNECT_DELAY = 5.0


def run_cli(args, timeout=30):
    p = subprocess.run(server_command() + list(args), stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def messages_of(frame: str):
    """Messages carried by one framed-websocket frame ('h' and 'o' carry none)."""
    if frame.startswith("a"):
        return json.loads(frame[1:])
    assert frame in ("o", "h"), frame
    return []


def collect(ws: WebSocket, count: int, raw: bool = False):
    got = []
    while len(got) < count:
        frame = ws.recv()
        got.extend([frame] if raw else messages_of(frame))
    return got


# -- 1. command line -------------------------------------------------------------

class TestCommandLine:
    def test_help(self):
        rc, out, err = run_cli(["--help"])
        assert rc == 0
        for flag in ("--host", "--port", "--heartbeat", "--log-level"):
            assert flag in out
        assert not out.startswith("READY")

    @pytest.mark.parametrize("args,flag", [
        (["--bogus"], "--bogus"),
        (["--port"], "--port"),
        (["--port", "70000"], "--port"),
        (["--port", "-1"], "--port"),
        (["--port", "eighty"], "--port"),
        (["--heartbeat", "0"], "--heartbeat"),
        (["--heartbeat", "-5"], "--heartbeat"),
        (["--heartbeat", "soon"], "--heartbeat"),
        (["--log-level", "loud"], "--log-level"),
    ])
    def test_usage_errors(self, args, flag):
        rc, out, err = run_cli(args)
        assert rc == 2, (rc, out, err)
        assert flag in err
        assert out == ""  # nothing else happens: no READY, no listening

    def test_port_in_use(self):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        try:
            rc, out, err = run_cli(["--port", str(port)])
        finally:
            s.close()
        assert rc == 1, (rc, out, err)
        assert out == ""
        assert len(err.strip().splitlines()) == 1, err


# -- 2. READY --------------------------------------------------------------------

class TestReadyLine:
    def test_format(self, server):
        url, fields = parse_ready_line(server.ready_line)
        assert url == server.url
        assert re.match(r"^http://127\.0\.0\.1:\d+$", url)
        assert int(url.rsplit(":", 1)[1]) > 0
        for key in ("server", "runtime", "runtime_version", "heartbeat"):
            assert fields.get(key), key
        assert all(KEY_RE.match(k) for k in fields)
        assert fields["runtime"] in ("cpython", "pypy", "node", "bun", "deno", "go", "c")
        assert float(fields["heartbeat"]) == 25

    def test_configured_heartbeat_is_reported(self, fast_heartbeat_server):
        assert float(fast_heartbeat_server.fields["heartbeat"]) == 0.5

    def test_listening_when_ready(self, server):
        r = GET(server.url + "/broadcast/info")
        assert r.status == 200
        data = json.loads(r.body)
        assert data["websocket"] is True and data["cookie_needed"] is False
        assert data["origins"] == ["*:*"] and type(data["entropy"]) is int


# -- 3. stop ---------------------------------------------------------------------

# One test per kind of session, so a websocket-only server (the C limit server)
# runs the websocket half of this section from here, not from a copy.
STOP_SIGNALS = pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])


def _stopped_cleanly(srv, t0):
    """The server, signalled at t0, exits 0 within 2 s and printed nothing after READY."""
    rc = srv.wait(2.5)
    elapsed = time.monotonic() - t0
    assert rc == 0, srv.stderr_text()
    assert elapsed < 2.0, elapsed
    assert srv.rest_of_stdout() == b""  # stdout carries the READY line only


@STOP_SIGNALS
def test_stop_closes_every_websocket_session_and_exits_0(sig):
    srv = ServerProcess()
    try:
        top = srv.url
        framed = WebSocket(ws_url(new_session(top + "/broadcast")) + "/websocket")
        assert framed.recv() == "o"
        raw = WebSocket(ws_url(top + "/broadcast") + "/websocket")
        time.sleep(0.3)

        t0 = time.monotonic()
        srv.send_signal(sig)
        assert framed.recv() == 'c[3000,"Go away!"]'
        with pytest.raises(ConnectionClosed):
            framed.recv()
        with pytest.raises(ConnectionClosed) as ce:
            raw.recv()
        assert ce.value.code == 1001
        _stopped_cleanly(srv, t0)
    finally:
        srv.kill()


@STOP_SIGNALS
def test_stop_closes_every_http_session_and_exits_0(sig):
    srv = ServerProcess()
    try:
        top = srv.url
        stream_url = new_session(top + "/echo")
        stream = POST_async(stream_url + "/xhr_streaming")
        assert stream.read().startswith("h")
        assert stream.read() == "o\n"
        poll_url = new_session(top + "/echo")
        assert POST(poll_url + "/xhr").body == "o\n"
        poll = old_POST_async(poll_url + "/xhr")
        time.sleep(0.3)

        t0 = time.monotonic()
        srv.send_signal(sig)
        assert stream.read() == 'c[3000,"Go away!"]\n'
        head = poll.read_head()
        assert head.status == 200
        body = poll.read_chunk() if head.get("Transfer-Encoding") else poll.read(
            int(head["Content-Length"]))
        assert body == 'c[3000,"Go away!"]\n'
        _stopped_cleanly(srv, t0)
    finally:
        srv.kill()


# -- 4. /broadcast -----------------------------------------------------------------

class TestBroadcast:
    def test_every_session_gets_every_message_sender_included(self, urls):
        base = urls.broadcast_url
        framed = [WebSocket(ws_url(new_session(base)) + "/websocket") for _ in range(3)]
        for ws in framed:
            assert ws.recv() == "o"
        raw = WebSocket(ws_url(base) + "/websocket")
        stream_url = new_session(base)
        stream = POST_async(stream_url + "/xhr_streaming")
        stream.read()
        assert stream.read() == "o\n"
        time.sleep(0.1)  # every open has reached the application

        framed[0].send(json.dumps(["m1", "m2"]))
        raw.send("r1")
        assert POST(stream_url + "/xhr_send", body=json.dumps(["x1"])).status == 204

        expected = {"m1", "m2", "r1", "x1"}
        for ws in framed:
            got = collect(ws, 4)
            assert set(got) == expected
            assert got.index("m1") < got.index("m2")
        assert set(collect(raw, 4, raw=True)) == expected
        streamed = []
        while len(streamed) < 4:
            streamed.extend(messages_of(stream.read().rstrip("\n")))
        assert set(streamed) == expected
        for ws in framed + [raw]:
            ws.close()
        stream.close()

    def test_order_per_sender_and_opaque_payloads(self, urls):
        base = urls.broadcast_url
        a = WebSocket(ws_url(new_session(base)) + "/websocket")
        b = WebSocket(ws_url(base) + "/websocket")
        assert a.recv() == "o"
        time.sleep(0.1)
        payloads = ['{"client":7,"seq":%d,"t":1700000000.5}' % i for i in range(40)]
        payloads += ['quote " backslash \\ slash / ', "ż\u2028\u2029\ufff0 \x00\n", ""]
        for p in payloads:
            a.send(json.dumps(p))          # single JSON string form
        assert collect(a, len(payloads)) == payloads
        assert collect(b, len(payloads), raw=True) == payloads
        a.close()
        b.close()

    def test_single_json_string_and_array_forms(self, urls):
        ws = WebSocket(ws_url(new_session(urls.broadcast_url)) + "/websocket")
        assert ws.recv() == "o"
        ws.send('"single"')
        ws.send('["a1","a2"]')
        assert collect(ws, 3) == ["single", "a1", "a2"]
        ws.close()


# -- 4.4 bad input -----------------------------------------------------------------

class TestBadInput:
    @pytest.mark.parametrize("bad", ['["a', "{}", "[1,2]", '["ok", null]', "42"])
    def test_bad_frame_closes_that_session_only(self, urls, bad):
        base = urls.broadcast_url
        victim = WebSocket(ws_url(new_session(base)) + "/websocket")
        other = WebSocket(ws_url(new_session(base)) + "/websocket")
        assert victim.recv() == "o" and other.recv() == "o"
        victim.send(bad)
        with pytest.raises(ConnectionClosed):
            while True:
                victim.recv()
        other.send('["still here"]')
        got = []
        while "still here" not in got:
            got.extend(collect(other, 1))
        # Whether valid messages before the bad element were delivered is
        # not specified; nothing else may arrive.
        assert set(got) <= {"ok", "still here"}, got
        assert GET(urls.broadcast_url + "/info").status == 200
        other.close()

    def test_http_send_errors_keep_the_session(self, urls):
        url = new_session(urls.broadcast_url)
        assert POST(url + "/xhr").body == "o\n"
        for body, text in [('["x', "Broken JSON encoding."), ("", "Payload expected."),
                           ("[1]", "Payload expected."), ('"x"', "Payload expected.")]:
            r = POST(url + "/xhr_send", body=body)
            assert r.status == 500 and text in r.body, (body, r)
        assert POST(url + "/xhr_send", body='["fine"]').status == 204
        assert POST(url + "/xhr").body == 'a["fine"]\n'


# -- heartbeat and disconnect_delay --------------------------------------------------

class TestTiming:
    def test_heartbeat_frames(self, fast_heartbeat_server):
        top = fast_heartbeat_server.url
        ws = WebSocket(ws_url(new_session(top + "/broadcast")) + "/websocket")
        assert ws.recv() == "o"
        t0 = time.monotonic()
        assert ws.recv() == "h"
        assert 0.3 < time.monotonic() - t0 < 3.0
        assert ws.recv() == "h"
        ws.close()

        url = new_session(top + "/echo")
        assert POST(url + "/xhr").body == "o\n"
        t0 = time.monotonic()
        assert POST(url + "/xhr").body == "h\n"
        assert 0.3 < time.monotonic() - t0 < 3.0

        stream = POST_async(new_session(top + "/echo") + "/xhr_streaming")
        stream.read()
        assert stream.read() == "o\n"
        assert stream.read() == "h\n"
        stream.close()

    def test_raw_websocket_has_no_heartbeat_frames(self, fast_heartbeat_server):
        raw = WebSocket(ws_url(fast_heartbeat_server.url + "/echo") + "/websocket")
        raw.timeout = 1.3
        raw.conn.s.settimeout(1.3)
        with pytest.raises(socket.timeout):
            raw.recv()
        raw.close()

    def test_sessions_expire_after_disconnect_delay(self, urls):
        # All cases share one wait: set up, sleep past the delay once, check.
        gone = new_session(urls.base_url)
        assert POST(gone + "/xhr").body == "o\n"
        alive_until_checked = new_session(urls.base_url)
        assert POST(alive_until_checked + "/xhr").body == "o\n"
        closed = new_session(urls.close_base_url)
        assert POST(closed + "/xhr").body == "o\n"
        assert POST(closed + "/xhr").body == 'c[3000,"Go away!"]\n'
        t0 = time.monotonic()

        time.sleep(DISCONNECT_DELAY * 0.6)
        # Well inside the delay the session still exists.
        assert POST(alive_until_checked + "/xhr_send", body='["kept"]').status == 204

        # 1.5 s of margin: timers fire late on a busy machine.
        time.sleep(max(0.0, t0 + DISCONNECT_DELAY + 1.5 - time.monotonic()))
        # Past the delay without a receiving request it is gone ...
        assert POST(gone + "/xhr_send", body='["x"]').status == 404
        assert POST(gone + "/xhr").body == "o\n"
        # ... and so is a closed one: the id starts a fresh session.
        assert POST(closed + "/xhr").body == "o\n"
