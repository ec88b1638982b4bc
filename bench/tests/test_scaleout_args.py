"""The runner's scale-out knobs: what it passes to a server, and what it refuses before anything runs."""

import os
import subprocess
import sys

import pytest

from scaleout import check_broker, wants_private_broker
from servers import ROOT, entry, server_command

RUN_BENCH = os.path.join(ROOT, "bench", "run_bench.py")


def test_workers_and_broker_are_passed_to_our_servers():
    for kind in ("pypy-fast", "cpython-fast", "node-fast"):
        argv = server_command(entry(kind), "127.0.0.1", 0, 25, workers=2, broker="redis://127.0.0.1:7000/0")
        assert argv[argv.index("--workers") + 1] == "2"
        assert argv[argv.index("--broker") + 1] == "redis://127.0.0.1:7000/0"


def test_one_worker_with_a_broker_passes_only_the_broker():
    argv = server_command(entry("node-fast"), "127.0.0.1", 0, 25, broker="redis://127.0.0.1:7000/3")
    assert "--workers" not in argv and argv[-2:] == ["--broker", "redis://127.0.0.1:7000/3"]


def test_plain_run_has_no_scaleout_flags():
    argv = server_command(entry("pypy-fast"), "127.0.0.1", 0, 25)
    assert "--workers" not in argv and "--broker" not in argv


@pytest.mark.parametrize("kind", ["sockjs-tornado-cpython", "sockjs-tornado-pypy"])
def test_peer_refuses_workers_and_broker(kind):
    with pytest.raises(ValueError, match="no --workers/--broker"):
        server_command(entry(kind), "127.0.0.1", 0, 25, workers=2, broker="redis://127.0.0.1:7000/0")
    with pytest.raises(ValueError, match="no --workers/--broker"):
        server_command(entry(kind), "127.0.0.1", 0, 25, broker="redis://127.0.0.1:7000/0")


def test_several_workers_without_a_broker_url_are_refused():
    with pytest.raises(ValueError, match="need a broker"):
        server_command(entry("node-fast"), "127.0.0.1", 0, 25, workers=2)


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "redis://localhost", "redis://10.0.0.5:6390/15", "private"])
def test_good_broker_values(url):
    assert check_broker(url) == url


@pytest.mark.parametrize("url", ["http://127.0.0.1:6379/0", "redis://", "redis://h:99999/0", "redis://h:0",
                                 "redis://h:6379/16", "redis://h:6379/x", "127.0.0.1:6379", "redis://h/0?x=1"])
def test_bad_broker_values(url):
    with pytest.raises(ValueError, match="--broker"):
        check_broker(url)


def test_when_a_private_broker_is_started():
    assert wants_private_broker(2, None)
    assert wants_private_broker(1, "private")
    assert not wants_private_broker(1, None)
    assert not wants_private_broker(4, "redis://127.0.0.1:6379/0")


def _run(*args):
    return subprocess.run([sys.executable, RUN_BENCH, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("args, message", [
    (["--server", "node", "--broker", "redis:/x"], "--broker must be"),
    (["--server", "node", "--broker", "redis://h:6379/99"], "DB must be 0-15"),
    (["--server", "node", "--workers", "0"], "--workers must be in 1-64"),
    (["--server", "node", "--workers", "65"], "--workers must be in 1-64"),
    (["--server", "node", "--workers", "two"], "invalid int value"),
    (["--server", "node", "--broker-cpu", "1"], "--broker-cpu pins the private redis-server"),
    (["--server", "node", "--workers", "2", "--broker-cpu", "x"], "bad CPU number"),
])
def test_command_line_typos_print_usage_and_exit_2(args, message):
    proc = _run(*args, "--dry-run")
    assert proc.returncode == 2, proc.stderr
    assert "usage:" in proc.stderr and message in proc.stderr


def test_workers_for_the_peer_are_refused_before_anything_runs(tmp_path):
    proc = _run("--servers", "sockjs-tornado-cpython", "--workers", "2", "--profile", "smoke", "--dry-run",
                "--out-dir", str(tmp_path))
    assert proc.returncode == 1
    assert "no --workers/--broker" in proc.stderr and "[plan]" not in proc.stderr
    assert not os.listdir(tmp_path)
