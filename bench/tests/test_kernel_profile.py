"""make profile-kernel: the perf summary (bench/perf_summary.py) of real `perf record`s of a real
process made here, and kernel_profile.py's command line. The end-to-end point (a server, the client,
perf on the server's core) is a measurement, run alone: `make profile-kernel`, not a test."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

import kernel_profile
import perf_summary
from perf_record import perf_problem

KERNEL_PROFILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "kernel_profile.py")

needs_perf = pytest.mark.skipif(shutil.which("perf") is None,
                                reason="perf is not installed: `make setup-perf` (Debian's linux-perf); "
                                       "`make test-bench` installs it")

#: A process that spends about `seconds` sending on a loopback TCP connection (so the kernel's TCP
#: send path and the loopback's receive softirq run in its context), then sleeps `idle` seconds.
WORKLOAD = textwrap.dedent("""
    import os, socket, sys, time
    seconds, idle, pid_file = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    with open(pid_file, "w") as f:
        f.write(str(os.getpid()))
    listener = socket.create_server(("127.0.0.1", 0))
    sender = socket.create_connection(listener.getsockname())
    receiver, _ = listener.accept()
    payload = b"x" * 200
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for _ in range(100):
            sender.send(payload)
        receiver.recv(1 << 20)
    time.sleep(idle)
""")


#: A node process whose hot loop V8 compiles (JIT code in anonymous memory) for about 0.3 s.
NODE_WORKLOAD = textwrap.dedent("""
    const fs = require("fs");
    fs.writeFileSync(process.argv[1], String(process.pid));
    function mix(i) { return (i * 31) ^ (i >>> 3); }
    let x = 0;
    const end = Date.now() + 300;
    while (Date.now() < end) for (let i = 0; i < 100000; i++) x = (x + mix(i)) | 0;
