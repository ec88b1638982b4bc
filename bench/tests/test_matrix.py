"""The like-for-like matrix: which entries, interleaved order, start rates for later repetitions."""

import pytest

from factories import doc, level
from factories import profile as make_profile
from matrix import MATRIX, format_level_start_rates, interleave, level_start_rates, select, single
from servers import SPECS


def test_matrix_is_every_runtime_in_both_modes_plus_the_peer():
    assert len(MATRIX) == 8
    assert {(v.kind, v.naive) for v in MATRIX} == {
        ("pypy", False), ("pypy", True), ("cpython", False), ("cpython", True), ("node", False), ("node", True),
        ("peer-sockjs-tornado-cpython", False), ("peer-sockjs-tornado-pypy", False)}
    assert all(v.kind in SPECS for v in MATRIX)


def test_servers_subset_keeps_the_given_order():
    assert [v.name for v in select("node-naive, pypy-fast,node-naive")] == ["node-naive", "pypy-fast"]
    assert select("") == list(MATRIX)


def test_unknown_server_names_the_valid_ones():
    with pytest.raises(ValueError, match="pypy-fst.*choose from: pypy-fast"):
        select("pypy-fst")


def test_repetitions_are_interleaved():
    a, b = select("pypy-fast,node-fast")
    assert interleave([a, b], 3) == [(1, a), (1, b), (2, a), (2, b), (3, a), (3, b)]
    with pytest.raises(ValueError):
        interleave([a], 0)


def test_single_target_maps_to_its_matrix_entry():
    assert single("cpython", True).name == "cpython-naive"
    assert single("node", False).name == "node-fast"


def test_later_repetitions_start_at_half_the_first_ones_knee_within_the_profile():
    profile = make_profile("standard")
    first = doc([level(25, 5000.0, rate=200.0), level(100, None), level(500, 1000.0, rate=12.0)])
    rates = level_start_rates(first, profile)
    assert rates == {25: 100.0, 500: 10.0}        # 6 would be below the profile's start rate of 10
    assert format_level_start_rates(rates) == "25:100,500:10"
