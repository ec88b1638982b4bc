"""SLOW_CLIENTS= end to end, as `make bench-cpython PROFILE=smoke SLOW_CLIENTS=10%:64` runs it: the real
server, the real client, a result that records the slow readers (parameters, every point, the file name and
label) while the point's own figures stay the healthy sessions'; and a bad value or combination refused in
one line with exit 2 before anything starts (the client jar decides: bench/slow_clients.py)."""

import os
import subprocess
import sys
import types

import measure
from bench_cli import parse_args
from byo_server import client_command as url_client_command
from cpus import available_cpus
from factories import profile
from results_io import flow_problems, load_result, schema_errors, slow_clients_tag

RUN_BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "run_bench.py")


def _run_bench(*args, timeout_s=60):
    return subprocess.run([sys.executable, RUN_BENCH, "--port", "0", *args], capture_output=True, text=True,
                          timeout=timeout_s)


def test_a_smoke_run_with_slow_readers_records_them_apart_from_the_point(tmp_path):
    proc = _run_bench("--server", "cpython", "--profile", "smoke", "--repeat", "1", "--slow-clients", "10:64",
                      "--server-cpu", str(available_cpus()[0]), "--no-server-warmup", "--out-dir", str(tmp_path),
                      timeout_s=300)
    assert proc.returncode == 0, f"run_bench failed:\n{proc.stderr[-4000:]}"
    path = proc.stdout.strip().splitlines()[-1]
    doc = load_result(path)
    assert schema_errors(doc) == [] and flow_problems(doc) == []
    assert doc["parameters"]["slow_clients"] == {"pct": 10.0, "kib_per_s": 64}  # the client's canonical 10%:64
    assert os.path.basename(path).endswith("-slow10pct-64kib.json") and doc["label"].endswith(" · slow 10%:64")
    assert "slow readers 10%:64" in proc.stderr  # the plan line says it
    for level in doc["levels"]:
        n = level["concurrency"]
        assert level["connected"] == n
        for p in level["points"]:
            slow = p["slow_clients"]
            # smoke's levels of 2 and 4 hold one slow reader each (id 0); it keeps up at smoke's few KiB/s
            assert slow["sessions"] == 1 and slow["lost_sessions"] == 0 and slow["cut_off_reasons"] == {}
            # it timed every copy it read while the point ran, warm-up included (the drain waits for the healthy
            # ones only: its last may land after), none of them late
            assert slow["expected_received"] == p["sent"] and slow["fanout_ms"]["count"] >= p["sent"] - 2
            assert slow["fanout_ms"]["max"] < 1000
            # the point is the n - 1 healthy sessions': they sent everything and lost nothing
            assert p["expected_received"] == p["sent"] * (n - 1) and p["lost"] == 0
            assert p["rtt_ms"]["count"] == p["sent"]


def test_a_bad_value_is_refused_with_exit_2_before_anything_starts(tmp_path):
    proc = _run_bench("--server", "cpython", "--profile", "smoke", "--slow-clients", "60%:64",
                      "--out-dir", str(tmp_path))
    assert proc.returncode == 2
    assert "SLOW_CLIENTS=60%:64: --slow-clients: the share of slow sessions must be 0 < PCT <= 50" in proc.stderr
    assert "[start server]" not in proc.stderr and not os.listdir(tmp_path)


def test_slow_readers_on_an_http_mix_are_refused_in_one_line(tmp_path):
    proc = _run_bench("--server", "cpython", "--profile", "smoke", "--slow-clients", "10%:64",
                      "--transports", "websocket:80,xhr-streaming:20", "--out-dir", str(tmp_path))
    assert proc.returncode == 2
    assert "--slow-clients 10%:64 runs on websocket sessions only" in proc.stderr
    assert not os.listdir(tmp_path)


def test_the_file_name_tag():
    assert slow_clients_tag({"parameters": {"slow_clients": {"pct": 10.0, "kib_per_s": 64}}}) == "slow10pct-64kib"
    assert slow_clients_tag({"parameters": {"slow_clients": {"pct": 12.5, "kib_per_s": 8}}}) == "slow12.5pct-8kib"
    assert slow_clients_tag({"parameters": {"transports": "websocket"}}) == ""



def test_slow_readers_go_to_every_measured_run_and_never_to_the_warm_up(monkeypatch):
    server = types.SimpleNamespace(url="http://127.0.0.1:8080", pid=42, ready_line="READY http://127.0.0.1:8080 a=b")
    config = parse_args(["--server", "pypy", "--slow-clients", "10%:64", "--client-jar", "c.jar"])
    (entry,) = config.variants
    assert measure.client_command(config, server, entry, "/tmp/o.json")[-2:] == ["--slow-clients", "10%:64"]
    byo = parse_args(["--url", "http://10.0.0.2:9000/echo", "--slow-clients", "10%:64", "--client-jar", "c.jar"])
    assert url_client_command(byo, byo.variants[0], "/tmp/o.json")[-2:] == ["--slow-clients", "10%:64"]
    calls = []
    monkeypatch.setattr(measure.subprocess, "run",
                        lambda cmd, **kw: calls.append(cmd) or subprocess.CompletedProcess(cmd, 0, "", ""))
    measure.warm_up(config, "http://127.0.0.1:8080/broadcast", profile("warmup"))
    (cmd,) = calls
    assert "--slow-clients" not in cmd  # the warm-up pass warms the server's JIT, with healthy sessions