""")


def record(tmp_path, workload, perf_args=(), launcher=()):
    """perf record (`perf_args` added) of `workload` (an argv whose last item is where it writes its
    pid) started through `launcher` (an argv prefix that execs it, e.g. taskset); (perf.data path, pid)."""
    data = str(tmp_path / "perf.data")
    subprocess.run(["perf", "record", "-F", "999", "-g", "-o", data, *perf_args, "--", *launcher, *workload],
                   check=True, capture_output=True, timeout=60)
    with open(workload[-1]) as f:
        return data, int(f.read())


def python_workload(tmp_path, seconds, idle=0.0):
    return [sys.executable, "-c", WORKLOAD, str(seconds), str(idle), str(tmp_path / "pid")]


def top_level(rows):
    """The layer rows that add up to the total (the kernel's softirq rows are part of the kernel row)."""
    return [r for r in rows if not r[0].startswith("&nbsp;")]


@needs_perf
def test_a_process_sending_on_loopback_splits_into_kernel_runtime_and_libc(tmp_path):
    data, pid = record(tmp_path, python_workload(tmp_path, seconds=0.6))
    recording = perf_summary.Recording.read(data, [pid])
    runtime = perf_summary.Runtime.from_path(os.path.realpath(sys.executable))
    rows = perf_summary.layer_rows(recording, runtime)

    assert recording.total > 300  # ~999 a second of CPU
    assert pid in recording.server_tids
    assert sum(r[1] for r in top_level(rows)) == recording.total
    assert sum(r[2] for r in top_level(rows)) == pytest.approx(1.0)
    by_label = {r[0]: r for r in rows}
    kernel = by_label[f"server: {perf_summary.KERNEL}"]
    assert kernel[1] > 0.3 * recording.total  # send() and its loopback delivery: most of the time
    # The loopback hands each segment to the receiving socket in the sender's own softirq.
    assert recording.softirq_samples([perf_summary.NET_RX_SOFTIRQ]) > 0
    kernel_symbols = [sym for sym, _, _ in perf_summary.top_symbols(recording, True, 40)]
    assert any(sym.startswith("tcp_") for sym in kernel_symbols), kernel_symbols
    # The interpreter's own binary (python3.x or its libpython3.x) is found and named as the runtime.
    assert by_label[f"server: {perf_summary.runtime_label(runtime)}"][1] > 0
    user = perf_summary.top_symbols(recording, False, 40)
    assert any(runtime.owns(dso) for _, dso, _ in user), user
    assert "| **total** |" in perf_summary.layers_markdown(recording, runtime, 0)
    assert "`[kernel.kallsyms]`" in perf_summary.symbols_markdown(recording, True, 5, 0)


@needs_perf
def test_a_core_recorded_system_wide_names_idle_and_other_tasks_apart_from_the_server(tmp_path):
    cpu = min(os.sched_getaffinity(0))
    problem = perf_problem(cpu)
    assert problem is None, problem
    data, pid = record(tmp_path, python_workload(tmp_path, seconds=0.2, idle=0.4), perf_args=["-C", str(cpu)],
                       launcher=["taskset", "-c", str(cpu)])
    recording = perf_summary.Recording.read(data, [pid])
    runtime = perf_summary.Runtime.from_path(os.path.realpath(sys.executable))
    rows = perf_summary.layer_rows(recording, runtime)

    server = sum(r.samples for r in recording.server_rows())
    others = [r for r in top_level(rows) if not r[0].startswith("server: ")]
    assert 0 < server < recording.total  # the workload slept 0.4 s of the ~0.6 s recorded
    assert sum(r[1] for r in others) == recording.total - server
    assert all(r[0] == "idle (`swapper`)" or r[0].startswith(("other task: `", "other tasks, ")) for r in others)
    assert all(r[3] is None for r in others)  # not shares of the server's samples
    assert sum(r[2] for r in top_level(rows)) == pytest.approx(1.0)


@needs_perf
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: `make setup-node`")
@pytest.mark.parametrize("flags, named", [((), False), (("--perf-basic-prof",), True)])
def test_node_s_jit_code_is_one_layer_named_only_when_node_writes_a_perf_map(tmp_path, flags, named):
    data, pid = record(tmp_path, ["node", *flags, "-e", NODE_WORKLOAD, str(tmp_path / "pid")])
    try:
        recording = perf_summary.Recording.read(data, [pid])
    finally:
        if os.path.exists(f"/tmp/perf-{pid}.map"):
            os.remove(f"/tmp/perf-{pid}.map")  # node --perf-basic-prof writes it; perf has read it
    runtime = perf_summary.Runtime.from_path(shutil.which("node"))
    by_label = {r[0]: r[1] for r in perf_summary.layer_rows(recording, runtime)}
    jit = by_label.get(f"server: {perf_summary.JIT_NAMED if named else perf_summary.JIT_UNRESOLVED}", 0)
    assert jit > 0, by_label
    assert perf_summary.jit_samples(recording, runtime)[0 if named else 1] == jit
    assert by_label[f"server: {perf_summary.runtime_label(runtime)}"] > 0  # V8 itself: parser, compiler
    user = [sym for sym, _, _ in perf_summary.top_symbols(recording, False, 100)]
    assert (perf_summary.UNRESOLVED_SYMBOL in user) != named, user


def test_perf_missing_is_one_line_saying_how_to_install_it():
    assert perf_problem(0, perf="perf-absent-here").startswith("perf is not installed: `make profile-kernel` installs")


def run_cli(*args):
    return subprocess.run([sys.executable, KERNEL_PROFILE, *args], capture_output=True, text=True, timeout=60)


POINT = ("--server", "cpython-naive", "--connections", "50", "--rate", "4000")


def test_a_typo_is_a_usage_error():
    proc = run_cli(*POINT, "--secnds", "10")
    assert proc.returncode == 2
    assert proc.stderr.startswith("usage: kernel_profile.py")
    assert "unrecognized arguments: --secnds 10" in proc.stderr


@pytest.mark.parametrize("change, message", [
    (("--connections", "0"), "--connections must be 1..19000"),
    (("--connections", "19001"), "--connections must be 1..19000"),
    (("--rate", "0"), "--rate must be > 0"),
    (("--seconds", "4"), "--seconds must be 5..120"),
    (("--top", "101"), "--top must be 1..100"),
    (("--server", "cpython-naiv"), "--server cpython-naiv: not an entry of the server registry; choose from: "),
    (("--client-cpu", "0"), "--server-cpu and --client-cpu must differ"),
])
def test_a_value_out_of_range_is_refused_with_its_range(change, message, capsys):
    args = list(POINT)
    flag, value = change
    if flag in args:
        args[args.index(flag) + 1] = value
    else:
        args += [flag, value]
    with pytest.raises(SystemExit) as exit_:
        kernel_profile.parse_args(args)
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert message in err
    assert err.startswith("usage: kernel_profile.py")


def test_a_good_command_line_passes_the_usage_check():
    proc = run_cli(*POINT, "--check-usage")
    assert (proc.returncode, proc.stderr) == (0, "")
