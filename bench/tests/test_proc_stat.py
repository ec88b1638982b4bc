"""Steal, load average and other processes' CPU, from /proc-like text."""

import os

import pytest

from sockbench_contract.procfs import (host_report, other_cpu_pct, parse_loadavg, parse_pid_stat_ticks, parse_proc_stat,
                                     read_pid_ticks, read_proc_stat, steal_pct)

#         user nice system idle iowait irq softirq steal guest guest_nice
BEFORE = """cpu  1000 0 500 8000 0 0 0 100 0 0
cpu0 500 0 250 4000 0 0 0 50 0 0
cpu1 500 0 250 4000 0 0 0 50 0 0
intr 12345
"""
# cpu0: +1050 busy (750 user, 150 system, 150 softirq; our server used 850), +50 idle, +50 steal
# cpu1: +300 busy (our client used all of it), +690 idle, +10 steal
AFTER = """cpu  2200 0 500 8740 0 0 0 160 0 0
cpu0 1250 0 400 4050 0 0 150 100 0 0
cpu1 800 0 250 4690 0 0 0 60 0 0
"""


def test_parse_proc_stat_columns():
    stat = parse_proc_stat(BEFORE)
    assert stat["cpu0"]["user"] == 500 and stat["cpu0"]["steal"] == 50
    assert set(stat) == {"cpu", "cpu0", "cpu1"}


def test_short_lines_of_old_kernels_read_as_zero():
    assert parse_proc_stat("cpu 1 2 3 4\n")["cpu"]["steal"] == 0


def test_no_cpu_line_is_an_error():
    with pytest.raises(ValueError):
        parse_proc_stat("intr 1\n")


def test_steal_is_a_share_of_all_cpu_time():
    # cpu line: +1200 user, +740 idle, +60 steal = 2000 ticks, 60 of them stolen
    assert steal_pct(parse_proc_stat(BEFORE), parse_proc_stat(AFTER)) == pytest.approx(3.0)


def test_other_process_time_is_busy_time_minus_our_own():
    b, a = parse_proc_stat(BEFORE), parse_proc_stat(AFTER)
    # cpu0: 1050 busy of 1150 ticks, 850 of them ours
    assert other_cpu_pct(b, a, [0], own_ticks=850) == pytest.approx(100 * 200 / 1150)
    assert other_cpu_pct(b, a, [1], own_ticks=300) == pytest.approx(0.0)
    assert other_cpu_pct(b, a, [1], own_ticks=400) == 0.0   # clamped: tick sampling can over-count our own


def test_unknown_core_is_an_error():
    with pytest.raises(ValueError, match="cpu7"):
        other_cpu_pct(parse_proc_stat(BEFORE), parse_proc_stat(AFTER), [7], 0)


def test_host_report_warns_about_the_side_another_process_used():
    report, warnings = host_report(parse_proc_stat(BEFORE), parse_proc_stat(AFTER), [0], [1], 850, 300)
    assert report["other_cpu_pct"]["server_cpus"] == pytest.approx(17.39, abs=0.01)
    assert report["other_cpu_pct"]["client_cpus"] == 0.0
    assert report["steal_pct"] == 3.0
    assert len(warnings) == 1 and "server's core(s) 0" in warnings[0]


def test_host_report_without_server_ticks_cannot_tell():
    report, warnings = host_report(parse_proc_stat(BEFORE), parse_proc_stat(AFTER), [0], [1], None, 300)
    assert report["other_cpu_pct"]["server_cpus"] is None
    assert report["server_cpu_s"] is None
    assert warnings == []


def test_host_report_warns_about_steal():
    after = AFTER.replace("cpu  2200 0 500 8740 0 0 0 160", "cpu  2200 0 500 8000 0 0 0 900")
    _, warnings = host_report(parse_proc_stat(BEFORE), parse_proc_stat(after), [0], [1], 1050, 300)
    assert any("steal" in w for w in warnings)


def test_pid_stat_with_spaces_and_parens_in_the_name():
    text = "1234 (my (odd) name) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 3 0 100 1000 50\n"
    assert parse_pid_stat_ticks(text) == 325


def test_loadavg():
    assert parse_loadavg("0.52 0.31 0.20 2/345 6789\n") == {"1m": 0.52, "5m": 0.31, "15m": 0.20}


def test_real_proc_files_parse():
    assert "cpu" in read_proc_stat()
    assert read_pid_ticks(os.getpid()) >= 0
    assert read_pid_ticks(2 ** 22 + 1) is None
