"""CPU and memory of a group of server processes, sampled from outside.

Why: with `--workers N` a server is several processes (a supervisor or
node:cluster primary plus N workers), and the client samples exactly one pid
(`--server-pid`). So the runner reads every serving process itself, from
/proc/PID/stat (utime+stime) and /proc/PID/statm (resident pages) through
sockbench_contract.procfs, on a background thread at a fixed interval while
the client runs, never from inside the server. The group's CPU is the sum of
each process's CPU between its first and last sample; its RSS at one instant
is the sum of the processes' RSS read in the same pass, and `rss_bytes_max`
the largest such sum (memory is a peak question: what the machine needed).

A process that ends during the sampling keeps the figures of its last
readable sample and is reported with `gone: true`.
"""

import threading
import time

from sockbench_contract.procfs import clock_ticks_per_s, read_pid_cpus, read_pid_sample

DEFAULT_INTERVAL_S = 0.5   # samples per process: 2 per second; /proc reads cost microseconds


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
            got = read_pid_sample(pid)
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
