"""The limit server end to end, as a user runs it: `make bench
SERVERS=limit-naive,limit-fast PROFILE=smoke REPEAT=1` (bench/run_bench.py
through the server registry), then each result file checked against
results/schema.json with messages flowing at every point, and the server
recorded as what it is. Speed is not asserted: that is the benchmark's job.
Run by `make test-limit-server-sweep` (about a minute of real load)."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "bench", "tests"))  # smoke_run.py

from cpus import available_cpus  # noqa: E402
from smoke_run import smoke_run  # noqa: E402


@pytest.mark.parametrize("entry, mode", [("limit-naive", "naive"), ("limit-fast", "fast")])
def test_smoke_sweep_of_the_limit_server_writes_a_valid_result(tmp_path, entry, mode):
    server_cpu = available_cpus()[0]
    _, _, doc = smoke_run(["--servers", entry], tmp_path, str(server_cpu))

    server = doc["server"]
    assert (server["runtime"], server["peer"], server["mode"]) == ("c", False, mode)
    assert server["ready"]["server"] == "limit"
    assert server["cpus"] == [server_cpu]
    for level in doc["levels"]:
        for point in level["points"]:
            assert point["server_rss_bytes"] and point["server_rss_bytes"] > 100_000
            assert point["server_cpu_pct"] is not None
