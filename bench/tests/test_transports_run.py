"""TRANSPORTS= end to end, as `make bench-cpython PROFILE=smoke TRANSPORTS=xhr-streaming` and `make bench-node
PROFILE=smoke TRANSPORTS=websocket:50,xhr-polling:50` run it: real servers, the real client, results that record
the transports and, for a mix, each transport's share of every point; and a typo refused before anything starts
(the client jar decides what a transport is: bench/transports.py)."""

import os
import subprocess
import sys

from cpus import available_cpus
from results_io import flow_problems, load_result, schema_errors

RUN_BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "run_bench.py")


def _run_bench(*args, timeout_s=60):
    return subprocess.run([sys.executable, RUN_BENCH, "--port", "0", *args], capture_output=True, text=True,
                          timeout=timeout_s)


def _smoke(server, transports, tmp_path):
    proc = _run_bench("--server", server, "--profile", "smoke", "--repeat", "1", "--transports", transports,
                      "--server-cpu", str(available_cpus()[0]), "--no-server-warmup", "--out-dir", str(tmp_path),
                      timeout_s=300)
    assert proc.returncode == 0, f"run_bench failed:\n{proc.stderr[-4000:]}"
    doc = load_result(proc.stdout.strip().splitlines()[-1])
    assert schema_errors(doc) == [] and flow_problems(doc) == []
    return doc


def _points(doc):
    return [p for level in doc["levels"] for p in level["points"]]


def test_an_xhr_streaming_smoke_run_loses_nothing_and_says_so(tmp_path):
    doc = _smoke("cpython", "xhr-streaming", tmp_path)
    assert doc["schema"] == "sockbench.result/6" and doc["parameters"]["transports"] == "xhr-streaming"
    points = _points(doc)
    assert points and all(p["lost"] == 0 and p["connection_errors"] == 0 for p in points)
    assert all(p["received"] > 0 and p["rtt_ms"]["count"] > 0 for p in points)
    assert all("transports" not in p for p in points)  # one transport: the point is its figure


def test_a_websocket_and_polling_mix_splits_every_point_by_transport(tmp_path):
    doc = _smoke("node", "websocket:50,xhr-polling:50", tmp_path)
    assert doc["parameters"]["transports"] == "websocket:1,xhr-polling:1"
    for level in doc["levels"]:
        n = level["concurrency"]
        for p in level["points"]:
            parts = {t["transport"]: t for t in p["transports"]}
            assert list(parts) == ["websocket", "xhr-polling"]
            assert [t["sessions"] for t in parts.values()] == [n // 2, n - n // 2]
            assert sum(t["sent"] for t in parts.values()) == p["sent"]
            assert sum(t["received"] for t in parts.values()) == p["received"]
            for t in parts.values():
                assert t["expected_received"] == p["sent"] * t["sessions"] and t["lost"] == 0
                assert t["rtt_ms"]["count"] == t["sent"]  # every sender's own copy came back


def test_a_mix_through_haproxy_on_two_workers_keeps_every_session_on_one_backend(tmp_path):
    # `make bench-cpython PROFILE=smoke WORKERS=2 PROXY=haproxy TRANSPORTS=websocket:1,xhr-streaming:1`: an
    # xhr-streaming session's receiving and xhr_send requests must reach one worker, or its copies are lost.
    proc = _run_bench("--server", "cpython", "--profile", "smoke", "--repeat", "1", "--workers", "2", "--proxy",
                      "haproxy", "--transports", "websocket:1,xhr-streaming:1", "--server-cpu",
                      str(available_cpus()[0]), "--no-server-warmup", "--out-dir", str(tmp_path), timeout_s=300)
    assert proc.returncode == 0, f"run_bench failed:\n{proc.stderr[-4000:]}"
    path = proc.stdout.strip().splitlines()[-1]
    assert path.endswith("-fast-w2-haproxy-websocket1-xhr-streaming1.json")
    doc = load_result(path)
    assert schema_errors(doc) == [] and doc["server"]["proxy"]["name"] == "haproxy"
    for p in _points(doc):
        assert p["lost"] == 0 and [t["transport"] for t in p["transports"]] == ["websocket", "xhr-streaming"]
        assert all(t["lost"] == 0 and t["rtt_ms"]["count"] == t["sent"] for t in p["transports"])


def test_an_unknown_transport_is_refused_with_exit_2_before_anything_starts(tmp_path):
    proc = _run_bench("--server", "cpython", "--profile", "smoke", "--transports", "websocket:80,jsonp-polling:20",
                      "--out-dir", str(tmp_path))
    assert proc.returncode == 2
    assert "TRANSPORTS=websocket:80,jsonp-polling:20: --transports: unknown transport 'jsonp-polling'" in proc.stderr
    assert "websocket, xhr-streaming, eventsource, xhr-polling" in proc.stderr
    assert "[start server]" not in proc.stderr and not os.listdir(tmp_path)  # nothing was started


def test_http_transports_on_the_raw_endpoint_are_refused(tmp_path):
    proc = _run_bench("--server", "cpython", "--profile", "smoke", "--transport", "raw", "--transports", "eventsource",
                      "--out-dir", str(tmp_path))
    assert proc.returncode == 2 and "need --transport sockjs" in proc.stderr
