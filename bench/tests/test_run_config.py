"""The run's settings: the command line becomes one typed, frozen RunConfig, or a usage error (exit 2)."""

import dataclasses
import shlex

import pytest

from bench_cli import parse_args
from run_config import RunConfig


def test_the_command_line_becomes_typed_settings():
    config = parse_args(["--server", "pypy", "--profile", "quick", "--levels", "25, 100", "--repeat", "2",
                         "--server-cpu", "0", "--client-cpu", "1-2", "--java-opts", "-Xmx1g -Dx='a b'",
                         "--client-args", "--step 1", "--heartbeat", "2.5", "--no-server-warmup"])
    assert isinstance(config, RunConfig)
    assert [v.name for v in config.variants] == ["pypy-fast"] and not config.byo_server
    assert (config.profile, config.repeat, config.levels, config.levels_arg) == ("quick", 2, (25, 100), "25,100")
    assert (config.server_cpus, config.client_cpus, config.broker_cpus) == ((0,), (1, 2), None)
    assert config.java_opts == ("-Xmx1g", "-Dx=a b") and config.client_args == ("--step", "1")
    assert (config.heartbeat_s, config.server_warmup, config.workers, config.broker) == (2.5, False, 1, None)


def test_defaults_are_resolved_once_repeat_by_profile_and_levels_from_the_profile():
    assert parse_args(["--server", "pypy", "--client-cpu", "1"]).repeat == 3      # standard
    smoke = parse_args(["--server", "pypy", "--client-cpu", "1", "--profile", "smoke"])
    assert smoke.repeat == 1 and smoke.levels is None and smoke.server_warmup


def test_settings_cannot_change_after_the_command_line_is_read():
    config = parse_args(["--server", "pypy", "--client-cpu", "1"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.repeat = 5
    with pytest.raises(TypeError):
        RunConfig(config.variants)  # named fields only


def test_a_private_bus_and_a_pinned_private_broker():
    config = parse_args(["--server", "pypy", "--client-cpu", "1", "--workers", "2", "--broker-cpu", "1",
                         "--agents", "2", "--bus", "private"])
    assert (config.workers, config.broker, config.broker_cpus, config.agents, config.bus) == (2, None, (1,), 2, None)


def test_a_server_you_run_is_one_url_target():
    config = parse_args(["--url", "http://127.0.0.1:9/broadcast/", "--name", "mine", "--mode", "naive",
                         "--client-cpu", "1"])
    assert config.byo_server
    (target,) = config.variants
    assert (target.name, target.url, target.pid, target.mode) == ("mine", "http://127.0.0.1:9/broadcast", None, "naive")


#: Extra options (shell words) -> the usage error they give.
USAGE_ERRORS = {
    "--levels 25,0": "--levels '25,0': a comma list of concurrency levels, each a whole number >= 1",
    "--levels 25,x": "--levels '25,x'",
    "--heartbeat 0": "--heartbeat must be > 0 seconds",
    "--ready-timeout -1": "--ready-timeout must be > 0 seconds",
    "--client-timeout 0": "--client-timeout must be > 0 seconds",
    "--client-args \"--label 'unclosed\"": "--client-args \"--label 'unclosed\": No closing quotation",
    "--port 65536": "--port must be in 0-65535",
    "--workers 2 --broker http://x": "--broker must be redis://HOST[:PORT][/DB] or 'private'",
}


@pytest.mark.parametrize("options", USAGE_ERRORS)
def test_out_of_range_settings_are_usage_errors(options, capsys):
    with pytest.raises(SystemExit) as exc:
        parse_args(["--server", "pypy", "--client-cpu", "1", *shlex.split(options)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: run_bench.py") and f"run_bench.py: error: {USAGE_ERRORS[options]}" in err
