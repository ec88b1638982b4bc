"""AGENTS=N: the client as a coordinator plus N agent processes, end to end
through the runner (`make bench-cpython PROFILE=smoke AGENTS=2`): a real server,
a real private redis-server as the bus, real agent JVMs. Checks the merged
result, each agent's part of every point, and the runner's per-agent record."""

import os
import re
import subprocess
import sys

from client_fleet import check_agents
from cpus import available_cpus
from results_io import flow_problems, load_result, schema_errors
from servers import ROOT

import pytest

RUN_BENCH = os.path.join(ROOT, "bench", "run_bench.py")


def test_two_agents_sweep_a_real_server_through_a_private_bus(tmp_path):
    cpus = available_cpus()
    cmd = [sys.executable, RUN_BENCH, "--server", "cpython", "--profile", "smoke", "--repeat", "1",
           "--agents", "2", "--port", "0", "--server-cpu", str(cpus[0]), "--no-server-warmup",
           "--out-dir", str(tmp_path), "--client-timeout", "120"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, f"run_bench failed:\n{proc.stderr[-4000:]}"
    assert "[start agents] 2 agents" in proc.stderr
    # The agents' logs are named after the repetition's result file (scratch/<name>-1.json), so the next
    # server's or repetition's agents cannot overwrite them; the start line names them.
    logs = re.search(r"\[start agents\] 2 agents \(pids [^)]*\) for run \S+, logs (\S+)-agent-N\.log", proc.stderr)
    assert logs, proc.stderr[-2000:]
    assert re.fullmatch(re.escape(str(tmp_path)) + r"/scratch/repetitions-\w+/[\w.-]+-1", logs.group(1)), logs.group(1)
    assert "agents 2/2" in proc.stderr, "the progress line shows agents connected/expected"
    doc = load_result(proc.stdout.strip().splitlines()[-1])
    assert schema_errors(doc) == []
    assert flow_problems(doc) == []

    fleet = doc["client"]["agents"]
    assert fleet["count"] == 2 and len(fleet["list"]) == 2
    assert len({a["pid"] for a in fleet["list"]}) == 2
    for level in doc["levels"]:
        for point in level["points"]:
            parts = point["agents"]
            assert len(parts) == 2
            assert sum(a["sent"] for a in parts) == point["sent"]
            assert sum(a["rtt_samples"] for a in parts) == point["rtt_ms"]["count"]
            assert all(a["connections"] == level["concurrency"] // 2 for a in parts), "client i on agent i mod 2"

    agents = doc["runs"][0]["client_agents"]
    assert agents["count"] == 2 and agents["private"] is True
    assert sorted(p["pid"] for p in agents["processes"]) == sorted(a["pid"] for a in fleet["list"])
    for p in agents["processes"]:
        assert p["exit"] == 0, "each agent exits when the run ends"
        assert p["rss_bytes_max"] > 10_000_000 and p["cpu_s"] > 0
        assert p["cpus"] == fleet["list"][0]["cpus"], "agents pinned to the client CPUs"


@pytest.mark.parametrize("n", [0, 65, "2"])
def test_agent_counts_outside_1_to_64_are_refused(n):
    with pytest.raises(ValueError, match="--agents must be 1-64"):
        check_agents(n)


def test_a_bad_agents_flag_is_a_usage_error():
    proc = subprocess.run([sys.executable, RUN_BENCH, "--server", "cpython", "--agents", "0", "--dry-run"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--agents must be 1-64" in proc.stderr
