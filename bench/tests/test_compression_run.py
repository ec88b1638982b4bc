"""COMPRESSION= end to end, as `make bench-pypy PROFILE=smoke COMPRESSION=permessage-deflate` runs it (here on
CPython and Node, which the test machine always has): real servers compressing, the real client inflating, a
result that records it and a file name that says so; and a server that cannot refused before anything starts."""

import os
import subprocess
import sys

import pytest

from cpus import available_cpus
from results_io import flow_problems, load_result, schema_errors

RUN_BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "run_bench.py")


def _run_bench(*args, timeout_s=60):
    return subprocess.run([sys.executable, RUN_BENCH, "--port", "0", *args], capture_output=True, text=True,
                          timeout=timeout_s)


@pytest.mark.parametrize("server", ["cpython", "node"])
def test_a_compressed_smoke_run_loses_nothing_and_says_so(server, tmp_path):
    proc = _run_bench("--server", server, "--profile", "smoke", "--repeat", "1", "--compression", "permessage-deflate",
                      "--server-cpu", str(available_cpus()[0]), "--no-server-warmup", "--out-dir", str(tmp_path),
                      timeout_s=300)
    assert proc.returncode == 0, f"run_bench failed:\n{proc.stderr[-4000:]}"
    path = proc.stdout.strip().splitlines()[-1]
    assert path.endswith("-deflate.json"), path
    doc = load_result(path)
    assert schema_errors(doc) == [] and flow_problems(doc) == []
    assert doc["parameters"]["compression"] == "permessage-deflate"
    assert doc["server"]["ready"]["compression"] == "permessage-deflate"
    assert doc["label"].endswith(" · permessage-deflate")
    points = [p for level in doc["levels"] for p in level["points"]]
    assert points and all(p["lost"] == 0 and p["connection_errors"] == 0 and p["received"] > 0 for p in points)


def test_a_server_that_cannot_compress_is_refused_with_exit_2_before_anything_starts(tmp_path):
    proc = _run_bench("--servers", "cpython-fast,sockjs-tornado-cpython", "--profile", "smoke",
                      "--compression", "permessage-deflate", "--out-dir", str(tmp_path))
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].startswith(
        "bench: COMPRESSION=permessage-deflate: sockjs-tornado-cpython cannot compress"), proc.stderr
    assert "READY" not in proc.stderr and not os.listdir(tmp_path)
