"""make compare on sessions runs: the fan-out saturation ranked per level by the throughput rule (a
difference only where the min-max ranges do not overlap, a floor below never ranked), within one mode
and one churn setting, a level with no ok point named; never mixed into the throughput matrix or verdict."""

import json

import pytest

from compare import compare_table, main, matrix_table
from compare_sessions import fanout_ranking, is_sessions_run
from factories import doc, level
from merge import merge_repetitions


def sessions_run(values_by_level, mode="fast", churn=None, label="x", client_bound=False):
    """A sessions run merged over repetitions: {sessions: [copies/s per repetition, None = no ok point]}."""
    reps = []
    for i in range(len(next(iter(values_by_level.values())))):
        d = doc([level(n, values[i], client_bound=client_bound) for n, values in values_by_level.items()], mode=mode)
        d["parameters"].update(profile="sessions", all_copies=True, verdict="all_copies_p99")
        if churn is not None:
            d["parameters"]["churn_pct"] = churn
        d["label"] = label
        d["server"]["entry"] = label
        reps.append(d)
    return merge_repetitions(reps)


def ranking_row(lines, sessions):
    return [ln for ln in lines if ln.startswith(f"| {sessions:,} |")]


def test_ranked_high_to_low_a_difference_only_where_the_ranges_do_not_overlap():
    runs = [sessions_run({5000: [100e3, 110e3, 90e3]}, label="a"), sessions_run({5000: [300e3, 310e3, 290e3]}, label="b"),
            sessions_run({5000: [105e3, 120e3, 95e3]}, label="c")]
    (row,) = ranking_row(fanout_ranking(runs), 5000)
    assert "| b 300 k (290 k–310 k) > c 105 k (95 k–120 k) ≈ a 100 k (90 k–110 k) | — |" in row


def test_a_floor_below_is_not_ranked_and_single_runs_are_not_either():
    floor = sessions_run({5000: [100e3, 110e3, 90e3]}, label="low", client_bound=True)
    high = sessions_run({5000: [300e3, 310e3, 290e3]}, label="high")
    (row,) = ranking_row(fanout_ranking([floor, high]), 5000)
    assert "high 300 k (290 k–310 k) ? low ≥ 100 k (90 k–110 k) †" in row
    singles = [sessions_run({5000: [100e3]}, label="s1"), sessions_run({5000: [300e3]}, label="s2")]
    (row,) = ranking_row(fanout_ranking(singles), 5000)
    assert "s2 300 k (single run) ? s1 100 k (single run)" in row


def test_a_level_with_no_ok_point_is_named_not_ranked():
    runs = [sessions_run({1000: [4e6, 4.2e6, 3.9e6], 19000: [None, None, None]}, label="p"),
            sessions_run({1000: [3e6, 3.1e6, 2.9e6], 19000: [90e3, 95e3, 85e3]}, label="q")]
    lines = fanout_ranking(runs)
    (row,) = ranking_row(lines, 19000)
    assert row == "| 19,000 | q 90 k (85 k–95 k) | p |"
    (row,) = ranking_row(lines, 1000)
    assert "p 4 M (3.9 M–4.2 M) > q 3 M (2.9 M–3.1 M)" in row


def test_modes_and_churn_settings_are_ranked_apart():
    runs = [sessions_run({5000: [100e3, 110e3, 90e3]}, label="fast"), sessions_run({5000: [50e3, 55e3, 45e3]}, mode="naive", label="naive"),
            sessions_run({5000: [30e3, 33e3, 27e3]}, churn=5, label="fast")]
    lines = fanout_ranking(runs)
    heads = [ln for ln in lines if ln.startswith("Mode ")]
    assert heads == ["Mode fast (coalesced):", "Mode naive (one frame per message):", "Mode fast (coalesced), churn 5 %:"]
    rows = ranking_row(lines, 5000)
    assert [r.count(" k (") for r in rows] == [1, 1, 1], "each group ranks its own run alone"


def test_the_throughput_matrix_leaves_sessions_runs_to_the_fanout_ranking():
    plain = merge_repetitions([doc([level(25, v)]) for v in (100, 110, 90)])
    plain["label"] = "sockjs-tornado-cpython"
    session = sessions_run({5000: [100e3, 110e3, 90e3]}, label="s")
    assert is_sessions_run(session) and not is_sessions_run(plain)
    table = matrix_table([("plain.json", plain), ("s.json", session)], "sockjs-tornado-cpython")
    matrix, ranking = table.split("Fan-out saturation per level", 1)
    assert "| s |" not in matrix and "5000" not in matrix.splitlines()[2]
    assert "| 5,000 | s 100 k (90 k–110 k) | — |" in ranking
    alone = matrix_table([("s.json", session)])
    assert alone.startswith("Fan-out saturation per level") and "Saturation throughput" not in alone


def test_two_sessions_files_compare_fanout_figures_and_a_plain_file_is_refused():
    a = sessions_run({5000: [100e3, 110e3, 90e3], 19000: [None, None, None]}, label="a")
    b = sessions_run({5000: [300e3, 310e3, 290e3], 19000: [None, None, None]}, label="b", churn=5)
    table = compare_table(a, b)
    assert "| 5,000 | 100 k (90 k–110 k) | 300 k (290 k–310 k) | 3.00 | B higher |" in table
    assert "| 19,000 | no ok point | no ok point | — | — |" in table
    assert "Different churn: A 0 %, B 5 %" in table
    plain = doc([level(25, 100.0)])
    with pytest.raises(ValueError, match="sessions run"):
        compare_table(a, plain)


def test_main_on_a_folder_of_sessions_runs_prints_the_ranking_without_a_throughput_verdict(tmp_path, capsys):
    for name, values in (("a", [100e3, 110e3, 90e3]), ("b", [300e3, 310e3, 290e3])):
        (tmp_path / f"{name}.json").write_text(json.dumps(sessions_run({5000: values}, label=name)))
    assert main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Fan-out saturation per level")
    assert "| 5,000 | b 300 k (290 k–310 k) > a 100 k (90 k–110 k) | — |" in out


def test_a_server_without_a_mode_is_ranked_with_the_one_frame_per_message_servers():
    # The peers (sockjs-tornado, sockjs-go) have no mode and write one frame per message, as naive does.
    peer = sessions_run({5000: [12e3, 13e3, 12.5e3]}, mode=None, label="sockjs-tornado-pypy")
    naive = sessions_run({5000: [80e3, 82e3, 84e3]}, mode="naive", label="pypy-naive")
    lines = fanout_ranking([peer, naive])
    heads = [ln for ln in lines if ln.startswith("Mode ")]
    assert heads == ["Mode naive (one frame per message) and the servers without a mode (the same algorithm):"]
    (row,) = ranking_row(lines, 5000)
    assert "pypy-naive 82 k (80 k–84 k) > sockjs-tornado-pypy 12.5 k (12 k–13 k)" in row
