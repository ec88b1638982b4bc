"""The fairness rule on saturation figures: the server's limit only when the server was >= 95 % busy,
the client was not client-bound and the level really overloaded the server."""

from floors import NOT_SAMPLED_NOTE, SERVER_BUSY_PCT, level_floor_reasons, repetition_floor_reasons, server_sampled


def rep(cpu=99.0, client_bound=False, end="saturated", sat=True):
    figure = {"received_per_s": 1000.0, "client_bound": client_bound, "server_cpu_pct": cpu} if sat else None
    return {"saturation": figure, "end_reason": end}


def test_a_busy_server_with_a_free_client_is_the_servers_limit():
    assert repetition_floor_reasons(rep(cpu=SERVER_BUSY_PCT)) == []
    assert repetition_floor_reasons(rep(cpu=100.4, end="overloaded")) == []


def test_no_figure_is_nothing_to_mark():
    assert repetition_floor_reasons(rep(sat=False)) == []


def test_each_reason_is_named():
    assert repetition_floor_reasons(rep(client_bound=True)) == ["client-bound"]
    assert repetition_floor_reasons(rep(cpu=None)) == ["server CPU not measured"]
    assert repetition_floor_reasons(rep(cpu=94.6)) == ["server 94 % busy (< 95 %)"]   # rounded down: never "95 % (< 95 %)"
    assert repetition_floor_reasons(rep(cpu=80.2)) == ["server 80 % busy (< 95 %)"]
    assert repetition_floor_reasons(rep(end="max_rate")) == ["max rate reached (never overloaded)"]
    assert repetition_floor_reasons(rep(end="aborted")) == ["level ended: aborted"]
    assert repetition_floor_reasons(rep(cpu=70, client_bound=True, end="max_rate")) == [
        "client-bound", "server 70 % busy (< 95 %)", "max rate reached (never overloaded)"]


def test_a_single_run_level_is_its_own_repetition():
    assert level_floor_reasons(rep(cpu=90)) == ["server 90 % busy (< 95 %)"]
    assert level_floor_reasons(rep()) == []


def test_one_floor_among_the_repetitions_marks_the_level_with_how_many():
    level = {"runs": [rep(), rep(client_bound=True), rep()]}
    assert level_floor_reasons(level) == ["client-bound in 1 of 3"]
    level = {"runs": [rep(cpu=93), rep(cpu=81, end="max_rate"), rep(cpu=99)]}
    assert level_floor_reasons(level) == ["server 81–93 % busy (< 95 %) in 2 of 3",
                                          "max rate reached (never overloaded) in 1 of 3"]
    assert level_floor_reasons({"runs": [rep(), rep(), rep()]}) == []


def test_a_version_1_file_takes_the_cpu_of_the_point_its_figure_came_from():
    level = rep(cpu=None)
    level["points"] = [{"state": "ok", "received_per_s": 900.0, "server_cpu_pct": 40.0},
                       {"state": "ok", "received_per_s": 1000.0, "server_cpu_pct": 87.9},
                       {"state": "saturated", "received_per_s": 1000.0, "server_cpu_pct": 99.0}]
    assert repetition_floor_reasons(level) == ["server 87 % busy (< 95 %)"]
    level["points"][1]["server_cpu_pct"] = 99.0
    assert repetition_floor_reasons(level) == []
    level["points"] = []
    assert repetition_floor_reasons(level) == ["server CPU not measured"]


def test_a_server_not_sampled_is_judged_from_the_clients_side_alone():
    """bench-url without SERVER_PID: no server CPU at all, so "not measured" would mark every level;
    the client's side (client-bound, how the level ended) still decides, and the note says so once."""
    assert server_sampled({"server": {"pid": 4242}}) and not server_sampled({"server": {"pid": None}})
    assert level_floor_reasons(rep(cpu=None), server_sampled=False) == []
    assert level_floor_reasons(rep(cpu=None, client_bound=True, end="max_rate"), server_sampled=False) == [
        "client-bound", "max rate reached (never overloaded)"]
    level = {"runs": [rep(cpu=None), rep(cpu=None, client_bound=True)]}
    assert level_floor_reasons(level, server_sampled=False) == ["client-bound in 1 of 2"]
    assert level_floor_reasons(level) == ["client-bound in 1 of 2", "server CPU not measured in 2 of 2"]
    assert "judged from the client's side alone" in NOT_SAMPLED_NOTE
