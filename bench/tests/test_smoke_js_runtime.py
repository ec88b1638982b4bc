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

import pytest

from cpus import available_cpus
from servers import ROOT
from smoke_run import smoke_run

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
    _, out_path, doc = smoke_run(["--servers", "bun-fast"], tmp_path, str(cpus[0]), extra=["--no-server-warmup"])
    assert doc["server"]["name"] == "sockjs-node"
    assert doc["server"]["runtime"] == "bun"
    assert doc["server"]["ready"]["runtime_version"] == bun_version
    assert doc["server"]["peer"] is False
    assert "-sockjs-node-bun-" in os.path.basename(out_path)
    for level in doc["levels"]:
        for point in level["points"]:
            assert point["server_rss_bytes"] and point["server_rss_bytes"] > 1_000_000
            assert point["server_cpu_pct"] is not None
