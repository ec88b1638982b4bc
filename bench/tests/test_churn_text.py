"""A churn run in the text the runner and `make compare` print: per level the connects/s served at the fan-out
saturation point against those asked, the reconnect p99 there, the level's churn failures; a churn run named
as one, a plain sessions run printed as before."""

import copy

import churn_text
from compare import compare_table
from results_io import schema_errors
from run_summary import summarize
from sessions_text import level_line, sessions_table

#: Three points of a 200-session level: the fan-out saturation is the 5 msgs/s point.
RATES = ((1.0, "ok", 400.0), (5.0, "ok", 2000.0), (11.2, "saturated", 4400.0))


def _latency(p99):
    return {"count": 400, "mean": p99 / 3, "stddev": p99 / 6, "min": 0.3, "p50": p99 / 4, "p90": p99 / 2,
            "p99": p99, "p999": p99, "max": p99}


def _point(rate, state, received_per_s, churn):
    point = {"target_rate": rate, "duration_s": 2.0, "sent": int(rate * 2), "sent_per_s": rate,
             "received": int(received_per_s * 2), "received_per_s": received_per_s,
             "expected_received": int(received_per_s * 2), "lost": 0, "connection_errors": 0,
             "rtt_ms": _latency(30.0), "rtt_uncorrected_ms": _latency(29.0), "client_cpu_pct": 20.0,
             "server_cpu_pct": 97.0 if state == "saturated" else 60.0, "server_rss_bytes": 80_000_000,
             "state": state, "client_bound": False, "client_bound_reasons": [],
             "fanout_ms": _latency(250.0 if state == "saturated" else 90.0),
             "completion_ms": {"count": int(rate * 2), "incomplete": 0, "p50": 50.0, "p90": 80.0, "p99": 95.0,
                               "max": 99.0}}
    if churn is not None:
        point["churn"] = churn
    return point


def _churn(served, failures=None, p99=42.5):
    reconnects = int(served * 2)
    return {"pool": 10, "closes": 20, "reconnects": reconnects, "connects_per_s": served,
            "failures": failures or {},
            "reconnect_ms": {"count": reconnects, "p50": 12.0, "p90": 30.0, "p99": p99, "max": p99 + 5}}


def churn_run(churns=(_churn(9.5), _churn(9.8), _churn(7.0, {"timeout": 3, "handshake: HTTP 503": 1})),
              pct=5.0):
    """A small v5 document as the client writes a churn run of one 200-session level (runner fields added:
    server.entry), its points' churn objects `churns` in RATES order (None: a point without churn)."""
    points = [_point(rate, state, received, churn) for (rate, state, received), churn in zip(RATES, churns)]
    saturation = {"target_rate": 5.0, "received_per_s": 2000.0, "sent_per_s": 5.0, "rtt_mean_ms": 30.0,
                  "client_bound": False, "server_cpu_pct": 98.0, "client_cpu_pct": 20.0}
    level = {"concurrency": 200, "connected": 200, "connect_errors": 0, "connect_s": 0.2, "points": points,
             "saturation": saturation, "end_reason": "saturated",
             "connect": {"rate_per_s": 2000.0, "achieved_per_s": 1000.0, "failures": {}},
             "idle": {"hold_s": 2.0, "connections_lost": 0, "heartbeats": 0, "server_cpu_pct": 0.5,
                      "server_rss_bytes": 80_000_000, "server_rss_baseline_bytes": 78_000_000,
                      "server_bytes_per_session": 10_000.0, "client_rss_bytes": 300_000_000,
                      "client_rss_baseline_bytes": 299_000_000, "client_bytes_per_session": 5_000.0},
             "fanout_saturation": {"copies_per_s": 2000.0, "target_rate": 5.0, "p99_ms": 90.0},
             "workers": 1, "agents": 1}
    parameters = {"profile": "sessions", "levels": [200], "ramp": "geometric", "rate_factor": 2.236,
                  "rate_step": None, "start_rate": 1, "step_s": 2, "settle_s": 0.5, "warmup_s": 0.5,
                  "max_rate": 100000, "ok_mean_ms": 200, "overload_mean_ms": 1500, "overload_timeout_ms": 5000,
                  "connect_timeout_s": 10, "client_bound_rate_ratio": 0.95, "client_bound_cpu_ratio": 0.9,
                  "payload_bytes": 64, "all_copies": True, "verdict": "all_copies_p99", "idle_hold_s": 2,
                  "connect_rate_per_s": 2000}
    if pct:
        parameters["churn_pct"] = pct
    return {
        "schema": "sockbench.result/5", "run_id": "20261126T100000Z-sockbench-tornado-cpython-json-fast",
        "label": "sockbench-tornado · cpython 3.11.7 · json · fast", "started_at": "2026-11-26T10:00:00Z",
        "finished_at": "2026-11-26T10:01:00Z", "duration_s": 60.0,
        "machine": {"hostname": "vm", "cpu_model": "AMD EPYC", "cores": 2, "kernel": "6.1", "memory_bytes": 2 ** 34,
                    "os": "Debian GNU/Linux 12 (bookworm)"},
        "client": {"name": "sockbench-client-java", "version": "1.2.0", "jvm_version": "17.0.15",
                   "jvm_vendor": "Debian", "transport": "sockjs", "cpus": [1], "io_threads": 1},
        "server": {"name": "sockbench-tornado", "peer": False, "runtime": "cpython", "runtime_version": "3.11.7",
                   "codec": "json", "mode": "fast", "url": "http://127.0.0.1:8080/broadcast", "pid": 4242,
                   "cpus": [0], "ready": {}, "entry": "cpython-fast"},
        "pinning": {"server_cpus": [0], "client_cpus": [1], "shared": False},
        "parameters": parameters, "levels": [level], "warnings": []}


