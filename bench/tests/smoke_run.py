"""One smoke run of bench/run_bench.py as a user starts it (`make bench ...
PROFILE=smoke`), shared by the end-to-end smoke tests: run it on a free port,
fail with its stderr when it fails, and hand back a result file that is
valid against results/schema.json with messages flowing at every point."""

import os
import subprocess
import sys
from typing import List, Tuple

from results_io import flow_problems, load_result, schema_errors

RUN_BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "run_bench.py")


def smoke_run(servers: List[str], out_dir, server_cpu: str, repeat: int = 1, extra: List[str] = (),
              client_timeout_s: int = 240, timeout_s: int = 300) -> Tuple[subprocess.CompletedProcess, str, dict]:
    """Run the smoke profile against ``servers`` (run_bench's server options,
    e.g. ``["--server", "cpython"]``) with ``repeat`` repetitions (>= 1),
    ``extra`` options, the server pinned to ``server_cpu`` (a CPU list) and
    the result written to ``out_dir``; ``client_timeout_s`` and the whole
    run's ``timeout_s`` in seconds. Returns (process, result path, result).

    Only test_smoke_e2e's one-server runs keep the runner's warm-up pass (~9 s a
    run); other callers pass ``--no-server-warmup`` since they test something else."""
    cmd = [sys.executable, RUN_BENCH, *servers, "--profile", "smoke", "--repeat", str(repeat), *extra,
           "--port", "0", "--server-cpu", server_cpu, "--out-dir", str(out_dir),
           "--client-timeout", str(client_timeout_s)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
    assert proc.returncode == 0, f"run_bench failed:\n{proc.stderr[-4000:]}"
    out_path = proc.stdout.strip().splitlines()[-1]
    doc = load_result(out_path)
    assert schema_errors(doc) == []
    assert flow_problems(doc) == []
    return proc, out_path, doc
