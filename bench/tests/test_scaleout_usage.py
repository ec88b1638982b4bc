"""bench-scaleout's usage errors: refused with exit 2 before anything runs (no client, server, Redis
or cgroup), and the settings it accepts."""

import os
import subprocess
import sys

import pytest

from servers import ROOT

RUN_SCALEOUT = os.path.join(ROOT, "bench", "run_scaleout.py")


def _run(*args):
    # --check-usage: a run that passes the checks stops there, so these tests start nothing.
    return subprocess.run([sys.executable, RUN_SCALEOUT, *args, "--check-usage"], capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("args, why", [
    (["--core-share", "0"], "core share must be in (0, 1]"),
    (["--core-share", "-0.25"], "core share must be in (0, 1]"),
    (["--core-share", "1.5"], "core share must be in (0, 1]"),
    (["--core-share", "0.5", "--workers-list", "1,2,4"], "must fit one core"),
    (["--core-share", "0.005"], "below the kernel's minimum quota"),
    (["--core-share", "0.25", "--period-us", "500"], "period must be"),
    (["--core-share", "0.25", "--workers-list", "1,x"], "a comma list of worker counts"),
    (["--core-share", "0.25", "--workers-list", "1,1"], "listed twice"),
    (["--core-share", "0.25", "--workers-list", "65"], "--workers must be in 1-64"),
])
def test_bad_share_or_worker_counts_are_usage_errors(args, why):
    base = ["--server", "pypy-fast", "--workers-list", "1,2"]
    proc = _run(*base, *args)
    assert proc.returncode == 2, proc.stderr
    assert why in proc.stderr


@pytest.mark.parametrize("server", ["sockjs-tornado-cpython", "limit-fast"])
def test_a_server_without_the_workers_knob_is_a_usage_error(server):
    proc = _run("--server", server, "--workers-list", "1,2", "--core-share", "0.25")
    assert proc.returncode == 2 and "has no workers knob" in proc.stderr


@pytest.mark.parametrize("flag", [["--workers", "2"], ["--broker", "private"], ["--servers", "pypy-fast"],
                                  ["--agents", "2"]])
def test_the_runners_own_scaleout_flags_are_refused(flag):
    proc = _run("--server", "pypy-fast", "--workers-list", "1,2", "--core-share", "0.25", *flag)
    assert proc.returncode == 2 and "not an option of bench-scaleout" in proc.stderr


def test_no_server_is_a_usage_error():
    proc = _run("--workers-list", "1,2", "--core-share", "0.25")
    assert proc.returncode == 2 and "--server NAME is required" in proc.stderr


@pytest.mark.parametrize("server", ["pypy-fast", "node-fast", "cpython-fast"])
def test_four_workers_at_a_quarter_core_pass(server):
    proc = _run("--server", server, "--workers-list", "1,2,4", "--core-share", "0.25")
    assert proc.returncode == 0, proc.stderr
