"""bench-scaleout's usage errors: refused with exit 2 by the checks, which run nothing (no client, server,
Redis or cgroup), and the settings it accepts."""

import os
import subprocess
import sys

import pytest

from run_scaleout import parse_args
from servers import ROOT


class _Run:
    def __init__(self, returncode, stderr, plan=None):
        self.returncode, self.stderr, self.plan = returncode, stderr, plan


def _run(*args, capsys=None):
    """The checks alone (parse_args runs nothing): exit status 2 and the message, or 0 and the plan."""
    try:
        plan = parse_args(list(args))
    except SystemExit as exc:
        return _Run(exc.code, capsys.readouterr().err)
    return _Run(0, capsys.readouterr().err, plan)


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
def test_bad_share_or_worker_counts_are_usage_errors(args, why, capsys):
    base = ["--server", "pypy-fast", "--workers-list", "1,2"]
    proc = _run(*base, *args, capsys=capsys)
    assert proc.returncode == 2, proc.stderr
    assert why in proc.stderr


@pytest.mark.parametrize("server", ["sockjs-tornado-cpython", "limit-fast"])
def test_a_server_without_the_workers_knob_is_a_usage_error(server, capsys):
    proc = _run("--server", server, "--workers-list", "1,2", "--core-share", "0.25", capsys=capsys)
    assert proc.returncode == 2 and "has no workers knob" in proc.stderr


@pytest.mark.parametrize("flag", [["--workers", "2"], ["--broker", "private"], ["--servers", "pypy-fast"],
                                  ["--agents", "2"]])
def test_the_runners_own_scaleout_flags_are_refused(flag, capsys):
    proc = _run("--server", "pypy-fast", "--workers-list", "1,2", "--core-share", "0.25", *flag, capsys=capsys)
    assert proc.returncode == 2 and "not an option of bench-scaleout" in proc.stderr


def test_no_server_is_a_usage_error(capsys):
    proc = _run("--workers-list", "1,2", "--core-share", "0.25", capsys=capsys)
    assert proc.returncode == 2 and "--server NAME is required" in proc.stderr


@pytest.mark.parametrize("server", ["pypy-fast", "node-fast", "cpython-fast"])
def test_four_workers_at_a_quarter_core_pass(server, capsys):
    proc = _run("--server", server, "--workers-list", "1,2,4", "--core-share", "0.25", "--client-cpu", "1",
                capsys=capsys)
    assert proc.returncode == 0, proc.stderr
    plan = proc.plan
    assert plan.workers == (1, 2, 4) and plan.share == 0.25 and plan.broker_cpus == (1,)
    # One worker runs alone (no broker: the baseline); several get a private broker on the client's core.
    assert plan.config_for(1).broker_cpus is None and plan.config_for(4).workers == 4
    assert plan.config_for(4).broker_cpus == (1,) and plan.config_for(4).broker is None


def test_the_command_line_exits_2_on_a_usage_error():
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "run_scaleout.py"), "--server", "pypy-fast",
                           "--workers-list", "1,2", "--core-share", "2"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "core share must be in (0, 1]" in proc.stderr
