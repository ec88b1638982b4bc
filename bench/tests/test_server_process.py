"""ServerProcess against a real contract server (the sockjs-tornado peer) and
against processes that break the contract in the ways the bench must survive."""

import json
import os
import sys
import urllib.request

import pytest

from servers import entry, server_command
from sockbench_contract.ready_line import parse_ready_line
from sockbench_contract.server_launch import ServerProcess, StepError

PEER = entry("sockjs-tornado-cpython")
needs_peer = pytest.mark.skipif(not os.path.exists(PEER.argv[0]),
                                reason="peer venv missing: run `make test-bench` (it installs it)")


def test_parse_ready_line():
    url, fields = parse_ready_line("READY http://127.0.0.1:8080 server=x runtime=pypy v=1.2\n")
    assert url == "http://127.0.0.1:8080"
    assert fields == {"server": "x", "runtime": "pypy", "v": "1.2"}


def test_parse_ready_line_takes_bracketed_ipv6_and_no_tokens():
    assert parse_ready_line("READY http://[::1]:8080") == ("http://[::1]:8080", {})


@pytest.mark.parametrize("line", [
    "", "READY", "ready http://127.0.0.1:1", "READY http://127.0.0.1:1 novalue", "READY ftp://127.0.0.1:1",
    "READY http://127.0.0.1", "READY http://127.0.0.1:1/", "READY http://127.0.0.1:1 Key=v",
    "READY http://127.0.0.1:1 k=", "READY http://127.0.0.1:1  k=v", " READY http://127.0.0.1:1",
])
def test_parse_ready_line_rejects(line):
    with pytest.raises(ValueError):
        parse_ready_line(line)


@needs_peer
def test_peer_starts_serves_and_stops_cleanly(tmp_path):
    argv = server_command(PEER, "127.0.0.1", 0, 25)
    with ServerProcess(argv, [], str(tmp_path / "peer.log")) as server:
        assert server.fields["server"] == "sockjs-tornado"
        assert server.fields["peer"] == "true"
        with urllib.request.urlopen(server.url + "/broadcast/info", timeout=5) as resp:
            assert resp.status == 200
            assert json.load(resp)["websocket"] is True
        pid = server.pid
        assert os.path.exists(f"/proc/{pid}")
    assert server.proc.returncode == 0


@needs_peer
def test_peer_broadcasts_over_xhr(tmp_path):
    """Two xhr sessions: what one sends, both receive (the benchmark's app, over plain HTTP)."""
    argv = server_command(PEER, "127.0.0.1", 0, 25)
    with ServerProcess(argv, [], str(tmp_path / "peer.log")) as server:
        def post(path, body=b""):
            req = urllib.request.Request(server.url + path, data=body, method="POST")
            with urllib.request.urlopen(req, timeout=5) as resp:
                return resp.read().decode()
        assert post("/broadcast/000/a/xhr") == "o\n"
        assert post("/broadcast/000/b/xhr") == "o\n"
        post("/broadcast/000/a/xhr_send", b'["hi"]')
        assert post("/broadcast/000/a/xhr") == 'a["hi"]\n'
        assert post("/broadcast/000/b/xhr") == 'a["hi"]\n'


def test_exit_before_ready_names_the_step(tmp_path):
    argv = [sys.executable, "-c", "import sys; print('boom', file=sys.stderr); sys.exit(3)"]
    with pytest.raises(StepError, match=r"\[wait for READY\].*status 3(.|\n)*boom"):
        ServerProcess(argv, [], str(tmp_path / "x.log")).start()


def test_no_ready_line_times_out_and_kills(tmp_path):
    argv = [sys.executable, "-c", "import time; time.sleep(60)"]
    server = ServerProcess(argv, [], str(tmp_path / "x.log"), ready_timeout_s=1)
    with pytest.raises(StepError, match="no READY line within 1 s"):
        with server:
            pass
    assert server.proc.poll() is not None, "the server must not outlive a failed start"


def test_server_ignoring_sigterm_is_killed_and_reported(tmp_path):
    code = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
            "print('READY http://127.0.0.1:1 server=stubborn', flush=True); time.sleep(60)")
    server = ServerProcess([sys.executable, "-c", code], [], str(tmp_path / "x.log"))
    server.start()
    with pytest.raises(StepError, match=r"\[stop server\] server did not exit within 1 s"):
        server.stop(grace_s=1)
    assert server.proc.poll() is not None


def test_pinning_uses_taskset(tmp_path):
    code = ("import os; print('READY http://127.0.0.1:1 cpus=' + ','.join(map(str, sorted(os.sched_getaffinity(0)))),"
            " flush=True); import time; time.sleep(30)")
    cpu = sorted(os.sched_getaffinity(0))[-1]
    server = ServerProcess([sys.executable, "-c", code], [cpu], str(tmp_path / "x.log"))
    server.start()
    try:
        assert server.fields["cpus"] == str(cpu)
    finally:
        server.stop(grace_s=2, raise_on_error=False)
