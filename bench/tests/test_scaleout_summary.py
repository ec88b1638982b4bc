"""The scale-out summary's arithmetic on small documents: throughput per level, efficiency against one
worker, relay cost per flush (medians over repetitions), throttling share, and its Markdown."""

import pytest

from scaleout_summary import relay_row, summarize, to_markdown


def _level(n, received_per_s, spread=None, points_per_rep=None):
    """A merged level: saturation (median) and one run per repetition with its points (sent, received)."""
    sat = {"received_per_s": received_per_s, "target_rate": 1.0, "sent_per_s": 1.0, "rtt_mean_ms": 1.0,
           "client_bound": False}
    if spread:
        sat["spread"] = {"min": spread[0], "median": received_per_s, "max": spread[1]}
    runs = [{"repetition": rep, "points": [{"sent": s, "received": r} for s, r in pts]}
            for rep, pts in sorted((points_per_rep or {1: [(1, 1)]}).items())]
    return {"concurrency": n, "saturation": sat, "runs": runs, "points": runs[0]["points"]}


def _groups(workers, periods, throttled):
    return {"path": "/x", "run_quota_us": 25_000 * workers,
            "groups": [{"group": f"worker-{i}", "quota_us": 25_000, "period_us": 100_000, "pids": [10 + i],
                        "nr_periods": periods, "nr_throttled": throttled, "throttled_s": 0.1}
                       for i in range(workers)]
                      + [{"group": "supervisor", "quota_us": None, "period_us": 100_000, "pids": [9],
                          "nr_periods": 1000, "nr_throttled": 0, "throttled_s": 0.0}]}


def _doc(levels, runs):
    return {"levels": levels, "runs": runs}


ONE = _doc([_level(100, 10_000.0, points_per_rep={1: [(1_000, 100_000)], 2: [(1_000, 100_000)]}),
            _level(1000, 8_000.0, points_per_rep={1: [(100, 100_000)], 2: [(100, 100_000)]})],
           # 2 s of CPU for 200,000 received copies = 10 us per message.
           [{"repetition": 1, "server_cpu_s": 2.0}, {"repetition": 2, "server_cpu_s": 2.0}])

TWO = _doc([_level(100, 18_000.0, spread=(17_000.0, 19_000.0),
                   points_per_rep={1: [(2_000, 200_000)], 2: [(2_000, 200_000)]}),
            _level(1000, 12_000.0, points_per_rep={1: [(200, 200_000)], 2: [(200, 200_000)]})],
           # 5 s for 400,000 copies = 12.5 us per message: 2.5 us per copy more than alone, over
           # 1,000 flushes = 1,000 us of relay work per flush (server side).
           [{"repetition": r, "server_cpu_s": 5.0, "broker": {"cpu_s": 0.05},
             "relay": {"publishes": 1_000, "redis_publish_usec": 8_000},
             "cpu_quota": _groups(2, periods=200, throttled=50)} for r in (1, 2)])


def test_efficiency_is_throughput_over_k_times_one_worker_per_level():
    s = summarize({1: ONE, 2: TWO}, {"server": "x"})
    rows = {lv["concurrency"]: {r["workers"]: r for r in lv["rows"]} for lv in s["levels"]}
    assert rows[100][1]["efficiency"] == 1.0
    assert rows[100][2]["efficiency"] == pytest.approx(18_000 / (2 * 10_000))
    assert rows[1000][2]["efficiency"] == pytest.approx(12_000 / 16_000)
    assert (rows[100][2]["min"], rows[100][2]["max"]) == (17_000.0, 19_000.0)


def test_relay_cost_per_flush_from_publishes_and_cpu():
    one = relay_row(1, ONE, None)
    assert one["server_cpu_us_per_msg"] == pytest.approx(10.0)
    assert one["publishes"] is None and one["relay_cpu_us_per_flush"] is None
    two = relay_row(2, TWO, one["server_cpu_us_per_msg"])
    assert two["server_cpu_us_per_msg"] == pytest.approx(12.5)
    assert two["relay_cpu_us_per_flush"] == pytest.approx(1_000.0)
    assert two["redis_us_per_flush"] == pytest.approx(8.0)
    assert two["broker_cpu_us_per_flush"] == pytest.approx(50.0)
    assert two["messages_per_flush"] == pytest.approx(2.2)
    assert two["throttled_pct"] == pytest.approx(25.0)


def test_without_a_one_worker_run_there_is_no_efficiency_and_no_derived_relay_cost():
    s = summarize({2: TWO}, {"server": "x"})
    assert all(r["efficiency"] is None for lv in s["levels"] for r in lv["rows"])
    assert s["relay"][0]["relay_cpu_us_per_flush"] is None
    assert s["relay"][0]["redis_us_per_flush"] == pytest.approx(8.0)


def test_markdown_has_every_level_and_worker_count():
    settings = {"server": "pypy-fast", "core_share": 0.25, "period_us": 100_000, "quota_us": 25_000,
                "cgroup_version": 1, "command": "make bench-scaleout", "files": {"1": "a.json", "2": "b.json"}}
    text = to_markdown(summarize({1: ONE, 2: TWO}, settings))
    assert "| 100 | 10,000 | 18,000 [17,000-19,000] (eff. 0.90) |" in text
    assert "| 1000 | 8,000 | 12,000 (eff. 0.75) |" in text
    assert "| 2 | 1,000 | 2.2 | 8.0 | 50.0 | 12.500 | 1000.0 | 25.0 |" in text


def test_a_negative_derived_relay_cost_is_shown_as_not_resolved():
    cheaper = _doc(TWO["levels"], [dict(r, server_cpu_s=3.0) for r in TWO["runs"]])  # 7.5 us/msg < 10 alone
    settings = {"server": "x", "core_share": 0.25, "period_us": 100_000, "quota_us": 25_000,
                "cgroup_version": 1, "command": "c", "files": {}}
    summary = summarize({1: ONE, 2: cheaper}, settings)
    assert summary["relay"][1]["relay_cpu_us_per_flush"] == pytest.approx(-1_000.0)
    assert "not resolved (-1000.0)" in to_markdown(summary)
