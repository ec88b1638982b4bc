"""A sessions run's figures in the text a run prints: per level processes, connect, idle hold and the
fan-out saturation with the server's mode beside it, a floor marked as a floor with its reasons."""

from compare import compare_table
from group_merge import merge_group_docs
from merge import merge_repetitions
from run_summary import summarize
from saturation_tables import tables
from matrix import registry
from sessions import LevelGroup
from sessions_docs import client_doc


def _run(server_cpu_at_2000=99.0):
    doc = client_doc([25, 2000])
    doc["levels"][1]["connect"]["failures"] = {"Too many open files": 10}
    doc["levels"][1]["connected"] = 1990
    doc["levels"][1]["idle"]["hold_s"] = 30.002  # the hold as measured: a little over the profile's 30 s
    doc["levels"][1]["saturation"]["server_cpu_pct"] = server_cpu_at_2000
    doc["levels"][1]["saturation"]["client_cpu_pct"] = 50.0
    doc["levels"][1]["saturation"]["client_bound"] = False
    merged = merge_group_docs([LevelGroup((25,), 1, 1), LevelGroup((2000,), 3, 3)], [
        dict(doc, levels=doc["levels"][:1], parameters=dict(doc["parameters"], levels=[25])),
        dict(doc, levels=doc["levels"][1:], parameters=dict(doc["parameters"], levels=[2000]))])
    merged["server"]["entry"] = "cpython-fast"
    return merge_repetitions([merged])


def test_the_summary_gives_each_level_its_processes_connect_idle_and_fanout_saturation_with_the_mode():
    text = summarize(_run(), "cpython-fast")
    line = [ln for ln in text.splitlines() if "3 server workers and" in ln][0]
    assert line.strip().startswith("3 server workers and 3 client agents; connect ")
    assert "connect " in line and "/s (paced 2,000/s), 1,990 of 2,000 opened, 10 failed: Too many open files (10)" \
        in line
    assert "idle 30 s: server 8.8 KiB/session, server CPU 0.8 %" in line
    assert " M copies/s [fast (coalesced)] at 3,242 msgs/s sent" in line and "all-copies p99 120.0 ms" in line
    assert "floor" not in line


def test_a_fanout_figure_that_is_a_floor_is_marked_and_says_why():
    text = summarize(_run(server_cpu_at_2000=60.0), "cpython-fast")
    line = [ln for ln in text.splitlines() if "3 server workers and" in ln][0]
    assert "fan-out saturation ≥ " in line
    assert ("(a floor, not the server's limit: server 60 % busy (< 95 %), client 50 % busy, at 16 % of its ceiling)"
            in line)


def test_compare_and_the_saturation_tables_print_the_sessions_table_with_the_mode():
    run = _run(server_cpu_at_2000=60.0)
    for text in (compare_table(run, run), tables([run], registry())):
        assert "(fan-out verdict; mode fast (coalesced)):" in text
        row = [ln for ln in text.splitlines() if ln.startswith("| 2,000 | 3 | 3 |")][0]
        assert "| 1,990 | 8.8 KiB | 0.8 | ≥ " in row and row.endswith("| 120.0 |")
        assert "- ≥ at 2,000 clients is a floor: server 60 % busy (< 95 %), client 50 % busy, at 16 % of its ceiling." \
            in text


def test_a_server_without_a_mode_is_titled_by_its_algorithm_not_as_mode_no_mode():
    run = _run()
    run["server"]["mode"] = None   # a peer: sockjs-tornado records no mode
    title = [ln for ln in compare_table(run, run).splitlines() if ln.startswith("Sessions, ")][0]
    assert "(fan-out verdict; no mode (one frame per message)):" in title and "mode no mode" not in title


def test_runs_without_sessions_levels_print_as_before():
    from factories import doc, level
    plain = doc([level(25, 1000.0)])
    assert "server process" not in summarize(plain, "x") and "Sessions" not in compare_table(plain, plain)
