"""What /proc says about a server process: resident memory and CPU time."""
from __future__ import annotations

import os


def rss_bytes(pid: int) -> int:
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS for pid %d" % pid)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process used so far."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # fields[0] is the state (stat field 3): utime and stime are fields 14, 15.
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def open_fds(pid: int) -> int:
    return len(os.listdir("/proc/%d/fd" % pid))
