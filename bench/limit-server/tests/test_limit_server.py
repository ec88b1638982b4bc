"""The limit server as the bench runs it, beyond what the shared conformance
suite checks (its websocket-only halves of the suite's mixed cases, and what
is the limit server's own): READY, the two fan-out algorithms seen on the
wire, SIGTERM, heartbeats, the session budget on websockets, the output
bound, bad input, a short `ulimit -n`. Each test starts its own server from
bench/limit-server/bin/limit-server (make test-limit-server builds it)."""
import json
import os
import resource
import select
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
from contextlib import contextmanager

import pytest

from serverproc import ServerProcess
from sockjs_client import GET
from test_sockjs_protocol import new_session, ws_open, ws_url
from wsclient import ConnectionClosed, HandshakeFailed, WebSocket, mask_payload

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BIN = os.path.join(ROOT, "bench", "limit-server", "bin", "limit-server")
MODES = {"fast": [], "naive": ["--naive"]}


def start(mode="fast", *extra):
    return ServerProcess(MODES[mode] + list(extra), command=[BIN])


@contextmanager
def running(mode="fast", *extra):
    """A limit server of its own for a test's `with` block, stopped after it."""
    srv = start(mode, *extra)
    try:
        yield srv
    finally:
        srv.stop()


def framed(top, prefix="/broadcast"):
    return ws_open(top + prefix)


def raw(top, prefix="/broadcast"):
    return WebSocket(ws_url(top + prefix) + "/websocket")


def messages(frame):
    assert frame.startswith("a["), frame
    return json.loads(frame[1:])


def collect(ws, count):
    """(messages, frames): read frames until `count` messages came."""
    got, frames = [], []
    while len(got) < count:
        frame = ws.recv()
        if frame == "h":
            continue
        frames.append(frame)
        got.extend(messages(frame))
    return got, frames


def masked_frame(text):
    """One client text frame, masked as RFC 6455 wants."""
    payload = text.encode()
    n = len(payload)
    head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else struct.pack("!BH", 0xFE, n))
    mask = os.urandom(4)
    return head + mask + mask_payload(mask, payload)


@pytest.fixture(params=sorted(MODES))
def server(request):
    with running(request.param) as srv:
        yield srv


def test_ready_line_names_the_limit_server_its_mode_and_bounds(server):
    f = server.fields
    assert (f["server"], f["runtime"]) == ("limit", "c")
    assert f["runtime_version"].startswith("gcc-")
    assert f["mode"] == ("naive" if "--naive" in server.argv else "fast")
    assert (f["max_sessions"], f["max_session_buffer"], f["heartbeat"]) == ("10000", "1048576", "25")


def test_every_session_gets_every_message_sender_included_in_order(server):
    top = server.url
    sessions = [framed(top) for _ in range(3)]
    r = raw(top)
    time.sleep(0.1)
    sessions[0].send(json.dumps(["m1", "m2"]))
    r.send("r1")
    sessions[1].send(json.dumps("s1"))
    expected = {"m1", "m2", "r1", "s1"}
    for ws in sessions:
        got, _ = collect(ws, 4)
        assert set(got) == expected and got.index("m1") < got.index("m2")
    assert {r.recv() for _ in range(4)} == expected
    for ws in sessions + [r]:
        ws.close()


@pytest.mark.parametrize("mode", sorted(MODES))
def test_fast_coalesces_a_loop_turn_and_naive_writes_a_frame_per_message(mode):
    """20 messages in one TCP write reach the server in one read, so one loop
    turn: fast mode answers with one a[...] frame holding all 20, naive mode
    with 20 frames of one message each."""
    with running(mode) as srv:
        sender, receiver = framed(srv.url), framed(srv.url)
        time.sleep(0.1)
        sent = ["msg-%02d" % i for i in range(20)]
        sender.conn.send(b"".join(masked_frame(json.dumps([m])) for m in sent))
        got, frames = collect(receiver, 20)
        assert got == sent
        assert len(frames) == (1 if mode == "fast" else 20), frames
        sender.close()
        receiver.close()


def test_heartbeat_on_framed_sessions_only():
    with running("fast", "--heartbeat", "0.5") as srv:
        ws = framed(srv.url)
        t0 = time.monotonic()
        assert ws.recv() == "h"
        assert 0.3 < time.monotonic() - t0 < 3.0
        assert ws.recv() == "h"
        r = raw(srv.url)
        r.conn.s.settimeout(1.3)
        r.timeout = 1.3
        with pytest.raises(socket.timeout):
            r.recv()
        ws.close()
        r.close()


