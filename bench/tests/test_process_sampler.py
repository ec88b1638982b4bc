"""The group sampler on real processes: CPU and RSS summed over several pids, read from /proc."""

import os
import subprocess
import sys
import time

import pytest

from process_sampler import GroupSampler

# Busy for a bounded time, holding ~`MiB` of resident memory, so both sums are visible.
BUSY = ("import sys, time; keep = bytearray(int(sys.argv[1]) << 20); keep[::4096] = b'x' * len(keep[::4096]);"
        "end = time.monotonic() + 20\nwhile time.monotonic() < end: pass")


def test_interval_must_be_positive():
    with pytest.raises(ValueError):
        GroupSampler([(os.getpid(), "x")], interval_s=0)


def test_sums_cpu_and_rss_over_every_process():
    """Two busy processes and one sleeping one: the group's CPU is about two cores' worth of the
    interval (a bit less if they share one core), its RSS the sum, each process reported apart."""
    busy = [subprocess.Popen([sys.executable, "-c", BUSY, str(mib)]) for mib in (40, 80)]
    idle = subprocess.Popen(["sleep", "20"])
    try:
        time.sleep(0.3)  # past interpreter start-up and the allocation
        procs = [(idle.pid, "supervisor")] + [(p.pid, "worker") for p in busy]
        with GroupSampler(procs, interval_s=0.1) as sampler:
            time.sleep(1.5)
        report = sampler.report()
    finally:
        for p in busy + [idle]:
            p.kill()
            p.wait()
    total, per = report["total"], {p["pid"]: p for p in report["processes"]}
    assert [p["role"] for p in report["processes"]] == ["supervisor", "worker", "worker"]
    assert total["samples"] >= 10
    cores = len(os.sched_getaffinity(0))
    # Each busy loop ran for most of the 1.5 s (loosely: other work may share the cores).
    assert per[busy[0].pid]["cpu_s"] > 0.3 and per[busy[1].pid]["cpu_s"] > 0.3
    assert total["cpu_s"] == pytest.approx(sum(p["cpu_s"] for p in report["processes"]), abs=0.02)
    assert total["cpu_s"] > (0.9 if cores == 1 else 1.2)
    assert per[idle.pid]["cpu_s"] < 0.1
    assert per[busy[0].pid]["rss_bytes_max"] > 40 << 20 and per[busy[1].pid]["rss_bytes_max"] > 80 << 20
    assert total["rss_bytes_max"] >= (120 << 20)
    assert total["rss_bytes_max"] <= sum(p["rss_bytes_max"] for p in report["processes"])
    assert all(p["cpus"] == sorted(os.sched_getaffinity(0)) for p in report["processes"])
    assert not any(p["gone"] for p in report["processes"])


def test_a_process_that_ends_keeps_its_last_figures():
    p = subprocess.Popen(["sleep", "0.3"])
    with GroupSampler([(p.pid, "worker"), (os.getpid(), "server")], interval_s=0.05) as sampler:
        p.wait()
        time.sleep(0.2)
    report = sampler.report()
    gone = report["processes"][0]
    assert gone["gone"] is True and gone["rss_bytes_max"] > 0
    assert report["processes"][1]["gone"] is False
