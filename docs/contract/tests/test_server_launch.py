"""The one launcher against processes that keep the READY contract and ones
that break it in the ways the bench and the suites must survive (tiny Python
stand-ins, no real server: the real servers go through it in their suites)."""

import os
import signal
import sys

import pytest

from sockbench_contract.server_launch import ServerProcess, StepError


def stub(code):
    return [sys.executable, "-c", code]


def test_exit_before_ready_names_the_step(tmp_path):
    argv = stub("import sys; print('boom', file=sys.stderr); sys.exit(3)")
    with pytest.raises(StepError, match=r"\[wait for READY\].*status 3(.|\n)*boom"):
        ServerProcess(argv, [], str(tmp_path / "x.log")).start()


def test_no_ready_line_times_out_and_kills(tmp_path):
    argv = stub("import time; time.sleep(60)")
    server = ServerProcess(argv, [], str(tmp_path / "x.log"), ready_timeout_s=1)
    with pytest.raises(StepError, match="no READY line within 1 s"):
        with server:
            pass
    assert server.proc.poll() is not None, "the server must not outlive a failed start"


def test_server_ignoring_sigterm_is_killed_and_reported(tmp_path):
    code = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
            "print('READY http://127.0.0.1:1 server=stubborn', flush=True); time.sleep(60)")
    server = ServerProcess(stub(code), [], str(tmp_path / "x.log"))
    server.start()
    with pytest.raises(StepError, match=r"\[stop server\] server did not exit within 1 s"):
        server.stop(grace_s=1)
    assert server.proc.poll() is not None


SLOW_GOODBYE = ("import signal, sys, time\n"
                "signal.signal(signal.SIGTERM, lambda *_: (time.sleep(2.4), sys.exit(0)))\n"
                "print('READY http://127.0.0.1:1 server=slow', flush=True)\n"
                "time.sleep(60)\n")


def test_a_clean_exit_later_than_2_s_fails_the_stop_by_default(tmp_path):
    server = ServerProcess(stub(SLOW_GOODBYE), [], str(tmp_path / "x.log"))
    server.start()
    with pytest.raises(StepError, match=r"\[stop server\] server took 2\.\d s to exit after SIGTERM \(contract: 2 s\)"):
        server.stop()


def test_the_bench_keeps_a_slow_clean_exit_as_a_figure_not_a_failure(tmp_path):
    server = ServerProcess(stub(SLOW_GOODBYE), [], str(tmp_path / "x.log"), slow_stop_is_error=False)
    server.start()
    assert server.stop() == 0
    assert 2.0 < server.slow_stop_s < 5.0


def test_an_exit_in_time_records_no_slow_stop(tmp_path):
    code = SLOW_GOODBYE.replace("time.sleep(2.4), ", "")
    server = ServerProcess(stub(code), [], str(tmp_path / "x.log"), slow_stop_is_error=False)
    server.start()
    assert server.stop() == 0 and server.slow_stop_s is None


def test_pinning_uses_taskset(tmp_path):
    code = ("import os; print('READY http://127.0.0.1:1 cpus=' + ','.join(map(str, sorted(os.sched_getaffinity(0)))),"
            " flush=True); import time; time.sleep(30)")
    cpu = sorted(os.sched_getaffinity(0))[-1]
    server = ServerProcess(stub(code), [cpu], str(tmp_path / "x.log"))
    server.start()
    try:
        assert server.fields["cpus"] == str(cpu)
    finally:
        server.stop(grace_s=2, raise_on_error=False)


def test_ready_line_url_fields_and_what_follows_it(tmp_path):
    code = ("import sys; print('READY http://127.0.0.1:1 server=stub', flush=True);"
            "print('oops', flush=True); print('to stderr', file=sys.stderr)")
    server = ServerProcess(stub(code), log_path=str(tmp_path / "x.log"))
    server.start()
    assert (server.url, server.fields) == ("http://127.0.0.1:1", {"server": "stub"})
    assert server.wait(10) == 0
    assert server.rest_of_stdout() == b"oops\n"
    assert "to stderr" in server.stderr_text()
    assert (tmp_path / "x.log").read_text() == "to stderr\n"


def test_without_a_log_path_stderr_is_kept_while_the_process_object_lives():
    code = ("import os, sys, time; print('early', file=sys.stderr, flush=True);"
            "print('READY http://127.0.0.1:1 x=' + os.environ['X'], flush=True); time.sleep(60)")
    server = ServerProcess(stub(code), env={**os.environ, "X": "1"})
    server.start()
    assert server.fields == {"x": "1"}
    assert server.stderr_text() == "early\n"
    assert server.stop(raise_on_error=False) == -signal.SIGTERM
    assert server.stderr_text() == "early\n"


def test_a_line_that_breaks_the_grammar_is_refused_and_the_process_stopped(tmp_path):
    server = ServerProcess(stub("import time; print('READY http://127.0.0.1:1/', flush=True); time.sleep(60)"),
                           log_path=str(tmp_path / "x.log"))
    with pytest.raises(StepError, match=r"\[wait for READY\] bad base url"):
        server.start()
    assert server.proc.poll() is not None


def test_stop_returns_the_status_and_reports_a_crash_only_when_asked(tmp_path):
    code = "print('READY http://127.0.0.1:1', flush=True); raise SystemExit(4)"
    server = ServerProcess(stub(code), log_path=str(tmp_path / "x.log"))
    server.start()
    server.wait(10)
    assert server.stop(raise_on_error=False) == 4
    again = ServerProcess(stub(code), log_path=str(tmp_path / "y.log"))
    again.start()
    again.wait(10)
    with pytest.raises(StepError, match=r"\[stop server\] server had already exited with status 4"):
        again.stop()
