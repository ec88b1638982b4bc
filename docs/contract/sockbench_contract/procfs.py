"""The one /proc reader: CPU ticks, resident memory, allowed CPUs and open
descriptors of a process, and what the kernel says about the machine around
one measurement (steal time, load average, CPU other processes used on the
pinned cores).

Why from outside: the benchmark's figures assume the server had its core and
the client had its own, and a server's own tests check its memory and CPU the
same way, never from inside the process. Two things break the first silently
on a VM or a busy box: the hypervisor takes the CPU away (steal, the `steal`
column of /proc/stat), or another process runs on a pinned core. Both are read
here, before and after a run, and the difference is what the run record and
its warnings show. Every parse_* function takes the file's text, so the
arithmetic is tested on fixed inputs; the functions that take a pid are the
only ones touching /proc: read_* return None for a process that is gone, the
others (for tests that hold the process) raise OSError.

Units: /proc/stat and /proc/PID/stat count in clock ticks (USER_HZ, normally
100 per second); host_report returns seconds and percent.
"""

import os

# Column order of a "cpu"/"cpuN" line in /proc/stat (proc(5)). `guest` and
# `guest_nice` are already included in `user`/`nice`, so they are never added.
STAT_COLUMNS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal", "guest", "guest_nice")
# Time a core spent running something: what another process would show up in.
BUSY_COLUMNS = ("user", "nice", "system", "irq", "softirq")
# Every column that advances with wall time on a core (busy + idle + iowait + steal).
TOTAL_COLUMNS = BUSY_COLUMNS + ("idle", "iowait", "steal")

OTHER_CPU_WARN_PCT = 5.0  # warn when others used more than this % of a pinned core
STEAL_WARN_PCT = 5.0      # warn when steal exceeded this % of the machine's CPU time


def clock_ticks_per_s():
    return os.sysconf("SC_CLK_TCK")


def parse_proc_stat(text):
    """{"cpu": {...}, "cpu0": {...}, ...} of tick counters from /proc/stat's text.

    Missing trailing columns (older kernels) read as 0; ValueError if there is
    no "cpu" line at all.
    """
    cpus = {}
    for line in text.splitlines():
        fields = line.split()
        if not fields or not fields[0].startswith("cpu"):
            continue
        values = [int(v) for v in fields[1:1 + len(STAT_COLUMNS)]]
        values += [0] * (len(STAT_COLUMNS) - len(values))
        cpus[fields[0]] = dict(zip(STAT_COLUMNS, values))
    if "cpu" not in cpus:
        raise ValueError("no 'cpu' line in /proc/stat text")
    return cpus


def parse_pid_stat_ticks(text):
    """utime + stime of one process (all its threads) from /proc/PID/stat's text, in ticks.

    The command name (field 2) is in parentheses and may contain spaces, so the
    fields are counted from the last ')'.
    """
    rest = text[text.rindex(")") + 2:].split()
    # rest[0] is field 3 (state); utime and stime are fields 14 and 15.
    return int(rest[11]) + int(rest[12])


def parse_pid_state(text):
    """The state letter of one process (R, S, D, Z, ...) from /proc/PID/stat's text (field 3, after the last ')')."""
    return text[text.rindex(")") + 2:].split()[0]


def parse_loadavg(text):
    """The 1, 5 and 15 minute load averages from /proc/loadavg's text."""
    one, five, fifteen = (float(v) for v in text.split()[:3])
    return {"1m": one, "5m": five, "15m": fifteen}


def _delta(before, after, name, columns):
    return sum(after[name][c] - before[name][c] for c in columns)


def steal_pct(before, after):
    """Steal over the interval, percent of all CPU time of the machine (the "cpu" line); None if no time passed."""
    total = _delta(before, after, "cpu", TOTAL_COLUMNS)
    return None if total <= 0 else 100.0 * _delta(before, after, "cpu", ("steal",)) / total


