"""Merging repetitions: the median repetition, its spread, and nothing measured lost."""

import pytest

from factories import doc, level
from merge import median_index, merge_repetitions, spread


def test_median_of_odd_count_is_the_middle_value():
    assert median_index([30, 10, 20]) == 2


def test_median_of_even_count_is_the_lower_middle_value_not_an_average():
    assert median_index([40, 10, 30, 20]) == 3     # values sorted: 10 20 30 40 -> 20
    assert spread([40, 10, 30, 20]) == {"min": 10, "median": 20, "max": 40}


def test_a_repetition_without_a_figure_ranks_lowest_and_is_left_out_of_the_spread():
    assert median_index([None, 50, 70]) == 1
    assert spread([None, 50, 70]) == {"min": 50, "median": 50, "max": 70}
    assert spread([None, None]) is None


def three_reps():
    return [doc([level(25, 300.0, rate=12), level(100, 900.0)], started="2026-11-24T01:00:00Z", duration=50),
            doc([level(25, 100.0, rate=4), level(100, 1000.0)], started="2026-11-24T01:05:00Z", duration=60,
                warnings=["CLIENT-BOUND points present"]),
            doc([level(25, 200.0, rate=8), level(100, 800.0)], started="2026-11-24T01:10:00Z",
                finished="2026-11-24T01:11:00Z", duration=70)]


def test_level_headline_is_the_median_repetition_with_the_spread_of_all():
    merged = merge_repetitions(three_reps())
    lv25, lv100 = merged["levels"]
    assert lv25["repetitions"] == 3
    assert lv25["saturation"]["received_per_s"] == 200.0
    assert lv25["saturation"]["target_rate"] == 8        # the whole object is the median repetition's
    assert lv25["saturation"]["spread"] == {"min": 100.0, "median": 200.0, "max": 300.0}
    assert lv25["median_repetition"] == 3
    assert lv25["points"] == three_reps()[2]["levels"][0]["points"]
    assert lv100["saturation"]["spread"] == {"min": 800.0, "median": 900.0, "max": 1000.0}
    assert lv100["median_repetition"] == 1


def test_every_repetition_is_kept_verbatim_in_order():
    reps = three_reps()
    merged = merge_repetitions(reps, [{"steal_pct": 0.1}, {"steal_pct": 0.2}, {"steal_pct": 0.3}])
    runs = merged["levels"][0]["runs"]
    assert [r["repetition"] for r in runs] == [1, 2, 3]
    for r, rep in zip(runs, reps):
        assert {k: v for k, v in r.items() if k != "repetition"} == rep["levels"][0]
    assert [r["steal_pct"] for r in merged["runs"]] == [0.1, 0.2, 0.3]
    assert [r["repetition"] for r in merged["runs"]] == [1, 2, 3]


def test_times_and_warnings_cover_all_repetitions():
    merged = merge_repetitions(three_reps())
    assert merged["started_at"] == "2026-11-24T01:00:00Z"
    assert merged["finished_at"] == "2026-11-24T01:11:00Z"
    assert merged["duration_s"] == 180
    assert merged["warnings"] == ["repetition 2: CLIENT-BOUND points present"]


def test_strict_saturation_gets_its_own_median_and_spread():
    reps = [doc([level(25, 300.0, strict_received=250.0)]), doc([level(25, 100.0, strict_received=None)]),
            doc([level(25, 200.0, strict_received=150.0)])]
    lv = merge_repetitions(reps)["levels"][0]
    assert lv["saturation"]["received_per_s"] == 200.0
    assert lv["saturation_strict"]["received_per_s"] == 150.0
    assert lv["saturation_strict"]["spread"] == {"min": 150.0, "median": 150.0, "max": 250.0}


def test_no_strict_field_in_when_the_repetitions_had_none():
    assert "saturation_strict" not in merge_repetitions(three_reps())["levels"][0]


def test_median_repetition_without_ok_point_gives_null_saturation():
    reps = [doc([level(25, None)]), doc([level(25, None)]), doc([level(25, 500.0)])]
    lv = merge_repetitions(reps)["levels"][0]
    assert lv["saturation"] is None
    assert lv["repetitions"] == 3


def test_missing_figure_in_one_repetition_is_a_warning():
    reps = [doc([level(25, None)]), doc([level(25, 400.0)]), doc([level(25, 500.0)])]
    merged = merge_repetitions(reps)
    assert merged["levels"][0]["saturation"]["spread"] == {"min": 400.0, "median": 400.0, "max": 500.0}
    assert any("repetition(s) 1 had no ok point" in w for w in merged["warnings"])


def test_a_single_repetition_has_no_spread():
    lv = merge_repetitions([doc([level(25, 300.0)])])["levels"][0]
    assert lv["repetitions"] == 1
    assert "spread" not in lv["saturation"]


def test_repetitions_of_different_servers_are_refused():
    with pytest.raises(ValueError, match="server: mode"):
        merge_repetitions([doc([level(25, 1.0)]), doc([level(25, 1.0)], mode="naive")])


def test_host_records_must_match_the_repetitions():
    with pytest.raises(ValueError, match="2 host records for 3"):
        merge_repetitions(three_reps(), [{}, {}])


def test_the_sessions_level_fields_are_the_median_repetitions_like_the_rest():
    from group_merge import merge_group_docs
    from results_io import schema_errors
    from sessions import LevelGroup
    from sessions_docs import client_doc, sessions_level

    reps = []
    for received, per_session in ((400.0, 9000.0), (500.0, 9500.0), (300.0, 8000.0)):
        rep = client_doc([2000])
        rep["levels"][0]["saturation"]["received_per_s"] = received
        rep["levels"][0] = sessions_level(rep["levels"][0], server_bytes_per_session=per_session)
        reps.append(merge_group_docs([LevelGroup((2000,), 3, 3)], [rep]))
    lv = merge_repetitions(reps)["levels"][0]
    assert lv["median_repetition"] == 1 and lv["saturation"]["received_per_s"] == 400.0
    assert (lv["workers"], lv["agents"]) == (3, 3)
    assert lv["idle"]["server_bytes_per_session"] == 9000.0
    assert lv["fanout_saturation"]["copies_per_s"] == 400.0
    assert [run["idle"]["server_bytes_per_session"] for run in lv["runs"]] == [9000.0, 9500.0, 8000.0]
    assert schema_errors(merge_repetitions(reps)) == []
