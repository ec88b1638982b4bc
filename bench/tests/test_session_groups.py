"""The sessions profile in the runner: the groups it plans from the command line, what each group's server
start and client run are given, and the refusals it makes before anything starts."""

import pytest

from matrix import registry
from measure import variant_argv
from bench_cli import parse_args
import session_groups
from sessions import LevelGroup

LEVELS = (1000, 19000, 50000, 100000)


def _config(*extra):
    return parse_args(["--server", "cpython", "--profile", "sessions", "--port", "0", *extra])


def test_the_sessions_profile_is_grouped_and_other_profiles_are_not():
    assert session_groups.applies(_config())
    assert not session_groups.applies(parse_args(["--server", "cpython", "--profile", "quick"]))
    assert session_groups.plan(_config(), LEVELS) == [LevelGroup((1000, 19000), 1, 1), LevelGroup((50000,), 3, 3),
                                                      LevelGroup((100000,), 6, 6)]


def test_the_plan_line_records_what_the_runner_chose():
    config = _config()
    line = session_groups.plan_line(session_groups.plan(config, LEVELS), config)
    assert line == ("[plan] sessions profile, one server start and client run per group: 1000,19000 on 1 server "
                    "process and 1 client process; 50000 on 3 server workers and 3 client agents (private broker); "
                    "100000 on 6 server workers and 6 client agents (private broker)")


def test_explicit_workers_and_agents_are_honoured_when_they_hold_the_largest_level():
    config = _config("--workers", "6", "--agents", "6")
    assert session_groups.refusals(config, config.variants, LEVELS) == []
    assert session_groups.plan(config, LEVELS) == [LevelGroup(LEVELS, 6, 6)]


def test_explicit_workers_too_few_for_the_largest_level_are_refused_in_one_line():
    config = _config("--workers", "2")
    [why] = session_groups.refusals(config, config.variants, LEVELS)
    assert why.startswith("level 100,000 needs 6 processes on each side") and "WORKERS=2 was given" in why


def test_a_peer_above_one_process_share_is_refused_and_named():
    config = parse_args(["--servers", "cpython-fast,sockjs-tornado-cpython", "--profile", "sessions"])
    [why] = session_groups.refusals(config, config.variants, (1000, 50000))
    assert why.startswith("sockjs-tornado-cpython: level 50,000 needs 3 server processes") and "a peer" in why
    assert session_groups.refusals(config, config.variants, (1000, 19000)) == []


def test_each_group_starts_our_server_with_its_workers_and_its_largest_level_as_sessions():
    config = _config()
    small, large = session_groups.plan(config, (1000, 19000, 50000))
    variant = registry().entry("cpython-fast")
    argv = variant_argv(session_groups.group_config(config, small, variant), variant)
    assert argv[argv.index("--sessions") + 1] == "19000" and "--workers" not in argv
    argv = variant_argv(session_groups.group_config(config, large, variant), variant, broker_url="redis://127.0.0.1:1/0")
    assert argv[argv.index("--sessions") + 1] == "50000" and argv[argv.index("--workers") + 1] == "3"
    large_config = session_groups.group_config(config, large, variant)
    assert (large_config.levels, large_config.agents) == ((50000,), 3)


def test_a_server_without_the_sessions_knob_gets_no_sessions_flag():
    config = parse_args(["--server", "sockjs-tornado-cpython", "--profile", "sessions"])
    peer = registry().entry("sockjs-tornado-cpython")
    [group] = session_groups.plan(config, (1000,))
    assert "--sessions" not in variant_argv(session_groups.group_config(config, group, peer), peer)


@pytest.mark.parametrize("args, levels, expected", [
    (["--level-start-rates", "1000:5,50000:0.5", "--step", "1"], (50000,),
     ["--level-start-rates", "50000:0.5", "--step", "1"]),
    (["--client-ceilings", "1000:900000", "--idle-hold-s", "2"], (50000,), ["--idle-hold-s", "2"]),
    (["--client-ceilings", "1000:900000,19000:800000"], (1000, 19000), ["--client-ceilings", "1000:900000,19000:800000"]),
])
def test_a_groups_client_run_gets_only_its_own_levels_per_level_values(args, levels, expected):
    assert session_groups.args_for_levels(args, levels) == expected
