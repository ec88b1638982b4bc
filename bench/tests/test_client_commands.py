"""What the runner tells the client: the measured run's argv and the warm-up pass's, from the run's settings."""

import subprocess
import types

import pytest

import measure
from byo_server import client_command as url_client_command
from factories import profile
from bench_cli import parse_args
from sockbench_contract.server_launch import StepError

SETTINGS = ["--client-cpu", "1", "--java", "/opt/java", "--java-opts", "-Xmx1g -Da='b c'", "--client-jar", "c.jar",
            "--levels", "25, 100", "--client-args", "--step 1", "--transport", "raw", "--profile", "quick"]
SERVER = types.SimpleNamespace(url="http://127.0.0.1:8080", pid=42, ready_line="READY http://127.0.0.1:8080 a=b")


def test_the_measured_run_carries_the_settings_in_order():
    config = parse_args(["--server", "pypy", *SETTINGS])
    (entry,) = config.variants
    cmd = measure.client_command(config, SERVER, entry, "/tmp/out.json", ["--level-start-rates", "25:10"],
                                 server_pid=43)
    assert cmd == ["taskset", "-c", "1", "/opt/java", "-Xmx1g", "-Da=b c", "-jar", "c.jar",
                   "--url", "http://127.0.0.1:8080/broadcast", "--transport", "raw", "--profile", "quick",
                   "--out", "/tmp/out.json", "--server-pid", "43", "--server-ready", SERVER.ready_line,
                   "--levels", "25,100", "--level-start-rates", "25:10", "--step", "1"]


def test_a_server_you_run_is_swept_by_its_url_under_its_name():
    config = parse_args(["--url", "http://10.0.0.2:9000/echo", "--name", "mine", *SETTINGS])
    cmd = url_client_command(config, config.variants[0], "/tmp/out.json")
    assert cmd[8:] == ["--url", "http://10.0.0.2:9000/echo", "--transport", "raw", "--profile", "quick",
                       "--out", "/tmp/out.json", "--server-name", "mine", "--label", "mine · http://10.0.0.2:9000/echo",
                       "--levels", "25,100", "--step", "1"]


def test_the_warm_up_pass_is_the_clients_warmup_profile_and_nothing_else(monkeypatch):
    calls = []
    monkeypatch.setattr(measure.subprocess, "run",
                        lambda cmd, **kw: calls.append(cmd) or subprocess.CompletedProcess(cmd, 0, "", ""))
    config = parse_args(["--server", "pypy", *SETTINGS])
    measure.warm_up(config, "http://127.0.0.1:8080/broadcast", profile("warmup"))
    (cmd,) = calls
    assert cmd[:8] == measure.java_command(config)
    rest = cmd[8:]
    assert rest[rest.index("--profile") + 1] == "warmup"
    # the sweep is the profile's: no levels, rates or timings of the runner's own, none of --client-args
    assert not {"--levels", "--start-rate", "--max-rate", "--rate-factor", "--step", "--settle", "--warmup"} & set(rest)


def test_a_failed_warm_up_pass_is_a_step_error(monkeypatch):
    monkeypatch.setattr(measure.subprocess, "run", lambda cmd, **kw: subprocess.CompletedProcess(cmd, 3, "", "boom"))
    config = parse_args(["--server", "pypy", *SETTINGS])
    with pytest.raises(StepError, match=r"\[warm up\] warm-up pass failed \(status 3\): boom"):
        measure.warm_up(config, "http://127.0.0.1:8080/broadcast", profile("warmup"))


def test_the_warm_up_line_is_read_from_the_profile():
    warm = profile("warmup", levels=[50], start_rate=200, max_rate=3200)
    assert measure.warm_up_note(warm) == "client profile warmup: 50 clients, 200-3200 msgs/s"
