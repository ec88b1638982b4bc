"""Overload and bad clients (this server only): a client that stops
reading, one that dribbles its headers, and running out of descriptors."""
from __future__ import annotations

import json
import os
import resource
import socket
import sys
import threading
import time

import pytest

from serverproc import ServerProcess
from sockbench_contract.procfs import cpu_seconds, open_fds, rss_bytes
from sockjs_client import GET
from wsclient import ConnectionClosed, WebSocket

OURS = [sys.executable, "-m", "sockbench_server"]
MiB = 1024 * 1024


def port_of(srv: ServerProcess) -> int:
    return int(srv.url.rsplit(":", 1)[1])


def upgrade_request(path: str, port: int) -> bytes:
    return ("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n" % (path, port)).encode()


def read_until(sock: socket.socket, marker: bytes, deadline: float) -> bytes:
    data = b""
    while marker not in data:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError("connection closed before %r; got %r" % (marker, data[:200]))
        data += chunk
    return data


def drain(sock: socket.socket, until: bytes, timeout: float = 15) -> bytes:
    """Read until ``until`` arrived or the server closed; the last 4 KiB."""
    sock.settimeout(timeout)
    tail = b""
    while until not in tail:
        chunk = sock.recv(1 << 20)
        if not chunk:
            break
        tail = (tail + chunk)[-4096:]
    return tail


# -- a client that never reads ------------------------------------------------

@pytest.mark.parametrize("naive", [False, True], ids=["fast", "naive"])
def test_a_client_that_stops_reading_is_closed_and_memory_stays_bounded(naive):
    """In both modes; naive mode's copies take the websocket receiver's own
    text path (``WsReceiver.send_frame``), fast mode's the shared bytes."""
    cap = 1 * MiB
    # Trap: PyPy's GC lets the heap grow ~1.8x before a major collection,
    # which alone would look like a leak of tens of MiB; make it eager.
    env = dict(os.environ, PYPY_GC_MAJOR_COLLECT="1.2")
    srv = ServerProcess(["--max-session-buffer", str(cap)] + (["--naive"] if naive else []),
                        command=OURS, env=env)
    port = port_of(srv)
    stalled = socket.create_connection(("127.0.0.1", port))
    try:
        # Trap: no small SO_RCVBUF here. Below the loopback MSS (64 KiB) the
        # receiver never reopens its window when it reads at last (silly
        # window avoidance) and the data then trickles in at the pace of the
        # sender's zero-window probes, for minutes.
        stalled.sendall(upgrade_request("/broadcast/000/stalled/websocket", port))
        read_until(stalled, b"\r\n\r\n", time.monotonic() + 10)

        good = WebSocket(srv.url + "/broadcast/000/good/websocket", timeout=30)
        assert good.recv() == "o"
        time.sleep(0.3)  # let the server settle before the baseline
        baseline = rss_bytes(srv.proc.pid)

        count, size = 10000, 8192  # ~80 MiB to every member
        received = []
        failure = []

        def read_all():
            try:
                while len(received) < count:
                    frame = good.recv()
                    if frame.startswith("a"):
                        received.extend(json.loads(frame[1:]))
            except Exception as e:  # reported by the main thread
                failure.append(e)

        reader = threading.Thread(target=read_all, daemon=True)
        reader.start()
        peak = baseline
        tail = None
        deadline = time.monotonic() + 60
        for i in range(count):
            # The good client must stay a good client: never more than a
            # window (256 KiB, well under the cap) behind the sender.
            while i - len(received) > 32 and not failure:
                assert time.monotonic() < deadline, "the good client stopped receiving"
                time.sleep(0.0005)
            good.send(json.dumps(["%06d" % i + "x" * (size - 6)]))
            if i % 100 == 0:
                peak = max(peak, rss_bytes(srv.proc.pid))
                if tail is None and "client not reading" in srv.stderr_text():
                    tail = drain(stalled, b"\x03\xf0Client not reading")
        reader.join(60)
        peak = max(peak, rss_bytes(srv.proc.pid))
        assert not failure and not reader.is_alive(), failure
        assert [m[:6] for m in received] == ["%06d" % i for i in range(count)]
        # Without the cap the stalled session would hold ~80 MiB minus what
        # the kernels buffer (up to ~10 MiB on loopback); with it, the cap
        # plus slack for the allocator and the garbage collector.
        growth = peak - baseline
        print("RSS growth %.1f MiB" % (growth / MiB))
        assert growth < 40 * MiB, "RSS grew by %.1f MiB; log: %s" % (growth / MiB, srv.stderr_text()[-1500:])
        log = srv.stderr_text()
        assert log.count("client not reading") == 1, log[-2000:]
        # What the stalled client got when it read at last: the messages up
        # to the cap, then the SockJS close frame, then a websocket close.
        assert tail is not None
        assert b'c[1008,"Client not reading"]' in tail
        # ... and the websocket close frame says 1008 too.
        assert tail.endswith(b'Client not reading"]\x88\x14\x03\xf0Client not reading')
        good.close()
    finally:
        stalled.close()
        srv.stop()


