"""bench/saturation_tables.py: the reference pages' tables, one per algorithm group, every floor
with its reason. Read from the committed reference set (real files)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import saturation_tables  # noqa: E402
from results_io import load_result  # noqa: E402
from sockbench_contract.registry import load as load_registry  # noqa: E402

REFERENCE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "results", "reference")


def reference_docs():
    return [load_result(os.path.join(REFERENCE, name)) for name in sorted(os.listdir(REFERENCE))
            if name.endswith(".json")]


def test_figures_print_with_three_significant_digits_and_their_unit():
    assert [saturation_tables._si(v) for v in (2_090_000, 12_280_000, 186_000, 66_240, 950)] == \
        ["2.09 M", "12.3 M", "186 k", "66.2 k", "950"]


def test_one_table_per_algorithm_group_with_a_row_per_file():
    text = saturation_tables.tables(reference_docs(), load_registry(), rss_level=1000)
    heads = [line for line in text.splitlines() if line.startswith("| coalesced") or line.startswith("| one frame")]
    share = "% of limit at 25 · 50 · 100 · 200 · 500 · 1000 · 2000"
    assert heads == [f"| coalesced (fast) | 25 | 50 | 100 | 200 | 500 | 1000 | 2000 | {share} | RSS at 1000 |",
                     f"| one frame per message | 25 | 50 | 100 | 200 | 500 | 1000 | 2000 | {share} | RSS at 1000 |"]
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line and line not in heads]
    assert len(rows) == len(reference_docs())
    fast = sum(1 for d in reference_docs() if d["server"].get("mode") == "fast")  # the limit server's fast row too
    assert all(", fast" in r.split(" | ")[0] for r in rows[:fast])
    assert all(", fast" not in r.split(" | ")[0] for r in rows[fast:])


def test_every_floor_cell_has_exactly_one_reason_line():
    text = saturation_tables.tables(reference_docs(), load_registry(), rss_level=1000)
    # The level cells only: the share column says "≥ N %" of a floor's share, not another floor.
    floors_in_cells = sum(" | ".join(line.split(" | ")[1:8]).count("≥ ") for line in text.splitlines()
                          if line.startswith("| "))
    reason_lines = [line for line in text.splitlines()
                    if line.startswith("- ") and "own limit" not in line and not line.startswith("- No share")]
    assert floors_in_cells == len(reason_lines) > 0
    assert all(("busy" in r or "client-bound" in r or "level ended" in r or "max rate" in r) for r in reason_lines)


def test_the_servers_own_limit_below_full_cpu_is_a_plain_figure_labelled_under_its_table():
    """sockjs-tornado on CPython at 1000 clients (reference set): 92-94 % busy in 2 of 3 beside a client at
    23-31 %, on schedule (bench/floors.py): no "≥" in its cell, one label line under the table."""
    text = saturation_tables.tables(reference_docs(), load_registry(), rss_level=1000)
    peer = "the original sockjs-tornado 1.0.7 (peer) on CPython 3.11"
    row = next(line for line in text.splitlines() if line.startswith(f"| {peer}"))
    assert row.split(" | ")[6] == "37.8 k (33.2 k–46.3 k)"
    assert [line for line in text.splitlines() if line.startswith(f"- {peer}") and line.endswith(
        ", 1000 clients: server's own limit at 92–94 % CPU (client 23–31 % busy, on schedule, at 1 % of its ceiling)"
        " in 2 of 3")]


def test_an_empty_folder_is_a_usage_error(tmp_path, capsys):
    try:
        saturation_tables.main([str(tmp_path)])
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("expected exit 2")
    assert "no result files" in capsys.readouterr().err


# --- share of the limit server's figure -------------------------------------------------------------
# Made-up result documents, complete enough to pass results/schema.json (checked in each test
# that builds a folder), so the tables read exactly the shape the client writes.

import re  # noqa: E402

from results_io import schema_errors  # noqa: E402


def _latency(mean):
    return {"count": 100, "mean": mean, "stddev": 1.0, "min": 0.5, "p50": mean, "p90": mean, "p99": mean,
            "p999": mean, "max": mean}


def _point(received, server_cpu, client_bound=False):
    return {"target_rate": received / 10, "duration_s": 3.0, "sent": 3, "sent_per_s": received / 10,
            "received": 30, "received_per_s": received, "expected_received": 30, "lost": 0, "connection_errors": 0,
            "rtt_ms": _latency(5.0), "rtt_uncorrected_ms": _latency(4.0), "client_cpu_pct": 30.0,
            "server_cpu_pct": server_cpu, "server_rss_bytes": 50 * 2 ** 20, "state": "ok",
            "client_bound": client_bound, "client_bound_reasons": ["client_cpu"] if client_bound else []}


def _level(n, received, server_cpu=99.0, client_bound=False, end_reason="overloaded"):
    """A level whose saturation figure is `received` msgs/s; a floor (bench/floors.py) when client-bound or
    when it ended without overloading the server (end_reason "max_rate")."""
    point = _point(received, server_cpu, client_bound)
    sat = {"target_rate": point["target_rate"], "received_per_s": received, "sent_per_s": point["sent_per_s"],
           "rtt_mean_ms": 5.0, "client_bound": client_bound, "server_cpu_pct": server_cpu}
    return {"concurrency": n, "connected": n, "connect_errors": 0, "connect_s": 0.1, "points": [point],
            "saturation": sat, "end_reason": end_reason}


def _result(entry, mode, levels, name="sockbench-tornado"):
    return {
        "schema": "sockbench.result/3", "run_id": f"20261125T010000Z-{entry}", "label": f"{name} · {entry}",
        "started_at": "2026-11-25T01:00:00Z", "finished_at": "2026-11-25T01:10:00Z", "duration_s": 600.0,
        "machine": {"hostname": "vm", "cpu_model": "made-up CPU", "cores": 2, "kernel": "6.1", "memory_bytes": 2 ** 33,
                    "os": "Debian GNU/Linux 12 (bookworm)"},
        "client": {"name": "sockbench-client-java", "version": "1.2.0", "jvm_version": "17", "jvm_vendor": "Debian",
                   "transport": "sockjs", "cpus": [1], "io_threads": 1},
        "server": {"name": name, "peer": False, "runtime": "c", "runtime_version": "1", "codec": None, "mode": mode,
                   "url": "http://127.0.0.1:8080/broadcast", "pid": 1234, "cpus": [0], "ready": {}, "entry": entry},
        "pinning": {"server_cpus": [0], "client_cpus": [1], "shared": False},
        "parameters": {"profile": "standard", "levels": [lv["concurrency"] for lv in levels], "ramp": "geometric",
                       "start_rate": 10.0, "step_s": 3.0, "settle_s": 1.0, "warmup_s": 0.5, "max_rate": 100000.0,
                       "ok_mean_ms": 200.0, "overload_mean_ms": 1500.0, "overload_timeout_ms": 5000.0,
                       "connect_timeout_s": 10.0, "client_bound_rate_ratio": 0.95, "client_bound_cpu_ratio": 0.9,
                       "payload_bytes": 64},
        "levels": levels, "warnings": [],
    }


def _folder(*docs):
    for doc in docs:
        assert schema_errors(doc) == [], schema_errors(doc)
    return list(docs)


def _table_of(text, title):
    """The lines of one group's table and the notes under it, up to the next table."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {title} |"))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("| ") and "---" not in lines[i]
                and not lines[i - 1].startswith("|")), len(lines))
    return lines[start:end]


