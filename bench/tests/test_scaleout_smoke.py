"""End to end, as `make bench-scaleout SERVER=cpython-fast WORKERS=1,2 CORE_SHARE=0.5 PROFILE=smoke` runs it
(without the warm-up pass, to stay short): a valid result file per worker count recording the quota and
where each worker's pids were, the relay's flushes counted with 2 workers, the summary written beside the
folder, and no cgroup left behind."""

import json
import os
import subprocess
import sys

import pytest

from cgroup_quota import DEFAULT_PERIOD_US, CgroupUnavailable, detect
from cpus import available_cpus
from results_io import flow_problems, load_result, schema_errors
from servers import ROOT

RUN_SCALEOUT = os.path.join(ROOT, "bench", "run_scaleout.py")


def test_smoke_scaleout_writes_a_file_per_worker_count_and_the_summary(tmp_path):
    try:
        detect()
    except CgroupUnavailable as exc:
        pytest.skip(f"no usable cgroup cpu controller here: {exc}")
    cmd = [sys.executable, RUN_SCALEOUT, "--workers-list", "1,2", "--core-share", "0.5", "--out-base", str(tmp_path),
           "--server", "cpython-fast", "--profile", "smoke", "--repeat", "1", "--port", "0",
           "--server-cpu", str(available_cpus()[0]), "--no-server-warmup", "--client-timeout", "120"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    # The result paths are the runner's own stdout lines (the client, a child, writes there too).
    paths = [line for line in proc.stdout.splitlines() if line.endswith(".json") and os.path.isfile(line)]
    assert len(paths) == 2
    docs = {}
    for path in paths:
        doc = load_result(path)
        assert schema_errors(doc) == [] and flow_problems(doc) == []
        docs[doc["server"].get("workers", 1)] = doc
    assert sorted(docs) == [1, 2]
    half_a_period = DEFAULT_PERIOD_US // 2  # CORE_SHARE 0.5 of the default period, no PERIOD_US given
    for k, doc in docs.items():
        assert doc["server"]["cpu_quota"]["period_us"] == DEFAULT_PERIOD_US
        assert doc["server"]["cpu_quota"]["quota_us"] == half_a_period
        assert doc["server"]["cpu_quota"]["workers_total_quota_us"] == k * half_a_period
        groups = {g["group"]: g for g in doc["runs"][0]["cpu_quota"]["groups"]}
        assert [groups[f"worker-{i}"]["quota_us"] for i in range(k)] == [half_a_period] * k
        assert not os.path.exists(doc["runs"][0]["cpu_quota"]["path"]), "the run's cgroups are removed"
    two = docs[2]["runs"][0]
    workers = [p["pid"] for p in two["server_processes"] if p["role"] == "worker"]
    assert [g["pids"] for g in two["cpu_quota"]["groups"] if g["group"].startswith("worker-")] == [[p] for p in workers]
    assert two["relay"]["publishes"] > 0
    assert "relay" not in docs[1]["runs"][0]  # one worker: no broker
    (summary_md,) = tmp_path.glob("*.summary.md")
    summary = json.loads(summary_md.with_name(summary_md.name.replace(".md", ".json")).read_text())
    assert summary["workers"] == [1, 2] and summary["core_share"] == 0.5
    assert [r["workers"] for r in summary["levels"][0]["rows"]] == [1, 2]
    assert summary["relay"][1]["publishes"] == two["relay"]["publishes"]
    assert "Scale-out simulation" in summary_md.read_text() and "Scale-out simulation" in proc.stderr