def other_cpu_pct(before, after, cpus, own_ticks):
    """CPU that something other than our own process used on `cpus`, percent of one core.

    busy ticks on those cores minus the ticks our process (pinned to exactly
    them) used, divided by the interval's ticks per core and by the number of
    cores: 10 means "on average another process held 10 % of each of these
    cores". Clamped at 0 (tick sampling can make our own time look slightly
    larger than the cores' busy time). None when no time passed.
    """
    names = [f"cpu{c}" for c in cpus]
    missing = [n for n in names if n not in before or n not in after]
    if missing:
        raise ValueError(f"/proc/stat has no line for {', '.join(missing)}")
    busy = sum(_delta(before, after, n, BUSY_COLUMNS) for n in names)
    elapsed = sum(_delta(before, after, n, TOTAL_COLUMNS) for n in names)
    if elapsed <= 0:
        return None
    return max(0.0, 100.0 * (busy - own_ticks) / elapsed)


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


def pid_ticks(pid):
    """utime+stime ticks of a process (all its threads) so far; OSError if it is gone."""
    with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
        return parse_pid_stat_ticks(f.read())


def cpu_seconds(pid):
    """User + system CPU time a process used so far, in seconds; OSError if it is gone."""
    return pid_ticks(pid) / clock_ticks_per_s()


def rss_bytes(pid):
    """Resident memory of a process now, in bytes; OSError if it is gone."""
    with open(f"/proc/{pid}/statm", encoding="ascii") as f:
        return parse_statm_rss_bytes(f.read(), os.sysconf("SC_PAGE_SIZE"))


def open_fds(pid):
    """How many file descriptors a process holds open; OSError if it is gone."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def has_exited(pid):
    """True when a process is gone or a zombie (exited, not yet reaped): it runs no more code."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            return parse_pid_state(f.read()) == "Z"
    except OSError:
        return True


def read_pid_ticks(pid):
    """utime+stime ticks of a live process; None if it is gone or unreadable."""
    try:
        return pid_ticks(pid)
    except (OSError, ValueError, IndexError):
        return None


def read_pid_sample(pid):
    """(cpu ticks, rss bytes) of a live process; None if it is gone or unreadable."""
    try:
        return pid_ticks(pid), rss_bytes(pid)
    except (OSError, ValueError, IndexError):
        return None


def read_pid_cpus(pid):
    """CPUs a process may run on, from /proc/PID/status; [] if unreadable."""
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8", errors="replace") as f:
            return parse_cpus_allowed(f.read())
    except (OSError, ValueError):
        return []


def read_proc_stat():
    with open("/proc/stat", encoding="ascii") as f:
        return parse_proc_stat(f.read())


def read_loadavg():
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return parse_loadavg(f.read())
    except (OSError, ValueError):
        return None


def host_report(before, after, server_cpus, client_cpus, server_ticks, client_ticks):
    """The `runs[]` host fields for one measurement, and its warnings.

    server_ticks / client_ticks: CPU ticks each process used over the same
    interval (None if unknown: then the other-process figure for that side is
    null, because it cannot be separated from our own use).
    """
    hz = clock_ticks_per_s()
    steal = steal_pct(before, after)
    report = {
        "steal_pct": None if steal is None else round(steal, 2),
        "server_cpu_s": None if server_ticks is None else round(server_ticks / hz, 2),
        "client_cpu_s": None if client_ticks is None else round(client_ticks / hz, 2),
        "other_cpu_pct": {},
    }
    warnings = []
    shared = bool(set(server_cpus) & set(client_cpus))
    if shared:
        # One set of cores holds both: both processes are "ours" on it, and
        # the one figure is reported for both sides.
        both = (sorted(set(server_cpus) | set(client_cpus)),
                None if None in (server_ticks, client_ticks) else server_ticks + client_ticks)
        sides = {"server_cpus": both, "client_cpus": both}
    else:
        sides = {"server_cpus": (server_cpus, server_ticks), "client_cpus": (client_cpus, client_ticks)}
    for side, (cpus, ticks) in sides.items():
        pct = None if ticks is None else other_cpu_pct(before, after, cpus, ticks)
        report["other_cpu_pct"][side] = None if pct is None else round(pct, 2)
        if pct is not None and pct > OTHER_CPU_WARN_PCT and not (shared and side == "client_cpus"):
            warnings.append(f"other processes used {pct:.1f} % of the {side.split('_')[0]}'s core(s) "
                            f"{','.join(map(str, cpus))} during the run (> {OTHER_CPU_WARN_PCT:g} %): "
                            "the figures are not the server's alone")
    if steal is not None and steal > STEAL_WARN_PCT:
        warnings.append(f"hypervisor steal was {steal:.1f} % of CPU time during the run (> {STEAL_WARN_PCT:g} %)")
    return report, warnings
