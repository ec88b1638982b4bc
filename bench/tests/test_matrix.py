"""The like-for-like matrix: which entries, interleaved order, start rates for later repetitions."""

import pytest

from factories import doc, level
from factories import profile as make_profile
from matrix import format_level_start_rates, interleave, level_start_rates, registry, select, single

DEFAULT_EIGHT = ["pypy-fast", "cpython-fast", "node-fast", "pypy-naive", "cpython-naive", "node-naive",
                 "sockjs-tornado-cpython", "sockjs-tornado-pypy"]


def test_default_matrix_is_every_runtime_in_both_modes_plus_the_peer():
    default = select("")
    assert [e.name for e in default] == DEFAULT_EIGHT
    assert select("all") == default == select("default")
    assert {(e.argv[0].rsplit("/", 3)[-3] if e.argv[0].startswith("/") else e.argv[0], e.mode) for e in default} == {
        (".venv-pypy", "fast"), (".venv-pypy", "naive"), (".venv-cpython", "fast"), (".venv-cpython", "naive"),
        ("node", "fast"), ("node", "naive"), (".venv-peer-cpython", "naive"), (".venv-peer-pypy", "naive")}


def test_servers_subset_keeps_the_given_order():
    assert [v.name for v in select("node-naive, pypy-fast,node-naive")] == ["node-naive", "pypy-fast"]
    assert [e.name for e in select("cpython-fast,default")] == ["cpython-fast"] + \
        [n for n in DEFAULT_EIGHT if n != "cpython-fast"]


def test_unknown_server_names_the_valid_ones():
    with pytest.raises(ValueError, match="pypy-fst.*choose from: pypy-fast.*or a group: default, runtimes"):
        select("pypy-fst")


def test_repetitions_are_interleaved():
    a, b = select("pypy-fast,node-fast")
    assert interleave([a, b], 3) == [(1, a), (1, b), (2, a), (2, b), (3, a), (3, b)]
    with pytest.raises(ValueError):
        interleave([a], 0)


def test_single_target_maps_to_its_matrix_entry():
    assert single("cpython", True).name == "cpython-naive"
    assert single("node", False).name == "node-fast"
    assert single("cpython3.13-naive", False).name == "cpython3.13-naive"
    with pytest.raises(ValueError, match="drop --naive"):
        single("pypy-fast", True)


def test_runtimes_group_holds_ours_beside_the_new_runtimes():
    runtimes = [e.name for e in registry().group("runtimes")]
    assert runtimes[:6] == DEFAULT_EIGHT[:6]
    assert {"cpython3.12-fast", "cpython3.12-naive", "cpython3.13-fast", "cpython3.13-naive"} <= set(runtimes)
    assert not any(e.peer and e.name.startswith("sockjs-tornado") for e in registry().group("runtimes"))


def test_later_repetitions_start_at_the_profiles_fraction_of_the_first_ones_knee_within_the_profile():
    first = doc([level(25, 5000.0, rate=200.0), level(100, None), level(500, 1000.0, rate=12.0)])
    rates = level_start_rates(first, make_profile("standard", later_repetition_start_fraction=0.5))
    assert rates == {25: 100.0, 500: 10.0}        # 6 would be below the profile's start rate of 10
    assert format_level_start_rates(rates) == "25:100,500:10"
    quarter = level_start_rates(first, make_profile("standard", later_repetition_start_fraction=0.25, max_rate=40))
    assert quarter == {25: 40.0, 500: 10.0}       # 50 would be above the profile's max rate of 40


def test_a_profile_without_a_later_repetition_fraction_starts_every_repetition_at_its_start_rate():
    # The sessions profile climbs the same grid in every repetition, so no level gets a start rate.
    first = doc([level(25, 5000.0, rate=200.0)])
    assert level_start_rates(first, make_profile("sessions", later_repetition_start_fraction=None)) == {}
