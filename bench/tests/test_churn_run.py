"""Churn end to end, as `make bench-cpython PROFILE=sessions LEVELS=200,400 CHURN=5% CLIENT_ARGS='--idle-hold-s 2'`
runs it: a real server, the real client, one result whose points carry the storm and whose every-copy figures
leave the pool out, the summary's churn figures per level; and the refusals before anything starts (they need
the client jar only)."""

import os
import subprocess
import sys

import churn
from cpus import available_cpus
from results_io import flow_problems, load_result, schema_errors
from short_sweeps import SATURATING_SWEEP
from bench_cli import DEFAULT_JAR

RUN_BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "run_bench.py")


def _run_bench(*args, timeout_s=60):
    return subprocess.run([sys.executable, RUN_BENCH, "--port", "0", *args], capture_output=True, text=True,
                          timeout=timeout_s)


def test_a_churn_run_records_the_storm_per_point_and_the_others_copies_only(tmp_path):
    server_cpu = str(available_cpus()[0])
    proc = _run_bench("--server", "cpython", "--profile", "sessions", "--levels", "200,400", "--repeat", "1",
                      "--churn", "5%", "--server-cpu", server_cpu, "--client-args", SATURATING_SWEEP, "--no-server-warmup",
                      "--out-dir", str(tmp_path), "--client-timeout", "480", timeout_s=600)
    assert proc.returncode == 0, f"run_bench failed:\n{proc.stderr[-4000:]}"
    assert "levels 200,400, churn 5 % of the sessions a second" in proc.stderr
    doc = load_result(proc.stdout.strip().splitlines()[-1])
    assert schema_errors(doc) == [] and flow_problems(doc) == []
    assert doc["schema"] == "sockbench.result/6" and doc["parameters"]["churn_pct"] == 5
    for level in doc["levels"]:
        n = level["concurrency"]
        pool = n // 20  # ids 19, 39, ...: one session in round(100 / 5)
        for point in level["points"]:
            storm = point["churn"]
            assert storm["pool"] == pool and storm["closes"] > 0
            if point["state"] == "ok":  # a server that keeps up with the broadcast serves the storm too
                assert storm["reconnects"] > 0 and storm["connects_per_s"] > 0
                assert storm["reconnect_ms"]["count"] > 0 and storm["reconnect_ms"]["p99"] is not None
            # The pool's copies are not timed: at most every measured message to each of the others.
            assert 0 < point["fanout_ms"]["count"] <= point["sent"] * (n - pool)
        # The summary names the storm the level asked for.
        asked = (f"{pool}/s asked at the fan-out saturation point", f"churn {pool}/s asked, no fan-out saturation")
        assert any(text in proc.stderr for text in asked)


def test_churn_on_a_profile_without_all_copies_is_refused_in_one_line_before_anything_starts(tmp_path):
    proc = _run_bench("--server", "cpython", "--profile", "quick", "--churn", "5", "--out-dir", str(tmp_path))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bench: CHURN=5 needs the all-copies verdict")
    assert not os.listdir(tmp_path)


def test_the_client_refuses_churn_above_the_schemas_maximum_as_the_runner_does(tmp_path):
    # The runner's range is the schema's; the client keeps its own copy of it, which must agree.
    above = f"{churn.max_pct() + 0.5:g}"
    proc = subprocess.run(["java", "-jar", DEFAULT_JAR, "--url", "http://127.0.0.1:9/broadcast", "--profile",
                           "sessions", "--churn", above, "--out", str(tmp_path / "x.json")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    # Its one line names the same largest value (not an unknown option: a jar from before churn).
    assert f"--churn must be 0 < PCT <= {churn.max_pct():g}" in proc.stderr.splitlines()[0]
    assert not os.listdir(tmp_path)
