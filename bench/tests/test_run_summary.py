"""The run summary printed after each server: medians with min-max, and floors named as floors."""

from factories import doc, level, saturation
from merge import merge_repetitions
from run_summary import summarize


def test_summary_names_a_floor_and_why_and_leaves_the_servers_limits_alone():
    reps = []
    for cpu, client_cpu in ((99.0, 40.0), (62.4, 80.0), (99.5, 40.0)):
        limited = level(100, 2000.0)
        limited["saturation"] = {**saturation(100.0, 2000.0, server_cpu_pct=cpu), "client_cpu_pct": client_cpu}
        reps.append(doc([level(25, 1000.0), limited]))
    text = summarize(merge_repetitions(reps), "cpython-fast")
    line25, line100 = (line for line in text.splitlines() if "clients:" in line)
    assert "1,000 [1,000-1,000]" in line25 and "floor" not in line25
    assert ("2,000 [2,000-2,000] (3 runs); a floor, not the server's limit: server 62 % busy (< 95 %), "
            "client 80 % busy in 1 of 3") in line100


def test_summary_labels_the_servers_own_limit_below_full_cpu_and_calls_it_no_floor():
    """Made-up numbers: the server 87 % busy beside a client 20 % busy, on schedule (bench/floors.py)."""
    own = level(100, 2000.0)
    own["saturation"] = {**saturation(100.0, 2000.0, server_cpu_pct=87.0), "client_cpu_pct": 20.0}
    text = summarize(doc([own]), "sockjs-tornado-cpython")
    line = [line for line in text.splitlines() if "clients:" in line][0]
    assert "floor" not in line
    assert line.endswith("2,000 (1 run); server's own limit at 87 % CPU (client 20 % busy, on schedule)")
