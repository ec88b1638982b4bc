"""CPU and memory of a group of server processes, sampled from outside.

Why: with `--workers N` a server is several processes (a supervisor or
node:cluster primary plus N workers), and the client samples exactly one pid
(`--server-pid`). So the runner reads every serving process itself, from
/proc/PID/stat (utime+stime) and /proc/PID/statm (resident pages), on a
background thread at a fixed interval while the client runs, never from
inside the server. The group's CPU is the sum of each process's CPU between
its first and last sample; its RSS at one instant is the sum of the
processes' RSS read in the same pass, and `rss_bytes_max` the largest such
sum (memory is a peak question: what the machine needed).

A process that ends during the sampling keeps the figures of its last
readable sample and is reported with `gone: true`.
"""

import os
import threading
import time

from sockbench_contract.procfs import clock_ticks_per_s, parse_pid_stat_ticks

DEFAULT_INTERVAL_S = 0.5   # samples per process: 2 per second; /proc reads cost microseconds


def parse_statm_rss_bytes(text, page_size):
    """Resident set size in bytes from /proc/PID/statm's text (field 2, in pages)."""
    return int(text.split()[1]) * page_size


def parse_cpus_allowed(status_text):
    """The `Cpus_allowed_list` of /proc/PID/status as sorted ints (e.g. "0-1,3" -> [0, 1, 3]); [] if absent."""
    for line in status_text.splitlines():
        if line.startswith("Cpus_allowed_list:"):
            cpus = []
            for part in line.split(":", 1)[1].strip().split(","):
                lo, _, hi = part.partition("-")
                cpus += range(int(lo), int(hi or lo) + 1)
            return sorted(cpus)
    return []


def read_pid_sample(pid, page_size):
    """(cpu ticks, rss bytes) of a live process; None if it is gone or unreadable."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            ticks = parse_pid_stat_ticks(f.read())
        with open(f"/proc/{pid}/statm", encoding="ascii") as f:
            rss = parse_statm_rss_bytes(f.read(), page_size)
    except (OSError, ValueError, IndexError):
        return None
    return ticks, rss


def read_pid_cpus(pid):
    """CPUs a process may run on, from /proc/PID/status; [] if unreadable."""
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8", errors="replace") as f:
            return parse_cpus_allowed(f.read())
    except (OSError, ValueError):
        return []


class GroupSampler:
    """Samples `processes` ([(pid, role), ...]) every `interval_s` seconds (> 0) until stop().

    Use as a context manager around the measured interval; `report()` then
    gives the totals and the per-process figures.
    """

    def __init__(self, processes, interval_s=DEFAULT_INTERVAL_S):
        if interval_s <= 0:
            raise ValueError(f"interval_s must be > 0, got {interval_s}")
        self.processes = list(processes)
        self.interval_s = interval_s
        self._page = os.sysconf("SC_PAGE_SIZE")
        self._first = {}     # pid -> (ticks, rss) of the first readable sample
        self._last = {}      # pid -> (ticks, rss) of the latest readable sample
        self._rss_max = {}   # pid -> largest rss seen
        self._gone = set()
        self._group_rss_max = 0
        self._samples = 0
        self._stop = threading.Event()
        self._thread = None
        self._started = self._stopped = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def start(self):
        self._started = time.monotonic()
        # Affinity as the kernel has it at the start: what the pinning really was.
        self._cpus = {pid: read_pid_cpus(pid) for pid, _ in self.processes}
        self._sample()
        self._thread = threading.Thread(target=self._loop, name="bench-group-sampler", daemon=True)
        self._thread.start()

    def stop(self):
        if self._thread is None or self._stopped is not None:
            return
        self._stop.set()
        self._thread.join(timeout=5)
        self._sample()  # the closing sample, so the CPU interval ends now
        self._stopped = time.monotonic()

    def _loop(self):
        while not self._stop.wait(self.interval_s):
            self._sample()

    def _sample(self):
        total = 0
        for pid, _ in self.processes:
            got = read_pid_sample(pid, self._page)
            if got is None:
                if pid in self._first:
                    self._gone.add(pid)
                continue
            self._first.setdefault(pid, got)
            self._last[pid] = got
            self._rss_max[pid] = max(self._rss_max.get(pid, 0), got[1])
            total += got[1]
        self._group_rss_max = max(self._group_rss_max, total)
        self._samples += 1

    def report(self):
        """{"total": {...}, "processes": [...]} in seconds, percent of one core and bytes (schema: runs[].server_total)."""
        hz = clock_ticks_per_s()
        wall = (self._stopped or time.monotonic()) - self._started
        per, cpu_ticks = [], 0
        for pid, role in self.processes:
            if pid not in self._first:
                per.append({"pid": pid, "role": role, "cpus": self._cpus.get(pid, []), "cpu_s": None, "rss_bytes_max": None, "gone": True})
                continue
            ticks = self._last[pid][0] - self._first[pid][0]
            cpu_ticks += ticks
            per.append({"pid": pid, "role": role, "cpus": self._cpus.get(pid, []), "cpu_s": round(ticks / hz, 2),
                        "rss_bytes_max": self._rss_max[pid], "gone": pid in self._gone})
        total = {
            "cpu_s": round(cpu_ticks / hz, 2),
            "cpu_pct": round(100.0 * cpu_ticks / hz / wall, 1) if wall > 0 else None,
            "rss_bytes_max": self._group_rss_max or None,
            "wall_s": round(wall, 2),
            "samples": self._samples,
            "interval_s": self.interval_s,
        }
        return {"total": total, "processes": per}
