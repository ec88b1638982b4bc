"""The ETA: a prior from the profile's parameters, then learning from finished runs."""

import pytest

from estimate import Eta, format_duration, point_s, points_per_level, prior_run_s
from factories import profile

STANDARD = profile("standard")


def test_point_costs_warmup_step_and_settle():
    assert point_s(STANDARD) == pytest.approx(0.5 + 3 + 1 + 0.15)


def test_geometric_prior_assumes_the_knee_half_way_up_the_grid():
    # 10 .. 100000 at x1.25 is 42 grid points; half of them plus one.
    assert points_per_level(STANDARD, 25) == 22


def test_confirm_and_refine_points_are_counted():
    profile = dict(STANDARD, confirm=True, refine_steps=3)
    assert points_per_level(profile, 25) == 22 + 4


def test_adaptive_level_start_needs_fewer_points_after_the_first_level():
    profile = dict(STANDARD, next_level_start_fraction=0.25)
    assert points_per_level(profile, 50, first_level=False) == 8   # 0.25 -> 1 at x1.25 is 7 points, +1 past
    assert points_per_level(profile, 25, first_level=True) == 22


def test_smoke_runs_its_whole_short_grid():
    assert points_per_level(profile("smoke"), 2) == 3


def test_prior_grows_with_levels():
    assert prior_run_s(STANDARD, [25]) < prior_run_s(STANDARD, [25, 50]) < prior_run_s(STANDARD)


def test_before_any_run_every_server_costs_the_prior():
    eta = Eta(100)
    assert eta.remaining_s([("a", 1), ("b", 1), ("a", 2)]) == 300


def test_a_measured_server_is_expected_to_take_what_it_took():
    eta = Eta(100)
    eta.observe("a", 50)
    assert eta.expected_s("a") == 50
    assert eta.expected_s("a", repetition=2) == 50
    eta.observe("a", 20, repetition=2)
    eta.observe("a", 40, repetition=3)
    assert eta.expected_s("a", repetition=3) == 30


def test_later_repetitions_can_be_expected_shorter():
    eta = Eta(100, later_ratio=0.5)
    eta.observe("a", 80)
    assert eta.expected_s("a", repetition=2) == 40
    assert eta.expected_s("b", repetition=2) == 40    # prior scaled by a's 0.8, then halved


def test_unmeasured_servers_scale_the_prior_by_how_far_off_it_was():
    eta = Eta(100)
    eta.observe("a", 200)          # runs take twice the prior
    assert eta.expected_s("b") == 200
    eta.observe("c", 100)
    assert eta.scale() == 1.5
    assert eta.remaining_s([("a", 1), ("b", 1), ("c", 1)]) == 200 + 150 + 100


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError):
        Eta(0)
    with pytest.raises(ValueError):
        Eta(100, later_ratio=0)


@pytest.mark.parametrize("s,text", [(45, "45 s"), (750, "12 min 30 s"), (3900, "1 h 05 min")])
def test_format_duration(s, text):
    assert format_duration(s) == text


def test_fresh_connections_for_confirm_and_refine_are_counted():
    plain = prior_run_s(STANDARD, [2000])
    searched = prior_run_s(dict(STANDARD, confirm=True, refine_steps=3), [2000])
    # 4 more points plus 4 more connection rounds of 2000 clients
    assert searched == pytest.approx(plain + 4 * point_s(STANDARD) + 4 * 2000 * 0.002)


def test_a_paced_connect_and_an_idle_hold_are_counted():
    plain = prior_run_s(STANDARD, [2000])
    sessions = prior_run_s(dict(STANDARD, connect_rate_per_s=100, idle_hold_s=30), [2000])
    # 20 s to open 2000 connections at 100/s instead of the unpaced 4 s, plus the 30 s hold
    assert sessions == pytest.approx(plain - 2000 * 0.002 + 20 + 30)
    # Paced faster than connections open anyway: the unpaced estimate stands.
    assert prior_run_s(dict(STANDARD, connect_rate_per_s=100_000), [2000]) == pytest.approx(plain)
