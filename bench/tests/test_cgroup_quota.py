"""The CPU quota module: which controller it finds (from a mount table), and on this machine's real
cgroup `cpu` controller: groups created with the quota the kernel reads back, processes moved in,
groups removed after an error, a dead run's leftover named and removed, a busy process throttled."""

import os
import subprocess
import sys
import textwrap
import time

import pytest

from cgroup_quota import CgroupUnavailable, WorkerQuotas, detect, quota_us
from sockbench_contract.procfs import cpu_seconds

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _mounts(tmp_path, lines):
    path = tmp_path / "mounts"
    path.write_text("".join(f"{line}\n" for line in lines))
    return str(path)


def _fake_hierarchy(root, files):
    root.mkdir(parents=True)
    for name, text in files.items():
        (root / name).write_text(text)
    return str(root)


def test_v2_is_used_when_its_root_offers_cpu(tmp_path):
    v2 = _fake_hierarchy(tmp_path / "unified", {"cgroup.controllers": "cpuset cpu io memory pids\n"})
    v1 = _fake_hierarchy(tmp_path / "cpu", {"cpu.cfs_quota_us": "-1\n"})
    found = detect(_mounts(tmp_path, [f"cgroup {v1} cgroup rw,relatime,cpu 0 0", f"cgroup2 {v2} cgroup2 rw 0 0"]))
    assert (found.version, found.root) == (2, v2)


def test_v1_cpu_hierarchy_when_v2_does_not_offer_cpu(tmp_path):
    v2 = _fake_hierarchy(tmp_path / "unified", {"cgroup.controllers": "hugetlb\n"})
    v1 = _fake_hierarchy(tmp_path / "cpu", {"cpu.cfs_quota_us": "-1\n"})
    other = _fake_hierarchy(tmp_path / "memory", {})
    found = detect(_mounts(tmp_path, [f"cgroup2 {v2} cgroup2 rw 0 0", f"cgroup {other} cgroup rw,memory 0 0",
                                      f"cgroup {v1} cgroup rw,relatime,cpu 0 0"]))
    assert (found.version, found.root) == (1, v1)


def test_no_cpu_controller_is_one_line_naming_the_fix(tmp_path):
    v2 = _fake_hierarchy(tmp_path / "unified", {"cgroup.controllers": "memory\n"})
    with pytest.raises(CgroupUnavailable) as err:
        detect(_mounts(tmp_path, [f"cgroup2 {v2} cgroup2 rw 0 0", "proc /proc proc rw 0 0"]))
    text = str(err.value)
    assert "\n" not in text and "no cgroup cpu controller" in text and "mount" in text


def test_quota_is_the_share_of_the_period_within_the_kernels_limits():
    assert quota_us(0.25, 100_000) == 25_000
    assert quota_us(1, 1_000) == 1_000
    for share, period in ((0, 100_000), (1.01, 100_000), (0.25, 999), (0.25, 1_000_001), (0.005, 100_000)):
        with pytest.raises(ValueError):
            quota_us(share, period)


# -- on this machine's real controller ----------------------------------------------------------

def _controller():
    try:
        return detect()
    except CgroupUnavailable as exc:
        pytest.skip(f"no usable cgroup cpu controller here: {exc}")


def _cgroup_of(pid, controller):
    """The cgroup path of `pid` in the controller's hierarchy, from /proc/PID/cgroup."""
    with open(f"/proc/{pid}/cgroup") as f:
        for line in f:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            if (controller.version == 2 and controllers == "") or "cpu" in controllers.split(","):
                return path
    return None


def test_each_process_is_in_its_group_and_the_quota_reads_back():
    controller = _controller()
    procs = [subprocess.Popen(["sleep", "30"]) for _ in range(3)]
    try:
        with WorkerQuotas(controller, 2, 0.25, 100_000, log=lambda _: None) as quotas:
            quotas.admit([(procs[0].pid, "supervisor"), (procs[1].pid, "worker"), (procs[2].pid, "worker")])
            assert quotas.pids_in("worker-0") == [procs[1].pid]
            assert quotas.pids_in("worker-1") == [procs[2].pid]
            assert quotas.pids_in("supervisor") == [procs[0].pid]
            rel = os.path.relpath(quotas.path, controller.root)
            assert _cgroup_of(procs[2].pid, controller) == f"/{rel}/worker-1"
            report = quotas.report()
            limits = {g["group"]: (g["quota_us"], g["period_us"]) for g in report["groups"]}
            assert limits == {"worker-0": (25_000, 100_000), "worker-1": (25_000, 100_000),
                              "supervisor": (None, 100_000)}
            assert report["run_quota_us"] == 50_000
            assert controller.read_limit(quotas.group_path("worker-0")) == (25_000, 100_000)
            path = quotas.path
        assert not os.path.exists(path)
    finally:
        for p in procs:
            p.kill()
            p.wait()


def test_groups_are_removed_after_an_error_with_processes_still_inside():
    controller = _controller()
    proc = subprocess.Popen(["sleep", "30"])
    try:
        with pytest.raises(RuntimeError, match="boom"):
            with WorkerQuotas(controller, 1, 0.5, 100_000, log=lambda _: None) as quotas:
                quotas.admit([(proc.pid, "server")])
                path = quotas.path
                raise RuntimeError("boom")
        assert not os.path.exists(path)
        assert proc.poll() is None  # still running, moved back to the root group
        assert _cgroup_of(proc.pid, controller) == "/"
    finally:
        proc.kill()
        proc.wait()


def test_a_dead_runs_leftover_group_is_named_and_removed_by_the_next_run():
    controller = _controller()
    # A run that dies between creating its groups and removing them (os._exit skips every cleanup).
    script = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {BENCH_DIR!r})
        from cgroup_quota import WorkerQuotas, detect
        q = WorkerQuotas(detect(), 2, 0.25, log=lambda _: None)
        q.__enter__()
        print(q.path, flush=True)
        os._exit(0)
    """)
    leftover = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              timeout=30).stdout.strip()
    assert os.path.isdir(os.path.join(leftover, "worker-1"))
    said = []
    with WorkerQuotas(controller, 1, 0.25, log=said.append):
        assert not os.path.exists(leftover)
    assert any("leftover" in line and leftover in line for line in said), said


def test_a_busy_process_is_throttled_to_its_share():
    """A busy loop under 10 % of a core for ~1.5 s: the kernel throttles it in most periods and it gets
    about its share (bounded: well under half a core; loosely, other load may slow it further)."""
    controller = _controller()
    busy = subprocess.Popen([sys.executable, "-c", "import time\nend = time.monotonic() + 30\n"
                             "while time.monotonic() < end: pass"])
    try:
        with WorkerQuotas(controller, 1, 0.1, 100_000, log=lambda _: None) as quotas:
            quotas.admit([(busy.pid, "server")])
            quotas.mark()
            cpu_before, t0 = cpu_seconds(busy.pid), time.monotonic()
            time.sleep(1.5)
            used, wall = cpu_seconds(busy.pid) - cpu_before, time.monotonic() - t0
            worker = next(g for g in quotas.report()["groups"] if g["group"] == "worker-0")
    finally:
        busy.kill()
        busy.wait()
    assert worker["nr_throttled"] >= 5, worker
    assert worker["throttled_s"] > 0
    assert used / wall < 0.3, (used, wall)



