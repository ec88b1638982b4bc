"""The /proc reader: the parsers on fixed text (steal, load average, other
processes' CPU, a process's ticks, RSS and CPUs), then the readers on real
processes whose CPU time and memory are known."""

import os
import subprocess
import sys
import time

import pytest

from sockbench_contract.procfs import (clock_ticks_per_s, cpu_seconds, has_exited, host_report, open_fds,
                                       other_cpu_pct, parse_cpus_allowed, parse_loadavg, parse_pid_state,
                                       parse_pid_stat_ticks, parse_proc_stat,
                                       parse_statm_rss_bytes, read_loadavg, read_pid_cpus, read_pid_sample,
                                       read_pid_ticks, read_proc_stat, rss_bytes, steal_pct)

MiB = 1 << 20

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


def test_parse_statm_rss_bytes():
    assert parse_statm_rss_bytes("2000 300 100 1 0 500 0\n", 4096) == 300 * 4096


@pytest.mark.parametrize("text, cpus", [("Name:\tx\nCpus_allowed_list:\t0-1,3\n", [0, 1, 3]),
                                        ("Cpus_allowed_list:\t2\n", [2]), ("Name:\tx\n", [])])
def test_parse_cpus_allowed(text, cpus):
    assert parse_cpus_allowed(text) == cpus


# A child that does what the parent tells it, one stdin line per step, and
# answers each with one line, then waits: while it waits it uses no CPU and
# allocates nothing, so what /proc says about it can be compared exactly.
CHILD = """
import sys, time
held = []
for order in sys.stdin:
    what, _, arg = order.partition(" ")
    if what == "burn":      # use CPU until the process has used `arg` seconds in all
        while time.process_time() < float(arg):
            pass
    elif what == "hold":    # allocate `arg` MiB and touch every page, so all of it is resident
        block = bytearray(int(arg) << 20)
        block[::4096] = b"x" * len(range(0, len(block), 4096))
        held.append(block)
    print(repr(time.process_time()), flush=True)
"""


class Child:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)
        self.pid = self.proc.pid

    def ask(self, order):
        """Send one order; its own CPU time (time.process_time) once it is done."""
        self.proc.stdin.write(order + "\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def end(self):
        self.proc.kill()
        self.proc.wait(5)


@pytest.fixture
def child():
    c = Child()
    yield c
    c.end()


def vm_rss_bytes(pid):
    """VmRSS of /proc/PID/status: the kernel's other account of the same figure."""
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))


def test_a_process_cpu_time_is_what_it_used_by_its_own_clock(child):
    before = child.ask("burn 0")
    after = child.ask(f"burn {before + 0.4}")
    tick = 1 / clock_ticks_per_s()
    # The child's own clock and /proc count the same utime+stime; /proc in whole ticks.
    assert cpu_seconds(child.pid) == pytest.approx(after, abs=2 * tick)
    assert read_pid_ticks(child.pid) * tick == pytest.approx(after, abs=2 * tick)
    assert read_pid_sample(child.pid)[0] == read_pid_ticks(child.pid)
    assert after - before >= 0.4


def test_resident_memory_grows_by_what_a_process_allocated(child):
    child.ask("hold 1")
    before = rss_bytes(child.pid)
    child.ask("hold 64")
    grown = rss_bytes(child.pid) - before
    assert 64 * MiB <= grown <= 72 * MiB, grown / MiB
    # statm (what the sampler reads) and VmRSS agree on an idle process.
    assert rss_bytes(child.pid) == vm_rss_bytes(child.pid)
    assert read_pid_sample(child.pid)[1] == rss_bytes(child.pid)


def test_open_descriptors_count_one_more_file_while_it_is_open():
    before = open_fds(os.getpid())
    with open(os.devnull):
        assert open_fds(os.getpid()) == before + 1
    assert open_fds(os.getpid()) == before


def test_allowed_cpus_are_the_scheduler_affinity():
    assert read_pid_cpus(os.getpid()) == sorted(os.sched_getaffinity(0))


def test_machine_files_have_a_line_per_usable_core_and_three_load_averages():
    stat = read_proc_stat()
    assert {f"cpu{c}" for c in os.sched_getaffinity(0)} <= set(stat)
    assert stat["cpu"]["user"] > 0
    assert set(read_loadavg()) == {"1m", "5m", "15m"}


def test_a_process_that_is_gone_reads_as_none_or_raises():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait(10)  # reaped: its pid names no process now
    assert read_pid_ticks(proc.pid) is None
    assert read_pid_sample(proc.pid) is None
    assert read_pid_cpus(proc.pid) == []
    for reader in (cpu_seconds, rss_bytes, open_fds):
        with pytest.raises(OSError):
            reader(proc.pid)


def test_state_letter_is_read_after_a_command_name_with_spaces_and_parens():
    assert parse_pid_state("42 (a (b) c) Z 1 42 42 0 -1") == "Z"
    assert parse_pid_state("42 (sleep) S 1 42 42 0 -1") == "S"


def test_a_process_has_exited_once_it_is_a_zombie_and_after_it_is_reaped():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert not has_exited(proc.pid)
        proc.kill()
        deadline = time.monotonic() + 10
        while not has_exited(proc.pid) and time.monotonic() < deadline:  # killed, not yet reaped: a zombie
            time.sleep(0.01)
        assert has_exited(proc.pid)
        assert os.path.exists(f"/proc/{proc.pid}")  # still there, as a zombie
    finally:
        proc.kill()
        proc.wait(10)
    assert has_exited(proc.pid)
