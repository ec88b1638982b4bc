"""The sockjs-go peer end to end, as a user runs it: `make bench SERVERS=sockjs-go
PROFILE=smoke REPEAT=1` (bench/run_bench.py through the server registry), then the
result file checked against results/schema.json, messages flowing at every point,
and the peer recorded as what it is. Speed is not asserted: that is the
benchmark's job."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from cpus import available_cpus  # noqa: E402
from results_io import flow_problems, load_result, schema_errors  # noqa: E402

RUN_BENCH = os.path.join(ROOT, "bench", "run_bench.py")


def test_smoke_sweep_of_the_sockjs_go_peer_writes_a_valid_result(tmp_path):
    server_cpu = available_cpus()[0]
    cmd = [sys.executable, RUN_BENCH, "--server", "sockjs-go", "--profile", "smoke", "--repeat", "1",
           "--port", "0", "--server-cpu", str(server_cpu), "--out-dir", str(tmp_path), "--client-timeout", "240"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"run_bench failed:\n{proc.stderr[-4000:]}"
    out_path = proc.stdout.strip().splitlines()[-1]

    doc = load_result(out_path)
    assert schema_errors(doc) == []
    assert flow_problems(doc) == []

    server = doc["server"]
    assert (server["name"], server["runtime"], server["peer"], server["mode"]) == ("sockjs-go", "go", True, "naive")
    assert server["ready"]["sockjs-go"] == "3.0.2"
    assert server["cpus"] == [server_cpu]
    # Go sizes its scheduler from the CPUs it may use: pinned to one core, one.
    assert server["ready"]["gomaxprocs"] == "1"
    # Sampled from outside (/proc) at every point, like every other server.
    for level in doc["levels"]:
        for point in level["points"]:
            assert point["server_rss_bytes"] and point["server_rss_bytes"] > 1_000_000
            assert point["server_cpu_pct"] is not None
