"""The fixed-rate point both profiles take: one rate from start to end, a window longer than the
profiler's, and the client's verdict read from a real result file (a committed reference run)."""

import glob
import json
import os

from sockbench_contract.fixed_rate_point import (WARMUP_S, WINDOW_MARGIN_S, client_args, measured_point,
                                                 point_error, point_line, sessions_missing,
                                                 window_start_s)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def flag(args, name):
    return args[args.index(name) + 1]


def test_the_point_is_one_rate_measured_once_over_a_window_longer_than_the_profile():
    args = client_args(50, 4000.0, 15.0)
    assert flag(args, "--levels") == "50"
    assert flag(args, "--start-rate") == flag(args, "--max-rate") == "4000"
    assert float(flag(args, "--step")) == 15.0 + WINDOW_MARGIN_S
    assert flag(args, "--warmup") == str(WARMUP_S)
    assert flag(args, "--refine-steps") == "0"
    assert {"--no-confirm", "--no-adaptive-start"} <= set(args)


def test_the_window_opens_after_the_warm_up_and_later_with_more_sessions_to_connect():
    assert window_start_s(1) > WARMUP_S
    assert window_start_s(19000) > window_start_s(50)


def test_the_verdict_line_is_the_last_point_of_a_real_client_result():
    path = sorted(glob.glob(os.path.join(ROOT, "results", "reference", "*-naive.json")))[0]
    with open(path) as f:
        last = [p for level in json.load(f)["levels"] for p in level["points"]][-1]
    assert measured_point(path) == last
    line = point_line(path)
    assert f"received {last['received_per_s']:,.0f}/s" in line
    assert f", {last['state']}, server CPU " in line


def test_a_point_with_fewer_sessions_than_asked_is_named_not_passed_over():
    path = sorted(glob.glob(os.path.join(ROOT, "results", "reference", "*-naive.json")))[0]
    with open(path) as f:
        opened = json.load(f)["levels"][-1]["connected"]
    assert sessions_missing(path, opened) is None
    assert sessions_missing(path, opened + 1).startswith(f"only {opened:,} of {opened + 1:,} sessions opened")


def test_a_point_outside_its_ranges_is_named_and_one_inside_passes():
    assert point_error(19000, 5, 15) is None
    assert point_error(19001, 5, 15).startswith("--connections must be 1..19000")
    assert point_error(50, 0, 15) == "--rate must be > 0 messages/s"
    assert point_error(50, 10, 4.9) == "--seconds must be 5..120"
