"""End to end on a JavaScript runtime other than Node: `make bench SERVERS=bun-fast
PROFILE=smoke REPEAT=1` as run_bench.py runs it, against server-node on Bun
(server-node/runtimes, the registry's bun-fast entry). The result must be
valid, messages must have flowed at every point, and the result must say Bun
and Bun's own version (Bun reports Node's version in process.versions.node; a
result labelled node would mix its figures with Node's). Skipped with the
reason when Bun does not run on this machine. Speed is not asserted."""

import json
import os
import subprocess
import sys

import pytest

from cpus import available_cpus
from results_io import flow_problems, load_result, schema_errors
from servers import ROOT

RUN_BENCH = os.path.join(ROOT, "bench", "run_bench.py")
RUNTIMES_DIR = os.path.join(ROOT, "server-node", "runtimes")


def _bun_problem():
    """None when the pinned Bun runs here, else the checker's one line."""
    proc = subprocess.run(["node", os.path.join(RUNTIMES_DIR, "check.js"), "bun"],
                          capture_output=True, text=True, timeout=60)
    return None if proc.returncode == 0 else proc.stderr.strip()


def test_smoke_run_on_bun_is_a_valid_result_labelled_bun(tmp_path):
    problem = _bun_problem()
    if problem:
        pytest.skip(problem)
    with open(os.path.join(RUNTIMES_DIR, "package.json"), encoding="utf-8") as f:
        bun_version = json.load(f)["dependencies"]["bun"]
    cpus = available_cpus()
    cmd = [sys.executable, RUN_BENCH, "--servers", "bun-fast", "--profile", "smoke", "--repeat", "1",
           "--port", "0", "--server-cpu", str(cpus[0]), "--out-dir", str(tmp_path), "--client-timeout", "240"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"run_bench failed:\n{proc.stderr[-4000:]}"
    out_path = proc.stdout.strip().splitlines()[-1]

    doc = load_result(out_path)
    assert schema_errors(doc) == []
    assert flow_problems(doc) == []
    assert doc["server"]["name"] == "sockjs-node"
    assert doc["server"]["runtime"] == "bun"
    assert doc["server"]["ready"]["runtime_version"] == bun_version
    assert doc["server"]["peer"] is False
    assert "-sockjs-node-bun-" in os.path.basename(out_path)
    for level in doc["levels"]:
        for point in level["points"]:
            assert point["server_rss_bytes"] and point["server_rss_bytes"] > 1_000_000
            assert point["server_cpu_pct"] is not None