def test_the_hand_built_churn_run_follows_the_schema():
    assert schema_errors(churn_run()) == []
    assert schema_errors(churn_run(churns=(None, None, None), pct=None)) == []


def test_the_summary_line_gives_the_connects_served_at_the_saturation_point_against_those_asked():
    line = level_line(churn_run()["levels"][0], churn_run())
    assert line.endswith("; churn 9.8/s served of 10/s asked at the fan-out saturation point, "
                         "reconnect p99 42.5 ms, 4 failed: timeout (3), handshake: HTTP 503 (1)")


def test_failures_anywhere_in_the_level_show_even_when_the_saturation_point_had_none():
    figures = churn_text.figures(churn_run()["levels"][0])
    assert figures == {"served": 9.8, "asked": 10, "p99": 42.5, "failures": {"timeout": 3, "handshake: HTTP 503": 1}}


def test_a_level_without_an_ok_point_still_says_what_was_asked_and_what_failed():
    doc = churn_run()
    level = doc["levels"][0]
    level["fanout_saturation"] = None
    assert churn_text.level_text(level) == ("churn 10/s asked, no fan-out saturation point to read it at, "
                                            "4 failed: timeout (3), handshake: HTTP 503 (1)")
    assert churn_text.table_cells(level) == " — (10) | — | 4: timeout (3), handshake: HTTP 503 (1) |"


def test_the_saturation_point_is_the_ok_point_whose_copies_are_the_figure():
    level = churn_run()["levels"][0]
    # A confirm re-run of the same rate that was not ok is not the point the figure came from.
    level["points"].append(dict(copy.deepcopy(level["points"][1]), state="saturated", received_per_s=1500.0,
                                churn=_churn(3.0)))
    assert churn_text.saturation_point(level)["churn"]["connects_per_s"] == 9.8


def test_the_sessions_table_of_a_churn_run_names_the_churn_and_adds_its_columns():
    lines = sessions_table(churn_run())
    assert lines[0].startswith("Sessions, sockbench-tornado · cpython 3.11.7 · json · fast (fan-out verdict; mode "
                               "fast (coalesced); churn 5 % of the sessions a second: every-copy figures are the "
                               "other sessions'")
    header, align, row = lines[2], lines[3], lines[4]
    assert header.endswith("| all-copies p99 ms | churn connects/s served (asked) | reconnect p99 ms "
                           "| churn failures |")
    assert header.count("|") == align.count("|") == row.count("|")
    assert row.startswith("| 200 | 1 | 1 |")
    assert row.endswith("| 90.0 | 9.8 (10) | 42.5 | 4: timeout (3), handshake: HTTP 503 (1) |")


def test_a_plain_sessions_run_has_no_churn_columns_or_words():
    plain = churn_run(churns=(None, None, None), pct=None)
    text = "\n".join(sessions_table(plain)) + level_line(plain["levels"][0], plain)
    assert "churn" not in text and "reconnect" not in text


def test_make_compare_of_a_plain_and_a_churn_run_shows_which_is_which():
    plain, churned = churn_run(churns=(None, None, None), pct=None), churn_run()
    text = compare_table(plain, churned)
    titles = [ln for ln in text.splitlines() if ln.startswith("Sessions, ")]
    assert len(titles) == 2 and "churn" not in titles[0] and "churn 5 %" in titles[1]


def test_the_run_summary_prints_the_churn_part_under_the_level():
    text = summarize(churn_run(), "cpython-fast")
    assert "churn 9.8/s served of 10/s asked at the fan-out saturation point" in text


def test_a_reason_with_a_pipe_does_not_split_the_table_row():
    doc = churn_run(churns=(_churn(9.5, {"handshake: a|b": 2}), _churn(9.8), None))
    row = sessions_table(doc)[4]
    assert row.count("|") == sessions_table(doc)[2].count("|") + 1 and row.endswith("2: handshake: a\\|b (2) |")
