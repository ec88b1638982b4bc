"""A CPU quota per server worker through the kernel's cgroup `cpu` controller (v1 or v2).

Why: on a 2-core machine several workers cannot get a core each, so
`make bench-scaleout` simulates cores: every worker gets the same share of
one core (CORE_SHARE x the period, enforced by the CFS bandwidth controller)
and the shares add up to at most one core. The kernel throttles a group that
used its quota until the next period starts; `cpu.stat` counts the periods
it was throttled in.

Layout, under the controller's mount (v1: the hierarchy mounted with `cpu`,
e.g. /sys/fs/cgroup/cpu; v2: the unified hierarchy when its root lists `cpu`
in cgroup.controllers):

    sockbench/                     parent of every run's groups (left in place)
      run-<runner pid>/            quota = workers x share: the server's sum
        worker-0 ... worker-<N-1>  quota = share each: one worker each
        supervisor                 no quota of its own (bounded by run-*):
                                   the process that prints READY when it
                                   serves no sessions itself

A group is created per repetition and removed when it ends, even after an
error (a process still in it is moved back to the root group first). A
group whose runner is gone (killed before it could clean up) is named and
removed by the next run. Only v1 `cpu.cfs_period_us`/`cpu.cfs_quota_us` and
v2 `cpu.max` are written; `cpu.stat` is read as each version names it.
"""

import errno
import os
import time

#: The parent group every run's groups live under.
PARENT = "sockbench"
#: CFS period, microseconds, 1,000-1,000,000 (what the kernel accepts). A throttled worker
#: waits for the next period, so a longer period adds more latency. 10 ms, not the kernel's
#: 100 ms: measured with PyPy fast mode at 0.25 of a core per worker, 100 ms made the
#: efficiency swing with the level (0.46-0.80 at 25-100 clients) where 10 ms gave 0.82-0.86
#: (docs/scaleout-simulation.md, results/scaleout-simulated/).
DEFAULT_PERIOD_US = 10_000
PERIOD_RANGE_US = (1_000, 1_000_000)
#: Smallest quota the kernel accepts, microseconds.
MIN_QUOTA_US = 1_000
#: How long removing a group may wait for an exited process to leave it, seconds.
REMOVE_WAIT_S = 2.0


class CgroupUnavailable(RuntimeError):
    """No cgroup `cpu` controller this process may use; the message is one line: what and how to fix."""


class Controller:
    """The `cpu` controller found on this machine: version (1 or 2) and root (its mount path)."""

    def __init__(self, version, root):
        self.version, self.root = version, root

    def __repr__(self):
        return f"Controller(v{self.version}, {self.root})"

    # -- the version-specific file names and formats, in one place ----------
    def write_limit(self, group, quota_us, period_us):
        """Set `group`'s quota (microseconds per period; None = no limit) and period (microseconds)."""
        if self.version == 2:
            _write(os.path.join(group, "cpu.max"), f"{'max' if quota_us is None else quota_us} {period_us}")
        else:
            _write(os.path.join(group, "cpu.cfs_period_us"), str(period_us))
            _write(os.path.join(group, "cpu.cfs_quota_us"), str(-1 if quota_us is None else quota_us))

    def read_limit(self, group):
        """(quota_us or None for no limit, period_us) as the kernel has them for `group`."""
        if self.version == 2:
            quota, period = _read(os.path.join(group, "cpu.max")).split()
            return (None if quota == "max" else int(quota)), int(period)
        quota = int(_read(os.path.join(group, "cpu.cfs_quota_us")))
        return (None if quota < 0 else quota), int(_read(os.path.join(group, "cpu.cfs_period_us")))

    def read_stat(self, group):
        """{"nr_periods", "nr_throttled", "throttled_s"} of `group` since it was created."""
        stat = {}
        for line in _read(os.path.join(group, "cpu.stat")).splitlines():
            key, _, value = line.partition(" ")
            stat[key] = int(value)
        # v1 counts throttled time in nanoseconds, v2 in microseconds.
        throttled_s = stat["throttled_time"] / 1e9 if self.version == 1 else stat["throttled_usec"] / 1e6
        return {"nr_periods": stat["nr_periods"], "nr_throttled": stat["nr_throttled"],
                "throttled_s": round(throttled_s, 3)}


