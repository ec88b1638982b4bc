"""PROXY= in the runner: refused in one line (exit 2) when it cannot run, the server command wrapped
in the proxy front with one-process backends, haproxy sampled as part of the server, and the result
naming the proxy (file name, label, server.proxy). The proxy itself runs in
docs/contract/tests/test_proxy_front.py, against real servers, Redis and haproxy."""

import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from bench_cli import DEFAULT_JAR, parse_args
from measure import serving_processes, variant_argv
from results_io import scale_out_tag
from run_record import record_scaleout

RUN_BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "run_bench.py")


def _run_bench(tmp_path, *options):
    return subprocess.run([sys.executable, RUN_BENCH, "--server", "cpython", "--client-cpu", "1", "--dry-run",
                           "--out-dir", str(tmp_path), *options], capture_output=True, text=True, timeout=120)


def _one_line(proc, said):
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], proc.stderr


@pytest.mark.parametrize("options, said", [
    (["--workers", "2", "--proxy", "nginx"], "bench: PROXY=nginx is not a proxy sockbench runs; known: haproxy"),
    (["--proxy", "haproxy"], "bench: PROXY=haproxy spreads sessions over WORKERS one-worker processes: WORKERS=1 "
                             "has nothing to spread"),
])
def test_a_proxy_that_cannot_run_is_one_line_and_exit_2(options, said, tmp_path):
    _one_line(_run_bench(tmp_path, "--client-jar", "/nonexistent.jar", *options), said)


def test_the_sessions_profile_behind_a_proxy_is_one_line_and_exit_2(tmp_path):
    # Refused once the client has listed its profiles (the jar), before anything starts.
    if not os.path.exists(DEFAULT_JAR):
        pytest.skip("client jar missing: run `make setup-java`")
    _one_line(_run_bench(tmp_path, "--workers", "2", "--proxy", "haproxy", "--profile", "sessions"),
              "with the sessions profile is not supported")


def test_the_proxy_is_refused_with_a_server_you_run():
    with pytest.raises(SystemExit) as exit_info:
        parse_args(["--url", "http://127.0.0.1:9/broadcast", "--proxy", "haproxy", "--client-cpu", "1"])
    assert exit_info.value.code == 2


def test_each_backend_is_the_one_process_command_behind_the_front():
    config = parse_args(["--server", "cpython", "--client-cpu", "1", "--workers", "2", "--proxy", "haproxy",
                         "--port", "9000"])
    argv = variant_argv(config, config.variants[0], "redis://127.0.0.1:6390/0")
    split = argv.index("--")
    assert argv[1].endswith("proxy_front.py")
    assert argv[2:split] == ["--proxy", "haproxy", "--workers", "2", "--broker", "redis://127.0.0.1:6390/0"]
    backend = argv[split + 1:]
    assert "--workers" not in backend and "--broker" not in backend     # the front gives each its own
    assert backend[backend.index("--port") + 1] == "9000"                # the public port, for the front


def test_a_server_without_workers_is_refused_behind_the_proxy_too():
    config = parse_args(["--server", "bun-fast", "--client-cpu", "1", "--workers", "2", "--proxy", "haproxy"])
    with pytest.raises(Exception, match="has no --workers/--broker"):
        variant_argv(config, config.variants[0], "redis://127.0.0.1:6390/0")


def test_haproxy_is_sampled_as_part_of_the_server():
    server = SimpleNamespace(pid=100, fields={"worker_pids": "101,102", "proxy": "haproxy", "proxy_pid": "103"})
    assert serving_processes(server) == [(100, "supervisor"), (101, "worker"), (102, "worker"), (103, "proxy")]


def test_the_result_names_the_proxy():
    doc = {"label": "ours · cpython", "server": {"pid": 1}, "pinning": {}, "warnings": [],
           "runs": [{"proxy": {"name": "haproxy", "version": "2.6.12-1+deb12u4", "pid": 103}}]}
    record_scaleout(doc, SimpleNamespace(workers=2, broker=None, broker_cpus=None, proxy="haproxy"))
    assert doc["server"]["proxy"] == {"name": "haproxy", "version": "2.6.12-1+deb12u4"}
    assert doc["label"].endswith("· 2 workers behind haproxy")
    assert "and haproxy" in doc["warnings"][0]
    assert scale_out_tag(doc["server"]) == "w2-haproxy"