def test_with_a_limit_result_each_naive_row_gets_its_share_of_limit_naive_at_every_level():
    docs = _folder(_result("limit-naive", "naive", [_level(100, 200_000), _level(1000, 160_000)], name="limit"),
                   _result("cpython-naive", "naive", [_level(100, 76_000), _level(1000, 56_000)]))
    lines = _table_of(saturation_tables.tables(docs, load_registry()), "one frame per message")
    assert lines[0] == "| one frame per message | 100 | 1000 | % of limit at 100 · 1000 | RSS at 1000 |"
    row = {line.split(" | ")[0]: line for line in lines if line.startswith("| ")}
    assert row["| our server (Tornado) on CPython 3.11, naive"].endswith("| 38 % · 35 % | 50 MiB |")
    assert "| the limit |" in next(line for line in lines if line.startswith("| the limit server"))
    assert any(line.startswith("Share of the limit: each figure's median over limit-naive's median") for line in lines)


def test_a_group_without_its_limit_server_gets_no_share_column_and_one_line_saying_why():
    docs = _folder(_result("limit-naive", "naive", [_level(100, 200_000)], name="limit"),
                   _result("cpython-fast", "fast", [_level(100, 1_500_000)]))
    lines = _table_of(saturation_tables.tables(docs, load_registry()), "coalesced (fast)")
    assert lines[0] == "| coalesced (fast) | 100 | RSS at 100 |"
    assert [line for line in lines if "share" in line] == [
        "No share of the limit: this folder has no limit-fast result "
        "(`make bench SERVERS=limit-fast` in the same session)."]
    assert not any("%" in line for line in lines if line.startswith("| our server"))