def detect(mounts_path="/proc/mounts"):
    """The Controller of this machine; CgroupUnavailable (one line: what and how to fix) when there is
    none this process can write to. v2 is used when its root offers `cpu`, else v1's `cpu` hierarchy
    (a controller is bound to one hierarchy at a time, so at most one of them has it)."""
    try:
        with open(mounts_path, encoding="utf-8") as f:
            mounts = [line.split() for line in f if line.strip()]
    except OSError as exc:
        raise CgroupUnavailable(f"cannot read {mounts_path} ({exc.strerror}): no cgroup CPU quota without /proc") from None
    found = None
    for fields in mounts:
        if len(fields) < 4:
            continue
        path, fstype, options = fields[1], fields[2], fields[3].split(",")
        if fstype == "cgroup2" and "cpu" in _read_or_empty(os.path.join(path, "cgroup.controllers")).split():
            found = Controller(2, path)
            break
        if fstype == "cgroup" and "cpu" in options and os.path.exists(os.path.join(path, "cpu.cfs_quota_us")):
            found = found or Controller(1, path)
    if found is None:
        raise CgroupUnavailable(
            "no cgroup cpu controller with CFS bandwidth (cpu.max or cpu.cfs_quota_us) is mounted: mount one "
            "(v2: `mount -t cgroup2 none /sys/fs/cgroup` with cpu enabled; v1: `mount -t cgroup -o cpu cgroup "
            "/sys/fs/cgroup/cpu`) or run on a host or container that has it")
    if not os.access(found.root, os.W_OK):
        raise CgroupUnavailable(
            f"{found.root} (cgroup v{found.version} cpu) is not writable by uid {os.getuid()}: run as root "
            "(sudo make bench-scaleout ...) or in a container started with a writable cgroup (e.g. --privileged)")
    return found


def quota_us(share, period_us):
    """The quota of `share` (fraction of one core, 0 < share <= 1) per period (microseconds); ValueError
    when the period is out of the kernel's range or the quota would be below its 1 ms minimum."""
    if not 0 < share <= 1:
        raise ValueError(f"core share must be in (0, 1], got {share:g}")
    lo, hi = PERIOD_RANGE_US
    if not lo <= period_us <= hi:
        raise ValueError(f"period must be {lo}-{hi} us, got {period_us}")
    quota = round(share * period_us)
    if quota < MIN_QUOTA_US:
        raise ValueError(f"core share {share:g} of a {period_us} us period is {quota} us, below the kernel's "
                         f"minimum quota of {MIN_QUOTA_US} us: raise the share or the period")
    return quota


class WorkerQuotas:
    """One repetition's groups: `workers` (1-64) groups of `share` (0 < share <= 1, fraction of one core)
    of one core each, period `period_us` microseconds, under one run group holding their sum.

    Use as a context manager: entering removes leftovers of dead runs (each named through `log`) and
    creates the groups; `admit()` moves the server's processes in once it printed READY; `report()` says
    what the kernel did; leaving removes the groups whatever happened.
    """

    def __init__(self, controller, workers, share, period_us=DEFAULT_PERIOD_US, log=print, run_id=None):
        self.controller, self.workers, self.share, self.period_us = controller, workers, share, period_us
        self.quota_us = quota_us(share, period_us)
        if workers * self.quota_us > period_us * os.cpu_count():
            raise ValueError(f"{workers} workers x {share:g} of a core is more than the machine's {os.cpu_count()} cores")
        self.log = log
        self.parent = os.path.join(controller.root, PARENT)
        self.path = os.path.join(self.parent, f"run-{run_id or os.getpid()}")
        self.admitted = []          # [{"group", "pid", "role"}] in admission order
        self._stat_before = None

    def group_path(self, name):
        return os.path.join(self.path, name)

    def group_names(self):
        return [f"worker-{i}" for i in range(self.workers)] + ["supervisor"]

    def __enter__(self):
        clean_leftovers(self.controller, log=self.log)
        if os.path.isdir(self.path):   # this very process's, from a repetition that could not clean up
            remove_group_tree(self.controller, self.path)
        try:
            self._create()
        except BaseException:
            remove_group_tree(self.controller, self.path)
            raise
        return self

    def __exit__(self, *exc):
        remove_group_tree(self.controller, self.path)
        return False

    def _create(self):
        os.makedirs(self.parent, exist_ok=True)
        if self.controller.version == 2:
            _enable_cpu(self.controller.root)
            _enable_cpu(self.parent)
        os.mkdir(self.path)
        # The run group first: v1 refuses a child quota above its parent's.
        self.controller.write_limit(self.path, self.workers * self.quota_us, self.period_us)
        if self.controller.version == 2:
            _enable_cpu(self.path)
        for name in self.group_names():
            os.mkdir(self.group_path(name))
            quota = None if name == "supervisor" else self.quota_us
            self.controller.write_limit(self.group_path(name), quota, self.period_us)
            if self.controller.read_limit(self.group_path(name)) != (quota, self.period_us):
                raise OSError(f"{self.group_path(name)}: the kernel kept {self.controller.read_limit(self.group_path(name))}, "
                              f"not quota {quota} us / period {self.period_us} us")

    def admit(self, processes):
        """Move the server's processes ([(pid, role)], bench/measure.py serving_processes: role "server",
        "supervisor" or "worker") into their groups (every thread of each) and read each back from the
        group's cgroup.procs; OSError when the kernel did not take one."""
        workers = [(pid, role) for pid, role in processes if role in ("server", "worker")]
        if len(workers) != self.workers:
            raise ValueError(f"{len(workers)} serving processes for {self.workers} worker groups")
        placed = [(f"worker-{i}", pid, role) for i, (pid, role) in enumerate(workers)]
        placed += [("supervisor", pid, role) for pid, role in processes if role == "supervisor"]
        for group, pid, role in placed:
            _write(os.path.join(self.group_path(group), "cgroup.procs"), str(pid))
            if pid not in self.pids_in(group):
                raise OSError(f"pid {pid} is not in {self.group_path(group)}/cgroup.procs after moving it there")
            self.admitted.append({"group": group, "pid": pid, "role": role})

    def pids_in(self, group):
        """The process ids in `group`'s cgroup.procs (the kernel's list)."""
        return [int(p) for p in _read(os.path.join(self.group_path(group), "cgroup.procs")).split()]

    def mark(self):
        """Start the interval report() counts throttling over (e.g. the measured sweep)."""
        self._stat_before = {name: self.controller.read_stat(self.group_path(name)) for name in self.group_names()}

    def report(self):
        """What the kernel has for each group (results/schema.json run_host.cpu_quota): quota and period read
        back, the pids in it, throttling since mark() (since creation without one)."""
        groups = []
        for name in self.group_names():
            path = self.group_path(name)
            quota, period = self.controller.read_limit(path)
            now, before = self.controller.read_stat(path), (self._stat_before or {}).get(name)
            delta = {k: round(now[k] - (before[k] if before else 0), 3) for k in now}
            groups.append({"group": name, "quota_us": quota, "period_us": period,
                           "pids": [a["pid"] for a in self.admitted if a["group"] == name], **delta})
        run_quota, _ = self.controller.read_limit(self.path)
        return {"path": self.path, "run_quota_us": run_quota, "groups": groups}

    def settings(self):
        """The quota as configured (results/schema.json server.cpu_quota)."""
        return {"core_share": self.share, "period_us": self.period_us, "quota_us": self.quota_us,
                "cgroup_version": self.controller.version,
                "cgroup_parent": self.parent}


