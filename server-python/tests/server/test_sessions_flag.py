"""--sessions N against a real server process under a lowered open-files
limit (prlimit-style, set in the child before exec): refused with one line
and exit 2 when one process's share does not fit, READY when it does -
including when only raising the soft limit to the hard one makes it fit."""
from __future__ import annotations

import subprocess
import sys

import pytest

from serverproc import ServerProcess

pytest.importorskip("resource")


def under_nofile(soft: int, hard: int):
    """Our server, exec'd with RLIMIT_NOFILE set to (soft, hard)."""
    code = ("import os, resource, sys; "
            "resource.setrlimit(resource.RLIMIT_NOFILE, (%d, %d)); "
            "os.execv(sys.executable, [sys.executable, '-m', 'sockbench_server'] + sys.argv[1:])"
            % (soft, hard))
    return [sys.executable, "-c", code]


def run_to_exit(command, *args):
    return subprocess.run(command + list(args) + ["--port", "0"], capture_output=True,
                          text=True, timeout=30)


def test_too_many_sessions_for_the_limit_is_one_line_on_stderr_and_exit_2():
    done = run_to_exit(under_nofile(200, 200), "--sessions", "1000")
    assert done.returncode == 2
    assert done.stdout == ""  # no READY line
    assert done.stderr == ("sockbench-tornado: 1000 sessions need 1064 open files per process but "
                           "the limit is 200 (ulimit -n); use --workers 8 or raise ulimit -n\n")


def test_the_refusal_comes_before_workers_or_the_broker_are_started():
    # Port 1 has no Redis: had the server gone on, it would exit 1 saying so.
    done = run_to_exit(under_nofile(200, 200), "--sessions", "1000", "--workers", "2",
                       "--broker", "redis://127.0.0.1:1/0")
    assert done.returncode == 2
    assert done.stderr == ("sockbench-tornado: 1000 sessions need 564 open files per process but "
                           "the limit is 200 (ulimit -n); use --workers 8 or raise ulimit -n\n")


def test_a_share_that_fits_the_limit_starts_and_sizes_the_session_budget():
    srv = ServerProcess(["--sessions", "100"], command=under_nofile(200, 200))
    try:
        assert srv.ready_line.startswith("READY ")
        # the share and a quarter more, but never below the memory budget's 3,276
        assert " max_sessions=3276 " in srv.ready_line
    finally:
        srv.stop()


def test_the_soft_limit_is_raised_to_the_hard_one_before_the_check():
    srv = ServerProcess(["--sessions", "10000"], command=under_nofile(200, 20000))
    try:
        assert " max_sessions=12500 " in srv.ready_line
        limits = open("/proc/%d/limits" % srv.pid).read()
        soft = next(line.split()[3] for line in limits.splitlines()
                    if line.startswith("Max open files"))
        assert soft == "20000"
    finally:
        srv.stop()


def test_without_sessions_the_limit_and_budget_are_left_alone():
    srv = ServerProcess([], command=under_nofile(200, 20000))
    try:
        assert " max_sessions=3276 " in srv.ready_line
        limits = open("/proc/%d/limits" % srv.pid).read()
        assert any(line.startswith("Max open files") and line.split()[3] == "200"
                   for line in limits.splitlines())
    finally:
        srv.stop()


@pytest.mark.parametrize("value", ["0", "10000001", "-5", "1e3", "many"])
def test_a_bad_sessions_value_is_a_usage_error_naming_the_flag(value):
    done = subprocess.run([sys.executable, "-m", "sockbench_server", "--sessions", value],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "argument --sessions:" in done.stderr
    assert done.stdout == ""