# -- slowloris ----------------------------------------------------------------

def test_a_client_dribbling_its_headers_is_cut_off_and_others_are_served():
    srv = ServerProcess(["--header-timeout", "1.5"], command=OURS)
    port = port_of(srv)
    loris = socket.create_connection(("127.0.0.1", port))
    idle = socket.create_connection(("127.0.0.1", port))
    try:
        request = upgrade_request("/echo/websocket", port)
        start = time.monotonic()
        closed_after = None
        loris.settimeout(0.2)
        for byte in request[:-1]:  # never complete
            try:
                loris.send(bytes([byte]))
                if loris.recv(1024) == b"":
                    closed_after = time.monotonic() - start
                    break
            except socket.timeout:
                pass
            except OSError:
                closed_after = time.monotonic() - start
                break
            if byte % 3 == 0:  # meanwhile, a well-behaved client is served
                assert GET(srv.url + "/echo/info").status == 200
            if time.monotonic() - start > 10:
                break
        assert closed_after is not None, "still connected after 10 s"
        assert 1.2 <= closed_after <= 6.0, closed_after
        # A connection that never sends anything is closed too.
        idle.settimeout(6)
        assert idle.recv(10) == b""
    finally:
        loris.close()
        idle.close()
        srv.stop()


def test_header_timeout_defaults_to_ten_seconds():
    from sockbench_server import cli
    args = cli.build_parser().parse_args([])
    assert args.header_timeout == 10.0
    assert args.max_session_buffer == 1 * MiB
    assert args.max_total_buffer == 64 * MiB


# -- out of file descriptors --------------------------------------------------

def limited_fds_command(limit: int):
    """Our server, exec'd with RLIMIT_NOFILE lowered to ``limit``."""
    code = ("import os, resource, sys; "
            "resource.setrlimit(resource.RLIMIT_NOFILE, (%d, %d)); "
            "os.execv(sys.executable, [sys.executable, '-m', 'sockbench_server'] + sys.argv[1:])"
            % (limit, limit))
    return [sys.executable, "-c", code]


def test_running_out_of_descriptors_backs_off_and_recovers():
    srv = ServerProcess([], command=limited_fds_command(64))
    port = port_of(srv)
    clients = []
    try:
        for _ in range(200):
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", port))
            clients.append(s)
        # Wait until the server holds all the descriptors it can.
        deadline = time.monotonic() + 10
        while open_fds(srv.proc.pid) < 60 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert open_fds(srv.proc.pid) >= 60
        time.sleep(0.5)
        cpu0, t0 = cpu_seconds(srv.proc.pid), time.monotonic()
        time.sleep(3)
        cpu = (cpu_seconds(srv.proc.pid) - cpu0) / (time.monotonic() - t0)
        # Stock Tornado spins here at ~65 % of a core; backing off costs ~0.
        assert cpu < 0.15, "server used %.0f %% CPU while out of descriptors" % (cpu * 100)
        log = srv.stderr_text()
        lines = [l for l in log.splitlines() if "cannot accept connections" in l]
        assert 1 <= len(lines) <= 2, log[-3000:]
        assert "Traceback" not in log

        for s in clients:
            s.close()
        clients = []
        # Descriptors free up: the server serves normally again.
        deadline = time.monotonic() + 15
        while True:
            try:
                assert GET(srv.url + "/echo/info").status == 200
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        ws = WebSocket(srv.url + "/echo/websocket", timeout=10)
        ws.send("still here")
        assert ws.recv() == "still here"
        ws.close()
    finally:
        for s in clients:
            s.close()
        srv.stop()
