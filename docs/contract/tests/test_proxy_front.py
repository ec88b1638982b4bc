"""The proxy front end to end: two real one-worker servers (ours, on CPython: the cheapest to start)
behind a real haproxy, joined by a real private redis-server. An xhr-streaming, an xhr-polling and
a websocket session through the proxy, on different backends: a message any of them sends reaches
all of them (the broadcast crosses backends through Redis), and every request of a session is
answered by one backend (the X-Sockbench-Backend header haproxy adds). One keep-alive connection
carries polls of sessions on both backends: haproxy routes each request, not each connection.
Then the contract around it: READY, SIGTERM within 2 s leaving nothing behind, a backend that dies
stopping the group, a port in use named, usage errors in one line, a missing haproxy naming the fix.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid

import pytest

from sockbench_contract.haproxy_config import BACKEND_HEADER
from sockbench_contract.procfs import has_exited
from sockbench_contract.proxy_front import ProxyFront, backend_command, front_command
from sockbench_contract.server_launch import ServerProcess, StepError

CONTRACT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(CONTRACT, "conformance"))  # the suite's raw HTTP and websocket clients
from sockjs_client import POST, RawHttpConnection, _body, request_async  # noqa: E402
from wsclient import WebSocket  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(CONTRACT))
PYTHON = os.path.join(ROOT, ".venv-cpython", "bin", "python")
FRONT = os.path.join(CONTRACT, "sockbench_contract", "proxy_front.py")


def real(test):
    """A test that runs the real group: haproxy, redis-server and our server on CPython (make test-contract
    installs all three; elsewhere the test is skipped naming what to install)."""
    for missing, why in ((shutil.which("haproxy") is None, "haproxy missing: run `make setup-haproxy`"),
                         (shutil.which("redis-server") is None, "redis-server missing: run `make setup-redis`"),
                         (not os.path.exists(PYTHON), "server-python's CPython venv missing: run `make setup-python`")):
        test = pytest.mark.skipif(missing, reason=why)(test)
    return test


def server_argv(port=0):
    return [PYTHON, "-m", "sockbench_server", "--host", "127.0.0.1", "--port", str(port), "--heartbeat", "25"]


def start_front(tmp_path, name="front"):
    front = ServerProcess(front_command("haproxy", 2, "private", server_argv()),
                          log_path=str(tmp_path / f"{name}.log"), ready_timeout_s=60)
    front.start()
    return front


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    front = start_front(tmp_path_factory.mktemp("proxy"))
    yield front
    front.stop(raise_on_error=False)


def session_on(base, backend):
    """A fresh session id whose requests haproxy sends to `backend` (b0, b1): asked with an xhr_send
    to a session no backend knows (404, nothing created), which names the backend it reached."""
    for _ in range(64):
        sid = uuid.uuid4().hex[:12]
        r = POST(f"{base}/broadcast/000/{sid}/xhr_send", body='["probe"]')
        assert r.status == 404, (r.status, r.body)
        if r[BACKEND_HEADER] == backend:
            return sid
    raise AssertionError(f"64 session ids and none routed to {backend}")


def messages(frame):
    """The messages of one SockJS frame ('a[...]'), [] for 'o' and 'h'."""
    assert frame and frame[0] in "aoh", frame
    return json.loads(frame[1:]) if frame[0] == "a" else []


def read_until(read_frames, wanted, timeout_s=10):
    """Messages from read_frames() (a list of frames per call) until every one of `wanted` came."""
    seen, deadline = [], time.monotonic() + timeout_s
    while not set(wanted) <= set(seen):
        assert time.monotonic() < deadline, f"only {seen} of {wanted}"
        for frame in read_frames():
            seen += messages(frame)
    return seen


class Stream:
    """An xhr_streaming session: its frames, one chunk at a time."""

    def __init__(self, base, sid):
        self.response = request_async("POST", f"{base}/broadcast/000/{sid}/xhr_streaming")
        self.pending = ""

    def frames(self):
        self.pending += self.response.read()
        *complete, self.pending = self.pending.split("\n")
        return [f for f in complete if f and not f.startswith("hhhh")]  # the 2 KiB prelude is not a frame


@real
def test_ready_names_every_process_of_the_group(front):
    fields = front.fields
    assert fields["server"] == "sockbench-tornado" and fields["workers"] == "2"
    assert fields["proxy"] == "haproxy" and re.match(r"^\d+\.\d+", fields["proxy_version"])
    assert fields["broker"].startswith("redis://127.0.0.1:")
    pids = [int(p) for p in fields["worker_pids"].split(",")] + [int(fields["proxy_pid"])]
    assert len(set(pids)) == 3 and not any(has_exited(pid) for pid in pids)


@real
def test_sessions_on_both_backends_hear_each_other_on_every_transport(front):
    base = front.url
    stream_sid, polling_sid = session_on(base, "b0"), session_on(base, "b1")
    ws_sid, other_polling_sid = session_on(base, "b1"), session_on(base, "b0")
    backends = {}   # session -> every backend that answered one of its requests

    def saw(sid, response):
        backends.setdefault(sid, set()).add(response[BACKEND_HEADER])

    stream = Stream(base, stream_sid)
    saw(stream_sid, stream.response)
    opened = []
    while "o" not in opened:
        opened += stream.frames()
    # One keep-alive connection polls a session on each backend: routed per request, not per connection.
    polls = RawHttpConnection(base)

    def poll(sid):
        r = polls.request("POST", f"{base}/broadcast/000/{sid}/xhr")
        body = _body(polls, r)
        saw(sid, r)
        assert r.status == 200 and (r["Connection"] or "").lower() != "close", r
        return [f for f in body.split("\n") if f]

    assert poll(polling_sid) == ["o"] and poll(other_polling_sid) == ["o"]
    ws = WebSocket(f"ws://{base[len('http://'):]}/broadcast/000/{ws_sid}/websocket")
    saw(ws_sid, ws.response)
    assert ws.recv() == "o"

    def send(sid, text):
        r = POST(f"{base}/broadcast/000/{sid}/xhr_send", body=json.dumps([text]))
        saw(sid, r)
        assert r.status == 204, (r.status, r.body)

    for sender, text in ((stream_sid, "from the stream on b0"), (ws_sid, "from the websocket on b1"),
                         (polling_sid, "from the poller on b1")):
        if sender == ws_sid:
            ws.send(json.dumps([text]))
        else:
            send(sender, text)
        read_until(stream.frames, [text])
        read_until(lambda: [ws.recv()], [text])
        read_until(lambda: poll(polling_sid), [text])
        read_until(lambda: poll(other_polling_sid), [text])
    assert backends == {stream_sid: {"b0"}, polling_sid: {"b1"}, ws_sid: {"b1"}, other_polling_sid: {"b0"}}
    ws.close()
    stream.response.close()
    polls.close()


@real
def test_sigterm_stops_every_process_within_two_seconds(tmp_path):
    front = start_front(tmp_path)
    pids = [int(p) for p in front.fields["worker_pids"].split(",")] + [int(front.fields["proxy_pid"])]
    broker_port = int(front.fields["broker"].rsplit(":", 1)[1].split("/")[0])
    assert front.stop() == 0   # raises past the contract's 2 s or on a non-zero exit
    assert all(has_exited(pid) for pid in pids)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", broker_port), timeout=0.5).close()


@real
def test_a_backend_that_dies_stops_the_group_in_one_line(tmp_path):
    front = start_front(tmp_path)
    first = int(front.fields["worker_pids"].split(",")[0])
    os.kill(first, signal.SIGKILL)
    assert front.wait(10) == 1
    died = [line for line in front.stderr_text().splitlines() if "stopping the group" in line]
    assert died == [f"proxy_front.py: backend 1/2 pid {first} ended (signal 9); stopping the group "
                    "(behind the proxy its sessions cannot move to another process)"]
    assert has_exited(int(front.fields["proxy_pid"]))
    front.stop(raise_on_error=False)


def test_a_port_in_use_is_named_and_nothing_starts():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proc = subprocess.run(front_command("haproxy", 2, "redis://127.0.0.1:1/0", server_argv(port)),
                              capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1 and proc.stdout == ""
    [line] = proc.stderr.strip().splitlines()
    assert f"cannot listen on 127.0.0.1:{port}" in line and "PORT=" in line


@pytest.mark.parametrize("own, said", [
    (["--proxy", "nginx", "--workers", "2", "--broker", "private"], "PROXY=nginx is not a proxy sockbench runs"),
    (["--proxy", "haproxy", "--workers", "1", "--broker", "private"], "WORKERS=1 has nothing to spread"),
    (["--proxy", "haproxy", "--workers", "2"], "PROXY=haproxy needs a broker"),
])
def test_settings_that_cannot_run_are_one_line_and_exit_2(own, said):
    proc = subprocess.run([sys.executable, FRONT, *own, "--", *server_argv()], capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 2 and proc.stdout == ""
    [line] = proc.stderr.strip().splitlines()
    assert said in line


def test_a_missing_or_broken_haproxy_names_the_fix(tmp_path):
    with pytest.raises(StepError, match=r"no-such-haproxy not found: run `make setup-haproxy`"):
        ProxyFront("haproxy", 2, "private", server_argv(), executable="no-such-haproxy").start()
    broken = tmp_path / "haproxy"
    broken.write_text("#!/bin/sh\necho 'libfoo.so: cannot open shared object file' >&2\nexit 127\n")
    broken.chmod(0o755)
    with pytest.raises(StepError, match=r"-v failed \(status 127: libfoo.so.*\): run `make setup-haproxy`"):
        ProxyFront("haproxy", 2, "private", server_argv(), executable=str(broken)).start()


def test_each_backend_is_the_command_on_loopback_port_0_with_one_worker_and_the_broker():
    argv = backend_command(["srv", "--host", "0.0.0.0", "--port=8080", "--heartbeat", "25", "--sessions", "1001"],
                           "redis://127.0.0.1:6390/0", 2)
    assert argv == ["srv", "--heartbeat", "25", "--sessions", "501", "--host", "127.0.0.1", "--port", "0",
                    "--workers", "1", "--broker", "redis://127.0.0.1:6390/0"]
