"""End to end, as a user runs it: run_bench.py with the smoke profile against
every real server (our Tornado server on PyPy and CPython, sockjs-node), then
check the result file against results/schema.json and that messages flowed at
every point. Speed is not asserted here: that is the benchmark's job."""

import os
import subprocess
import sys

import pytest

from cpus import available_cpus
from results_io import flow_problems, load_result, schema_errors
from servers import ROOT

RUN_BENCH = os.path.join(ROOT, "bench", "run_bench.py")

# kind -> (server name, runtime) the READY line must report
SERVERS = {
    "pypy": ("sockbench-tornado", "pypy"),
    "cpython": ("sockbench-tornado", "cpython"),
    "node": ("sockjs-node", "node"),
}


@pytest.mark.parametrize("kind", sorted(SERVERS))
def test_smoke_run_produces_a_valid_result(kind, tmp_path):
    cpus = available_cpus()
    server_cpu = str(cpus[0])
    cmd = [sys.executable, RUN_BENCH, "--server", kind, "--profile", "smoke", "--port", "0",
           "--server-cpu", server_cpu, "--out-dir", str(tmp_path), "--client-timeout", "240"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"run_bench failed:\n{proc.stderr[-4000:]}"
    out_path = proc.stdout.strip().splitlines()[-1]
    assert os.path.dirname(out_path) == str(tmp_path)

    doc = load_result(out_path)
    assert schema_errors(doc) == []
    assert flow_problems(doc) == []

    name, runtime = SERVERS[kind]
    assert doc["server"]["name"] == name
    assert doc["server"]["runtime"] == runtime
    assert doc["server"]["peer"] is False
    assert doc["pinning"]["server_cpus"] == [cpus[0]]
    assert doc["pinning"]["shared"] == (len(cpus) == 1)
    base = os.path.basename(out_path)
    assert base.endswith(".json") and f"-{name}-{runtime}-" in base
    # The server's resources were sampled from outside, at every point.
    for level in doc["levels"]:
        for point in level["points"]:
            assert point["server_rss_bytes"] and point["server_rss_bytes"] > 1_000_000
            assert point["server_cpu_pct"] is not None
