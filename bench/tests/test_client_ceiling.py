"""The client-ceiling cap: which self-test a run needs, how its table becomes each level's
ceiling and the client's flag, what a result records, and what it costs in the estimate."""

import copy
import glob
import json
import os
import sys

import pytest

import client_ceiling
from client_ceiling import COALESCED_MESSAGES_PER_FRAME, NAIVE_MESSAGES_PER_FRAME
from estimate import PRIOR_CEILING_PER_S, ceiling_measure_s, points_per_level, prior_run_s
from matrix import level_start_rates
from results_io import schema_errors
from bench_cli import parse_args
from sockbench_contract.server_launch import StepError
from factories import doc, level, profile, saturation

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

# What `firehose` prints on stdout (client-java cli/FirehoseCommand.java), two frame sizes.
TABLE = """\
| connections | msgs/frame | connected | msgs/s received | client CPU % | sender CPU % | client RSS MiB | parse errors | wire bytes/msg | KiB/read |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| 25 | 1 | 25 | 18,822,311 | 100 | 33 | 62 | 0 | 71.0 | 255.3 |
| 1000 | 1 | 1000 | 21,319,923 | 100 | NaN | 84 | 0 | 71.0 | 241.8 |
| 25 | 100 | 25 | 24,988,450 | 99 | 50 | 101 | 0 | 67.1 | 250.5 |
| 1000 | 100 | 1000 | 33,512,540 | 100 | 59 | 129 | 0 | 67.1 | 243.8 |
"""


def measurement():
    return {"measured_at": "2026-11-26T02:20:00Z", "command": "taskset -c 1 java -jar x.jar firehose",
            "window_s": 3.0, "settle_s": 1.0, "wall_s": 41.5, "rows": client_ceiling.parse_table(TABLE)}


def test_a_naive_or_unknown_server_is_capped_by_one_message_per_frame_a_fast_one_by_the_coalesced_size():
    assert client_ceiling.frames_for("naive") == NAIVE_MESSAGES_PER_FRAME == 1
    assert client_ceiling.frames_for(None) == 1
    assert client_ceiling.frames_for("fast") == COALESCED_MESSAGES_PER_FRAME == 100


def test_the_run_measures_every_level_once_for_each_frame_size_its_servers_need():
    assert client_ceiling.what_to_measure([100, 25, 100], ["fast", "naive", "fast"]) == ((25, 100), (1, 100))
    assert client_ceiling.what_to_measure([25], ["naive"]) == ((25,), (1,))


def test_the_table_is_read_by_its_column_names():
    rows = client_ceiling.parse_table("firehose: done\n" + TABLE)
    assert len(rows) == 4
    assert rows[0] == {"connections": 25, "messages_per_frame": 1, "connected": 25, "received_per_s": 18_822_311.0,
                       "client_cpu_pct": 100.0, "sender_cpu_pct": 33.0}
    assert rows[1]["sender_cpu_pct"] is None, "NaN: the sender's CPU was not known"
    with pytest.raises(ValueError, match="no table"):
        client_ceiling.parse_table("nothing\n")
    with pytest.raises(ValueError, match="no column"):
        client_ceiling.parse_table("| connections | x |\n|---|---|\n| 1 | 2 |\n")


def test_each_level_gets_the_row_of_its_connections_and_its_servers_frame_size():
    fast = client_ceiling.record_for(measurement(), "fast")
    naive = client_ceiling.record_for(measurement(), "naive")
    assert fast["messages_per_frame"] == 100 and naive["messages_per_frame"] == 1
    assert client_ceiling.ceilings(fast, [25, 1000]) == {25: 24_988_450.0, 1000: 33_512_540.0}
    assert client_ceiling.ceilings(naive, [25, 1000]) == {25: 18_822_311.0, 1000: 21_319_923.0}
    # A level without a row keeps the profile's max_rate: it is simply not listed.
    assert client_ceiling.ceilings(naive, [25, 500]) == {25: 18_822_311.0}
    assert client_ceiling.client_args(naive, [25, 1000]) == ["--client-ceilings", "25:18822311,1000:21319923"]
    assert client_ceiling.client_args(naive, [500]) == []


def test_the_self_test_runs_pinned_as_the_sweep_sender_on_the_server_cpus():
    config = parse_args(["--server", "pypy", "--client-cpu", "1", "--server-cpu", "0",
                         "--client-args", "--payload-bytes 128"])
    cmd = client_ceiling.firehose_command(["taskset", "-c", "1", "java", "-jar", "x.jar"], config, (25, 100), (1, 100))
    assert cmd[:6] == ["taskset", "-c", "1", "java", "-jar", "x.jar"]
    assert cmd[6] == "firehose"
    flags = dict(zip(cmd[7::2], cmd[8::2]))
    assert flags == {"--connections": "25,100", "--messages-per-frame": "1,100", "--duration": "3",
                     "--settle": "1", "--sender-cpus": "0", "--payload-bytes": "128"}


def test_the_ceiling_is_not_measured_when_it_could_not_cap_anything():
    features = {"level-start-rates", "client-ceilings"}
    plain = parse_args(["--server", "pypy", "--client-cpu", "1"])
    assert client_ceiling.why_not_measured(plain, features) is None
    assert "predates" in client_ceiling.why_not_measured(plain, {"level-start-rates"})
    explicit = parse_args(["--server", "pypy", "--client-cpu", "1", "--client-args", "--max-rate 5000"])
    assert "--max-rate" in client_ceiling.why_not_measured(explicit, features)
    fleet = parse_args(["--server", "pypy", "--client-cpu", "1", "--agents", "2"])
    assert "AGENTS" in client_ceiling.why_not_measured(fleet, features)
    smoke = parse_args(["--server", "pypy", "--client-cpu", "1", "--profile", "smoke"])
    assert "smoke" in client_ceiling.why_not_measured(smoke, features), "CI's few-second sweep keeps its bound"


