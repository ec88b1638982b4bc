"""The sessions profile end to end, as `make bench-cpython PROFILE=sessions LEVELS=200,400
CLIENT_ARGS='...'` runs it with short points (short_sweeps.py): a real server, the real client, one result file whose levels carry
the idle record, the all-copies timing and the fan-out saturation; and the refusals that stop a run before
anything starts (they need the client jar only to list its profiles)."""

import os
import subprocess
import sys

from cpus import available_cpus
from results_io import flow_problems, load_result, schema_errors
from short_sweeps import SATURATING_SWEEP

RUN_BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "run_bench.py")


def _run_bench(*args, timeout_s=60):
    return subprocess.run([sys.executable, RUN_BENCH, "--profile", "sessions", "--port", "0", *args],
                          capture_output=True, text=True, timeout=timeout_s)


def test_a_sessions_run_records_idle_memory_every_copy_and_the_fanout_saturation_per_level(tmp_path):
    server_cpu = str(available_cpus()[0])
    proc = _run_bench("--server", "cpython", "--levels", "200,400", "--repeat", "1", "--server-cpu", server_cpu,
                      "--client-args", SATURATING_SWEEP, "--no-server-warmup", "--out-dir", str(tmp_path), "--client-timeout", "480",
                      timeout_s=600)
    assert proc.returncode == 0, f"run_bench failed:\n{proc.stderr[-4000:]}"
    # What the runner chose is said before it runs and kept in the result.
    assert ("[plan] sessions profile, one server start and client run per group: 200,400 on 1 server process "
            "and 1 client process") in proc.stderr
    doc = load_result(proc.stdout.strip().splitlines()[-1])
    assert schema_errors(doc) == [] and flow_problems(doc) == []
    assert doc["schema"] == "sockbench.result/6"
    assert doc["parameters"]["all_copies"] is True and doc["parameters"]["idle_hold_s"] == 2
    assert doc["warnings"][0].startswith("sessions profile: levels 200,400 on 1 server process and 1 client process")
    assert [lv["concurrency"] for lv in doc["levels"]] == [200, 400]
    for level in doc["levels"]:
        assert (level["workers"], level["agents"]) == (1, 1)
        idle = level["idle"]
        assert idle["hold_s"] >= 2 and idle["connections_lost"] == 0
        # 200 more sessions cost the server memory: a byte count per session, not a null or a zero.
        assert idle["server_bytes_per_session"] is not None and idle["server_bytes_per_session"] > 0
        assert "failures" in level["connect"]
        for point in level["points"]:
            # Every copy timed: about N copies of each measured message, far more than the own copies.
            assert point["fanout_ms"]["count"] > point["rtt_ms"]["count"]
            assert point["completion_ms"]["count"] + point["completion_ms"]["incomplete"] > 0
        sat = level["fanout_saturation"]
        assert sat is not None and sat["copies_per_s"] == level["saturation"]["received_per_s"]
        assert sat["p99_ms"] < doc["parameters"]["ok_mean_ms"]


def test_a_peer_is_refused_above_one_process_share_before_anything_starts(tmp_path):
    proc = _run_bench("--servers", "cpython-fast,sockjs-tornado-cpython", "--levels", "1000,50000",
                      "--out-dir", str(tmp_path))
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("bench failed: [plan] sockjs-tornado-cpython: level 50,000 needs 3 server processes")
    assert not os.listdir(tmp_path)


def test_too_few_explicit_workers_are_refused_before_anything_starts(tmp_path):
    proc = _run_bench("--server", "cpython", "--levels", "1000,50000", "--workers", "2", "--out-dir", str(tmp_path))
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "level 50,000 needs 3 processes on each side" in lines[0]
    assert "ulimit -n" in lines[0] and "use WORKERS=3 or more" in lines[0]
    assert not os.listdir(tmp_path)