def clean_leftovers(controller, log=print):
    """Remove every sockbench/run-<pid> group whose runner process is gone, naming each through `log`;
    groups of a runner still alive (another run) are left alone. Returns the paths removed."""
    parent = os.path.join(controller.root, PARENT)
    removed = []
    try:
        names = sorted(os.listdir(parent))
    except FileNotFoundError:
        return removed
    for name in names:
        pid = name[len("run-"):]
        if not (name.startswith("run-") and pid.isdigit()) or _alive(int(pid)):
            continue
        path = os.path.join(parent, name)
        held = sorted(_pids_below(path))
        log(f"[cgroup] removing a leftover group {path} (its run, pid {pid}, is gone"
            + (f"; moving pids {', '.join(map(str, held))} out of it" if held else "") + ")")
        remove_group_tree(controller, path)
        removed.append(path)
    return removed


def remove_group_tree(controller, path):
    """Remove the group `path` and its child groups; any process still in one is moved to the root group
    first. Waits up to REMOVE_WAIT_S for exiting processes to leave; OSError if a group stays."""
    if not os.path.isdir(path):
        return
    for child in sorted(os.listdir(path)):
        if os.path.isdir(os.path.join(path, child)):
            remove_group_tree(controller, os.path.join(path, child))
    deadline = time.monotonic() + REMOVE_WAIT_S
    while True:
        for pid in _pids_in(path):
            try:
                _write(os.path.join(controller.root, "cgroup.procs"), str(pid))
            except OSError:
                pass  # exited meanwhile
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError as exc:
            # EBUSY: an exiting process has not left yet.
            if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                raise OSError(f"cannot remove cgroup {path}: {exc.strerror}; remove it with `rmdir {path}` "
                              "once the processes in it are gone") from None
            time.sleep(0.05)


def _pids_in(path):
    return [int(p) for p in _read_or_empty(os.path.join(path, "cgroup.procs")).split()]


def _pids_below(path):
    pids = set(_pids_in(path))
    for dirpath, dirnames, _ in os.walk(path):
        for d in dirnames:
            pids.update(_pids_in(os.path.join(dirpath, d)))
    return pids


def _enable_cpu(group):
    """v2: let `group`'s children use the cpu controller (cgroup.subtree_control)."""
    if "cpu" not in _read(os.path.join(group, "cgroup.subtree_control")).split():
        _write(os.path.join(group, "cgroup.subtree_control"), "+cpu")


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _read(path):
    with open(path, encoding="ascii") as f:
        return f.read().strip()


def _read_or_empty(path):
    try:
        return _read(path)
    except OSError:
        return ""


def _write(path, text):
    # One write() per value: the cgroup files take one value per write call.
    with open(path, "w", encoding="ascii") as f:
        f.write(text)