def _print_command(text, status=0):
    """A real process that prints `text` and exits with `status` (the runner only reads its stdout)."""
    return [sys.executable, "-c", f"import sys; sys.stdout.write({text!r}); sys.exit({status})"]


def test_a_measurement_records_its_command_time_cost_and_table():
    logged = []
    record = client_ceiling.measure(_print_command(TABLE), log=logged.append)
    assert record["rows"] == client_ceiling.parse_table(TABLE)
    assert record["command"].startswith(sys.executable.split("/")[-1]) or sys.executable in record["command"]
    assert record["window_s"] == client_ceiling.WINDOW_S and record["settle_s"] == client_ceiling.SETTLE_S
    assert record["wall_s"] >= 0 and record["measured_at"].endswith("Z")
    assert any("18,822,311 msgs/s received" in line for line in logged)


def test_a_failed_self_test_stops_the_run_naming_its_step():
    with pytest.raises(StepError, match="status 3"):
        client_ceiling.measure(_print_command("oops", status=3), log=lambda _: None)
    with pytest.raises(StepError, match="no table"):
        client_ceiling.measure(_print_command("no table here\n"), log=lambda _: None)


def _reference_doc():
    path = sorted(glob.glob(os.path.join(ROOT, "results", "reference", "*.json")))[0]
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def test_a_result_with_the_ceiling_record_and_a_client_ceiling_level_keeps_the_schema():
    d = _reference_doc()
    assert schema_errors(d) == []
    d["client_ceiling"] = client_ceiling.record_for(measurement(), "fast")
    d["levels"][0]["client_ceiling_per_s"] = 24_988_450.0
    d["levels"][0]["end_reason"] = "client_ceiling"
    d["levels"][1]["client_ceiling_per_s"] = None
    assert schema_errors(d) == []
    for breakage in (lambda x: x["client_ceiling"].update(messages_per_frame=0),
                     lambda x: x["client_ceiling"].pop("rows"),
                     lambda x: x["client_ceiling"]["rows"][0].update(received_per_s=-1),
                     lambda x: x["levels"][0].update(client_ceiling_per_s=0),
                     lambda x: x["levels"][0].update(end_reason="client_roof")):
        broken = copy.deepcopy(d)
        breakage(broken)
        assert schema_errors(broken), "the schema must refuse it"


def test_later_repetitions_may_start_above_max_rate_up_to_the_levels_ceiling():
    p = profile("standard", later_repetition_start_fraction=0.5)
    lv = level(25, sat_received=10_000_000.0, rate=400_000.0)
    lv["saturation"] = saturation(400_000.0, 10_000_000.0)
    lv["client_ceiling_per_s"] = 20_000_000.0      # cap 800,000 sent/s at 25
    plain = level(100, sat_received=8_000_000.0, rate=300_000.0)
    plain["saturation"] = saturation(300_000.0, 8_000_000.0)
    rates = level_start_rates(doc([lv, plain]), p)
    assert rates[25] == 200_000.0, "half the saturation rate, above max_rate 100,000 but under the ceiling"
    assert rates[100] == 100_000.0, "no ceiling: max_rate still bounds it"


def test_the_self_test_cost_is_its_rows_and_jvm_starts():
    one = ceiling_measure_s((25,), (1,), window_s=3, settle_s=1)
    assert one == pytest.approx(2.0 + 2.0 + 1 + 3 + 0.002 * 25 + 0.55)
    both = ceiling_measure_s((25, 50, 100, 200, 500, 1000, 2000), (1, 100), window_s=3, settle_s=1)
    # standard's 7 levels (3,875 connections in all) at both frame sizes: 2 + 2 x (2 + 7 x 4.55 + 7.75) s,
    # about a minute and a half, once per run.
    assert both == pytest.approx(85.2)
    assert ceiling_measure_s((), (1,), 3, 1) == 0


def test_a_ceiling_lets_the_prior_climb_past_the_profiles_max_rate():
    p = profile("standard", rate_factor=2.0, confirm=True, refine_steps=4, next_level_start_fraction=0.25)
    # 10 -> 81,920 is 14 grid points; up to 18 M / 25 = 720,000 it is 17: the knee half-way up moves by 1-2 points.
    assert points_per_level(p, 25) == 8 + 5
    assert points_per_level(p, 25, ceiling_per_s=PRIOR_CEILING_PER_S) == 10 + 5
    assert prior_run_s(p, ceiling_per_s=PRIOR_CEILING_PER_S) > prior_run_s(p)


def test_the_clients_own_firehose_table_is_read_into_ceilings():
    """The real jar's self-test (a JVM and its sender, a few seconds): what the runner parses is what it prints."""
    from bench_cli import DEFAULT_JAR
    from measure import java_command
    config = parse_args(["--server", "pypy-naive", "--client-cpu", "0", "--server-cpu", "0", "--client-jar", DEFAULT_JAR])
    cmd = client_ceiling.firehose_command(java_command(config), config, (2, 3), (1,), window_s=0.5, settle_s=0.2)
    record = client_ceiling.record_for(client_ceiling.measure(cmd, window_s=0.5, settle_s=0.2, log=lambda _: None),
                                       "naive")
    assert [(r["connections"], r["messages_per_frame"]) for r in record["rows"]] == [(2, 1), (3, 1)]
    assert all(r["connected"] == r["connections"] and r["received_per_s"] > 0 for r in record["rows"])
    found = client_ceiling.ceilings(record, [2, 3])
    assert sorted(found) == [2, 3]
    d = _reference_doc()
    d["client_ceiling"] = record
    assert schema_errors(d) == []