def test_a_level_the_limit_did_not_measure_shows_a_dash_never_zero_and_says_why_once():
    docs = _folder(_result("limit-naive", "naive", [_level(100, 200_000)], name="limit"),
                   _result("cpython-naive", "naive", [_level(100, 50_000), _level(1000, 40_000)]),
                   _result("pypy-naive", "naive", [_level(100, 100_000), _level(1000, 90_000)]))
    lines = _table_of(saturation_tables.tables(docs, load_registry()), "one frame per message")
    assert any(line.startswith("| our server (Tornado) on CPython 3.11, naive") and "| 25 % · — |" in line
               for line in lines)
    assert not re.search(r"(?<![\d.])0 %", "\n".join(lines))
    assert [line for line in lines if "no figure" in line] == [
        "- limit-naive has no figure at 1000 clients: no share there."]


def test_floors_stay_floors_a_floor_figure_is_at_least_and_a_floor_limit_makes_it_at_most():
    limit = _result("limit-fast", "fast", [_level(100, 10_000_000, client_bound=True), _level(1000, 8_000_000)],
                    name="limit")
    docs = _folder(limit,
                   _result("cpython-fast", "fast",
                           [_level(100, 1_234_000), _level(1000, 2_000_000, end_reason="max_rate")]),
                   _result("pypy-fast", "fast", [_level(100, 5_000_000, client_bound=True), _level(1000, 4_000_000)]))
    lines = _table_of(saturation_tables.tables(docs, load_registry()), "coalesced (fast)")
    cpython = next(line for line in lines if line.startswith("| our server (Tornado) on CPython 3.11, fast"))
    pypy = next(line for line in lines if line.startswith("| our server (Tornado) on PyPy, fast"))
    # 1.234 M / 10 M (a floor: the limit is at least 10 M) is at most 12.34 %, rounded up;
    # 2 M (a floor) / 8 M at least 25 %.
    assert "| ≤ 13 % · ≥ 25 % |" in cpython
    # both floors at 100: unknown, so no share; 4 M / 8 M = 50 %.
    assert "| — · 50 % |" in pypy
    assert "- No share where a figure and limit-fast's are both floors (unknown): 100 clients." in lines


def test_two_limit_results_of_one_group_give_no_share_since_the_sessions_limit_is_ambiguous():
    first = _result("limit-naive", "naive", [_level(100, 200_000)], name="limit")
    second = dict(_result("limit-naive", "naive", [_level(100, 150_000)], name="limit"), run_id="20261125T020000Z-x")
    docs = _folder(first, second, _result("cpython-naive", "naive", [_level(100, 50_000)]))
    lines = _table_of(saturation_tables.tables(docs, load_registry()), "one frame per message")
    assert ("No share of the limit: this folder has 2 limit-naive results, "
            "so which one is this session's limit is not known.") in lines


LIMIT_SHARE_CASES = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "contract", "limit-share-cases.json")


def test_share_text_gives_every_case_of_the_contract_table_the_site_runs_too():
    import json
    with open(LIMIT_SHARE_CASES, encoding="utf-8") as f:
        cases = json.load(f)["cases"]

    def figure(side):
        return None if side is None else {"median": side["median"], "floor": ["a floor"] if side["floor"] else []}
    for case in cases:
        assert saturation_tables.share_text(figure(case["figure"]), figure(case["limit"])) == case["text"], case["name"]
