"""5,000 concurrent websocket sessions on loopback, every one receiving a
broadcast. One thread and a selector drive all the client sockets, so the
test stays cheap on PyPy too."""
from __future__ import annotations

import os
import resource
import selectors
import socket
import sys
import time

import pytest

from serverproc import ServerProcess
from sockbench_server import open_files
from sockbench_server.protocol.wsframes import pop_frames
from wsclient import mask_payload

OURS = [sys.executable, "-m", "sockbench_server"]
SESSIONS = 5000
#: Handshakes in flight at once: above the listen backlog (128) the kernel
#: drops SYNs and clients wait for 1 s retransmits.
IN_FLIGHT = 100
DEADLINE = 120.0  # seconds for the whole test; it takes a few on an idle machine


@pytest.fixture
def many_fds():
    """Raise RLIMIT_NOFILE for this process and the server it starts (the
    child inherits it), the server's own way (open_files.raise_limit). We
    run as root in CI, so the hard limit can rise."""
    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 3 * SESSIONS
    limit = open_files.raise_limit(want)
    if limit is not None and limit < want:
        pytest.fail("cannot raise the descriptor limit to %d (it stays at %d): run as root "
                    "or raise 'ulimit -n'" % (want, limit))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, before)


class Client:
    __slots__ = ("sock", "index", "buf", "state", "messages")

    def __init__(self, index: int):
        self.index = index
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        self.buf = bytearray()
        self.state = "connecting"
        self.messages = []

    def frames(self):
        """Complete server frames in the buffer: (opcode, payload)."""
        return pop_frames(self.buf)


def upgrade(port: int, index: int) -> bytes:
    return ("GET /broadcast/000/s%d/websocket HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n" % (index, port)).encode()


def test_five_thousand_websocket_sessions_all_receive_a_broadcast(many_fds):
    # More sessions than the default session budget (3,276 at the default
    # 64 MiB): this test is about connections, not that budget.
    srv = ServerProcess(["--max-sessions", "6000"], command=OURS)
    port = int(srv.url.rsplit(":", 1)[1])
    sel = selectors.DefaultSelector()
    clients = []
    start = time.monotonic()
    deadline = start + DEADLINE
    try:
        opened = 0
        in_flight = 0
        next_index = 0

        def handle(client, events):
            nonlocal opened, in_flight
            if client.state == "connecting":
                err = client.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                assert err == 0, "connect failed: %s" % os.strerror(err)
                client.sock.send(upgrade(port, client.index))  # ~200 bytes: fits
                client.state = "handshake"
                sel.modify(client.sock, selectors.EVENT_READ, client)
                return
            data = client.sock.recv(65536)
            assert data, "server closed session %d in state %s" % (client.index, client.state)
            client.buf += data
            if client.state == "handshake":
                end = client.buf.find(b"\r\n\r\n")
                if end < 0:
                    return
                assert client.buf.startswith(b"HTTP/1.1 101"), bytes(client.buf[:100])
                del client.buf[:end + 4]
                client.state = "upgraded"
            for opcode, payload in client.frames():
                assert opcode == 0x1, opcode
                text = payload.decode("utf-8")
                if text == "o":
                    assert client.state == "upgraded"
                    client.state = "open"
                    opened += 1
                    in_flight -= 1
                elif text.startswith("a"):
                    client.messages.append(text)

        while opened < SESSIONS:
            while in_flight < IN_FLIGHT and next_index < SESSIONS:
                c = Client(next_index)
                next_index += 1
                c.sock.connect_ex(("127.0.0.1", port))
                sel.register(c.sock, selectors.EVENT_WRITE, c)
                clients.append(c)
                in_flight += 1
            assert time.monotonic() < deadline, "only %d sessions open" % opened
            for key, events in sel.select(timeout=1.0):
                handle(key.data, events)
        opened_after = time.monotonic() - start

        # One client broadcasts; every session, the sender too, must get it.
        mask = os.urandom(4)
        payload = b'["hello 5000"]'
        clients[0].sock.setblocking(True)
        clients[0].sock.sendall(bytes((0x81, 0x80 | len(payload))) + mask
                                + mask_payload(mask, payload))
        clients[0].sock.setblocking(False)
        waiting = set(range(SESSIONS))
        while waiting:
            assert time.monotonic() < deadline, "%d sessions still without the broadcast" % len(waiting)
            for key, events in sel.select(timeout=1.0):
                c = key.data
                handle(c, events)
                if c.messages:
                    waiting.discard(c.index)
        assert all(c.messages == ['a["hello 5000"]'] for c in clients)
        print("%d sessions open after %.1f s, broadcast received after %.1f s"
              % (SESSIONS, opened_after, time.monotonic() - start))
        assert srv.proc.poll() is None
        assert "Traceback" not in srv.stderr_text()
    finally:
        for c in clients:
            c.sock.close()
        sel.close()
        srv.stop()
