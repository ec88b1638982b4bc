"""The run summary printed after each server: medians with min-max, and floors named as floors."""

from factories import doc, level, saturation
from merge import merge_repetitions
from run_summary import summarize


def test_summary_names_a_floor_and_why_and_leaves_the_servers_limits_alone():
    reps = []
    for cpu in (99.0, 62.4, 99.5):
        limited = level(100, 2000.0)
        limited["saturation"] = saturation(100.0, 2000.0, server_cpu_pct=cpu)
        reps.append(doc([level(25, 1000.0), limited]))
    text = summarize(merge_repetitions(reps), "cpython-fast")
    line25, line100 = (line for line in text.splitlines() if "clients:" in line)
    assert "1,000 [1,000-1,000]" in line25 and "floor" not in line25
    assert "2,000 [2,000-2,000] (3 runs); a floor, not the server's limit: server 62 % busy (< 95 %) in 1 of 3" in line100
