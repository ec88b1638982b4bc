"""End to end, as a user runs it: run_bench.py with the smoke profile against
every real server (our Tornado server on PyPy and CPython, sockjs-node), then
check the result file against results/schema.json and that messages flowed at
every point. The CPython run is `make bench-cpython PROFILE=smoke REPEAT=2`:
two repetitions on two fresh server processes merged into one file. Speed is
not asserted here: that is the benchmark's job."""

import os

import pytest

from cpus import available_cpus
from smoke_run import smoke_run

# kind -> (server name, runtime) the READY line must report, repetitions
SERVERS = {
    "pypy": ("sockbench-tornado", "pypy", 1),
    "cpython": ("sockbench-tornado", "cpython", 2),
    "node": ("sockjs-node", "node", 1),
}


@pytest.mark.parametrize("kind", sorted(SERVERS))
def test_smoke_run_produces_a_valid_result(kind, tmp_path):
    name, runtime, repeat = SERVERS[kind]
    cpus = available_cpus()
    server_cpu = str(cpus[0])
    # What `make bench-<kind> PROFILE=smoke REPEAT=<repeat>` runs, on a free port.
    proc, out_path, doc = smoke_run(["--server", kind], tmp_path, server_cpu, repeat=repeat)
    assert os.path.dirname(out_path) == str(tmp_path)
    assert "[plan]" in proc.stderr and "estimated" in proc.stderr
    assert not os.path.exists(tmp_path / "scratch") or not os.listdir(tmp_path / "scratch"), \
        "the per-repetition files are removed once merged"

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

    # Every repetition is recorded: the machine around it, and its own sweep.
    assert [r["repetition"] for r in doc["runs"]] == list(range(1, repeat + 1))
    assert len({r["server_pid"] for r in doc["runs"]}) == repeat, "each repetition on a fresh server process"
    for run in doc["runs"]:
        assert run["steal_pct"] is not None and run["load_avg_before"] is not None
        assert run["server_cpu_s"] > 0 and run["client_cpu_s"] > 0
    for level in doc["levels"]:
        assert level["repetitions"] == repeat
        assert [r["repetition"] for r in level["runs"]] == list(range(1, repeat + 1))
        if repeat > 1:
            figures = [r["saturation"]["received_per_s"] for r in level["runs"]]
            assert level["saturation"]["spread"] == {"min": min(figures), "median": min(figures),
                                                     "max": max(figures)}  # lower middle of two
            assert level["saturation"]["received_per_s"] == level["saturation"]["spread"]["median"]


def test_two_workers_with_a_private_broker(tmp_path):
    """`make bench-cpython PROFILE=smoke WORKERS=2 SERVER_CPU=<all>`: a private redis-server per
    repetition, both workers pinned to the server's CPU list, every serving process sampled."""
    cpus = available_cpus()
    server_cpu = ",".join(map(str, cpus[:2]))
    _, out_path, doc = smoke_run(["--server", "cpython"], tmp_path, server_cpu, extra=["--workers", "2", "--no-server-warmup"],
                                 client_timeout_s=120, timeout_s=240)
    assert os.path.basename(out_path).endswith("-sockbench-tornado-cpython-json-fast-w2.json")
    assert doc["server"]["workers"] == 2 and doc["server"]["ready"]["workers"] == "2"
    assert doc["server"]["broker"]["url"] == "private" and doc["server"]["broker"]["private"] is True
    assert doc["pinning"]["server_cpus"] == cpus[:2] and doc["pinning"]["broker_cpus"] is None
    assert any("first worker's alone" in w for w in doc["warnings"])

    [run] = doc["runs"]
    worker_pids = [int(p) for p in doc["server"]["ready"]["worker_pids"].split(",")]
    assert [(p["pid"], p["role"]) for p in run["server_processes"]] == \
        [(run["server_pid"], "supervisor")] + [(p, "worker") for p in worker_pids]
    assert doc["server"]["pid"] == worker_pids[0], "the client samples the first worker"
    for p in run["server_processes"]:
        assert p["cpus"] == cpus[:2], "workers inherit the server's pinning"
        assert p["rss_bytes_max"] > 1_000_000 and not p["gone"]
    assert all(p["cpu_s"] > 0 for p in run["server_processes"] if p["role"] == "worker"), "both workers served"
    total = run["server_total"]
    assert total["cpu_s"] == run["server_cpu_s"]
    assert total["rss_bytes_max"] > max(p["rss_bytes_max"] for p in run["server_processes"])
    broker = run["broker"]
    assert broker["private"] is True and broker["url"] == doc["server"]["ready"]["broker"]
    assert broker["rss_bytes_max"] > 0 and broker["version"] == doc["server"]["broker"]["version"]
    assert not os.path.exists(f"/proc/{broker['pid']}"), "the private redis-server is stopped after the run"
