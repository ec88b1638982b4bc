"""Bring your own server, end to end: a real server started here (our Tornado server on CPython,
as a user would start theirs), then `make bench-url` (run_bench.py --url) against it with the smoke
profile. The result must validate against results/schema.json, carry no server figures without a
pid (and say so once), and carry them when SERVER_PID is given. Speed is not asserted."""

import os
import subprocess
import sys

import pytest

from cpus import available_cpus
from floors import NOT_SAMPLED_NOTE, level_floor_reasons, server_sampled, server_view
from results_io import flow_problems, load_result, schema_errors
from servers import ROOT, entry, server_command
from sockbench_contract.server_launch import ServerProcess

RUN_BENCH = os.path.join(ROOT, "bench", "run_bench.py")
OURS = entry("cpython-fast")
needs_server = pytest.mark.skipif(not os.path.exists(OURS.argv[0]),
                                  reason="CPython venv missing: run `make test-bench` (it installs it)")


@pytest.fixture
def own_server(tmp_path):
    """A contract server the runner did not start, pinned to the first CPU; stopped afterwards."""
    cpus = available_cpus()
    argv = server_command(OURS, "127.0.0.1", 0, 25)
    with ServerProcess(argv, [cpus[0]], str(tmp_path / "own-server.log")) as server:
        yield server


def _bench_url(tmp_path, url, *extra):
    cmd = [sys.executable, RUN_BENCH, "--url", url, "--profile", "smoke", "--repeat", "1",
           "--server-cpu", str(available_cpus()[0]), "--out-dir", str(tmp_path / "out"),
           "--client-timeout", "240", *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"run_bench --url failed:\n{proc.stderr[-4000:]}"
    return proc, load_result(proc.stdout.strip().splitlines()[-1]), proc.stdout.strip().splitlines()[-1]


@needs_server
def test_bench_url_without_a_pid_records_no_server_figures_and_says_so_once(own_server, tmp_path):
    proc, doc, path = _bench_url(tmp_path, f"{own_server.url}/broadcast/", "--name", "mine", "--mode", "fast")
    assert schema_errors(doc) == []
    assert flow_problems(doc) == []
    assert os.path.basename(path).endswith("-mine-unknown-na-fast.json")
    assert doc["server"]["name"] == "mine" and doc["server"]["mode"] == "fast"
    assert doc["server"]["url"] == f"{own_server.url}/broadcast", "trailing slash dropped"
    assert doc["server"]["pid"] is None and "entry" not in doc["server"]
    assert not server_sampled(doc)
    for level in doc["levels"]:
        for point in level["points"]:
            assert point["server_cpu_pct"] is None and point["server_rss_bytes"] is None
        assert "server CPU not measured" not in level_floor_reasons(level, server_view(doc))
    assert doc["warnings"].count(NOT_SAMPLED_NOTE) == 1
    assert proc.stderr.count(NOT_SAMPLED_NOTE) == 1, "the run summary says it once"
    assert "[start server]" not in proc.stderr, "the runner starts nothing"
    assert own_server.proc.poll() is None, "and stops nothing"


@needs_server
def test_bench_url_with_the_servers_pid_samples_it_from_proc(own_server, tmp_path):
    _, doc, _ = _bench_url(tmp_path, f"{own_server.url}/broadcast", "--server-pid", str(own_server.pid))
    assert schema_errors(doc) == []
    assert doc["server"]["pid"] == own_server.pid and doc["server"]["name"] == "byo"
    assert doc["server"]["cpus"] == [available_cpus()[0]], "read from the kernel, as for our servers"
    assert NOT_SAMPLED_NOTE not in doc["warnings"]
    for level in doc["levels"]:
        for point in level["points"]:
            assert point["server_rss_bytes"] and point["server_rss_bytes"] > 1_000_000
    [run] = doc["runs"]
    assert run["server_pid"] == own_server.pid and run["server_cpu_s"] > 0


@pytest.mark.parametrize("args, message", [
    (["--url", "http://127.0.0.1/broadcast"], "explicit port"),
    (["--url", "http://127.0.0.1:1/b", "--workers", "2"], "neither starts that server"),
    (["--url", "http://127.0.0.1:1/b", "--server-pid", "0"], "no such process"),
    (["--server", "pypy", "--server-pid", "1"], "go with --url"),
])
def test_bench_url_typos_print_usage_and_exit_2(args, message):
    proc = subprocess.run([sys.executable, RUN_BENCH, *args, "--dry-run"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert "usage:" in proc.stderr and message in proc.stderr