def test_session_budget_on_websockets_503_freed_at_once_logged_once():
    with running("fast", "--max-sessions", "2") as srv:
        held = [framed(srv.url), raw(srv.url)]
        for url in (new_session(srv.url + "/broadcast") + "/websocket", srv.url + "/broadcast/websocket"):
            with pytest.raises(HandshakeFailed) as refused:
                WebSocket(ws_url(url))
            r = refused.value.response
            assert (r.status, r["Retry-After"]) == (503, "5")
        # The websocket client reads the head only; a plain request reads the body too.
        r = GET(srv.url + "/broadcast/websocket", headers={
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
        assert (r.status, r.body) == (503, "Session limit reached.")
        time.sleep(0.2)
        lines = len(srv.stderr_text().splitlines())
        for _ in range(20):
            with pytest.raises(HandshakeFailed):
                raw(srv.url)
        time.sleep(0.2)
        assert len(srv.stderr_text().splitlines()) == lines, "refusals are logged at most once per 10 s"
        assert "session limit reached" in srv.stderr_text()
        assert GET(srv.url + "/broadcast/info").status == 200  # other URLs are never refused
        held.pop().close()
        deadline = time.monotonic() + 1.0
        while True:
            try:
                held.append(framed(srv.url))
                break
            except HandshakeFailed:
                assert time.monotonic() < deadline, "the place was not freed within 1 s"
                time.sleep(0.02)
        for ws in held:
            ws.close()


#: Messages the output-bound test sends (16 KiB each).
COPIES = 640


def test_a_client_that_stops_reading_is_closed_at_the_output_bound():
    with running("naive", "--max-session-buffer", "65536") as srv:
        victim = raw(srv.url)  # never reads again
        sender = framed(srv.url)
        time.sleep(0.1)
        got = []

        def drain():  # the sender gets its own copies: it must read them
            try:
                while len(got) < COPIES:
                    got.extend(messages(sender.recv()))
            except (ConnectionClosed, OSError):
                pass

        reader = threading.Thread(target=drain, daemon=True)
        reader.start()
        # 640 x 16 KiB = 10 MiB: more than the kernel's socket buffers hold
        # for the victim, so the server's own queue must reach the bound. The
        # sender reads its own copies and keeps at most two of them unread, so
        # its queue at the server stays under the bound and only the victim's
        # grows (sending unpaced, a reader thread that lags a moment had the
        # sender cut off too).
        big = "x" * (16 * 1024)
        deadline = time.monotonic() + 20
        for i in range(COPIES):
            while i - len(got) >= 2:
                assert time.monotonic() < deadline, "the sender's own copies stopped coming"
                time.sleep(0.0005)
            sender.send(json.dumps([big]))
        while "not reading" not in srv.stderr_text():
            assert time.monotonic() < deadline, srv.stderr_text()
            time.sleep(0.05)
        line = [ln for ln in srv.stderr_text().splitlines() if "not reading" in ln]
        assert len(line) == 1 and "--max-session-buffer 65536" in line[0], line
        reader.join(20)
        assert len(got) == COPIES  # the reading session was served in full
        sender.close()
        victim.conn.close()


@pytest.mark.parametrize("bad", ['["a', "[1]", '{"a":1}'])
def test_bad_input_closes_that_session_with_1002_and_one_warning(bad):
    with running("fast") as srv:
        victim, other = framed(srv.url), framed(srv.url)
        victim.send(bad)
        with pytest.raises(ConnectionClosed) as closed:
            victim.recv()
        assert (closed.value.code, closed.value.reason) == (1002, "Broken framing.")
        other.send('["fine"]')
        assert collect(other, 1)[0] == ["fine"]
        warnings = [ln for ln in srv.stderr_text().splitlines() if "broken SockJS framing" in ln]
        assert len(warnings) == 1 and "warning" in warnings[0], srv.stderr_text()
        other.close()


def test_usage_errors_of_its_own_flags_exit_2():
    for args in (["--max-sessions", "0"], ["--max-session-buffer", "100"], ["--naive=yes"], ["--sessions", "0"],
                 ["--sessions", "10000001"]):
        p = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=10)
        assert p.returncode == 2 and args[0].split("=")[0] in p.stderr and p.stdout == "", (args, p)


def test_a_ulimit_below_the_session_budget_is_named_in_one_line():
    def low_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (200, 200))

    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen([BIN, "--port", "0", "--max-sessions", "1000"], stdout=subprocess.PIPE, stderr=err,
                             preexec_fn=low_limit)
        try:
            ready, _, _ = select.select([p.stdout], [], [], 10)
            assert ready and p.stdout.readline().startswith(b"READY ")
        finally:
            p.send_signal(signal.SIGTERM)
            assert p.wait(5) == 0
        err.seek(0)
        lines = err.read().decode().splitlines()
    named = [ln for ln in lines if "ulimit -n is 200" in ln]
    assert len(named) == 1 and "--max-sessions 1000" in named[0], lines


def _low_fd_limit():
    resource.setrlimit(resource.RLIMIT_NOFILE, (200, 200))


def test_sessions_beyond_the_open_files_limit_refuse_to_start_in_one_line():
    p = subprocess.run([BIN, "--port", "0", "--sessions", "1000"], capture_output=True, text=True, timeout=10,
                       preexec_fn=_low_fd_limit)
    assert p.returncode == 2 and p.stdout == "", p
    assert p.stderr == ("limit-server: 1000 sessions need 1064 open files per process but the limit is 200 "
                        "(ulimit -n); raise ulimit -n\n"), p.stderr


def test_sessions_that_fit_grow_the_budget_by_a_quarter_unless_it_is_given():
    with running("fast", "--sessions", "16000") as srv:
        assert srv.fields["max_sessions"] == "20000", srv.ready_line
    with running("fast", "--sessions", "100", "--max-sessions", "50") as srv:
        assert srv.fields["max_sessions"] == "50", srv.ready_line
    with running("fast", "--sessions", "100") as srv:
        assert srv.fields["max_sessions"] == "10000", "never below the default: " + srv.ready_line
