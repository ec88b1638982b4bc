"""The sockjs-go peer end to end, as a user runs it: `make bench SERVERS=sockjs-go
PROFILE=smoke REPEAT=1` (bench/run_bench.py through the server registry), then the
result file checked against results/schema.json, messages flowing at every point,
and the peer recorded as what it is. Speed is not asserted: that is the
benchmark's job."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "bench", "tests"))  # smoke_run.py

from cpus import available_cpus  # noqa: E402
from smoke_run import smoke_run  # noqa: E402


def test_smoke_sweep_of_the_sockjs_go_peer_writes_a_valid_result(tmp_path):
    server_cpu = available_cpus()[0]
    _, _, doc = smoke_run(["--server", "sockjs-go"], tmp_path, str(server_cpu))

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
