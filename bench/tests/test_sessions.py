"""The sessions profile's plan: workers and agents per level, grouped; what is refused before anything starts."""

import pytest

from matrix import registry
from sessions import (SESSIONS_PER_PROCESS, LevelGroup, group_levels, processes_for, single_process_refusal,
                      too_few_processes)

PROFILE_LEVELS = (1000, 2000, 5000, 10000, 19000, 50000, 100000)


def test_one_process_holds_up_to_19000_sessions_and_one_more_needs_a_second():
    assert SESSIONS_PER_PROCESS == 19000
    assert [processes_for(n) for n in (1, 19000, 19001, 38000, 50000, 100000)] == [1, 1, 2, 2, 3, 6]


def test_the_profiles_levels_form_a_group_per_process_count_in_the_order_given():
    assert group_levels(PROFILE_LEVELS) == [LevelGroup((1000, 2000, 5000, 10000, 19000), 1, 1),
                                            LevelGroup((50000,), 3, 3), LevelGroup((100000,), 6, 6)]


def test_only_consecutive_levels_share_a_group():
    # Levels are swept in the order given, so a level that needs more processes splits the run.
    assert group_levels((1000, 40000, 2000)) == [LevelGroup((1000,), 1, 1), LevelGroup((40000,), 3, 3),
                                                 LevelGroup((2000,), 1, 1)]


def test_explicit_workers_and_agents_enough_for_the_largest_level_hold_every_level():
    assert group_levels(PROFILE_LEVELS, workers=6, agents=6) == [LevelGroup(PROFILE_LEVELS, 6, 6)]
    assert too_few_processes(PROFILE_LEVELS, workers=6, agents=6, limit=20000) is None


def test_explicit_workers_alone_leave_the_agents_to_the_runner():
    assert group_levels((1000, 50000), workers=3) == [LevelGroup((1000,), 3, 1), LevelGroup((50000,), 3, 3)]


def test_too_few_explicit_workers_are_refused_in_one_line_naming_the_limit_and_what_would_work():
    why = too_few_processes((1000, 50000), workers=2, limit=20000)
    assert "\n" not in why
    assert why.startswith("level 50,000 needs 3 processes on each side")
    assert "the open-files limit is 20,000 per process, ulimit -n" in why
    assert "WORKERS=2 was given; use WORKERS=3 or more" in why


def test_too_few_explicit_agents_are_refused_too():
    why = too_few_processes((100000,), workers=6, agents=4, limit=20000)
    assert "AGENTS=4 was given; use AGENTS=6 or more" in why and "WORKERS" not in why


@pytest.mark.parametrize("name, why", [
    ("sockjs-tornado-cpython", "it is a peer"),
    ("limit-fast", "it has no --workers"),
    ("bun-naive", "it has no --workers"),
])
def test_a_server_that_cannot_run_workers_is_refused_above_one_process_share(name, why):
    entry = registry().entry(name)
    assert single_process_refusal(entry, (1000, 19000)) is None
    refusal = single_process_refusal(entry, (1000, 19001))
    assert refusal.startswith(f"{name}: level 19,001 needs 2 server processes") and why in refusal
    assert "\n" not in refusal


def test_our_servers_run_workers_so_they_are_not_refused():
    assert single_process_refusal(registry().entry("cpython-fast"), PROFILE_LEVELS) is None


def test_a_server_you_run_yourself_is_refused_above_one_process_share():
    from byo_server import UrlTarget
    target = UrlTarget(name="mine", url="http://127.0.0.1:9000/broadcast")
    assert "a server you run yourself" in single_process_refusal(target, (50000,), byo=True)
