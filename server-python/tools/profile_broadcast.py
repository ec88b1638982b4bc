"""Where our server spends its CPU while it broadcasts at a fixed rate: the
server on one core under a sampling profiler, the Java client on the other
holding N sessions and sending RATE messages/s for a window, then two
Markdown tables (tools/profile_summary.py) and the client's verdict on the
point, so a reader sees how close to saturation the profile was taken.

The interpreter that runs this tool is the one profiled (``.venv-cpython``
or ``.venv-pypy``, as ``make profile-server PY=`` picks):

* CPython: py-spy (``--nonblocking``: the server is never paused; samples it
  could not take are counted as errors and left out), attached once the
  sessions are open and the JIT-less warm-up is over;
* PyPy: vmprof (py-spy cannot read PyPy's frames), enabled at start in
  ``tools/vmprof_server.py``; its samples cover the sessions' connect too,
  which is short beside the window.

Usage (from server-python/, the client jar built):

    ../.venv-pypy/bin/python tools/profile_broadcast.py --connections 1000 --rate 12000
    ../.venv-cpython/bin/python tools/profile_broadcast.py --connections 1000 --rate 130 --naive

The client's point times each sender's own copy of its messages (the
standard profile's RTT), not every copy: for the latency of every copy at
many sessions use ``make bench PROFILE=sessions`` (docs/sessions.md).

A profile is a measurement: run it alone on the machine, as a benchmark."""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from typing import List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from measured_server import start_server, stop_server  # noqa: E402  (puts docs/contract on sys.path)
from profile_summary import Summary, pyspy_stacks, vmprof_stacks  # noqa: E402
# The point's client flags and verdict line are shared with the bench's perf profile (kernel_profile.py).
from sockbench_contract.fixed_rate_point import client_args, point_error, point_line, window_start_s  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
JAR = os.path.join(ROOT, "client-java", "target", "sockbench-client.jar")
#: py-spy's samples per second: enough for shares to 0.5 %, cheap on the client's core.
PYSPY_RATE = 250


def parse_args(argv: List[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="profile_broadcast.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--connections", type=int, required=True, help="sessions the client holds, 1..19000")
    p.add_argument("--rate", type=float, required=True,
                   help="messages/s the clients send together (each goes to every session), > 0")
    p.add_argument("--naive", action="store_true", help="profile the server's --naive mode")
    p.add_argument("--seconds", type=float, default=15.0, help="profiled window, 5..120 s (default 15)")
    p.add_argument("--top", type=int, default=15, help="rows per table, 1..100 (default 15)")
    p.add_argument("--server-cpu", type=int, default=0, help="core of the server (default 0)")
    p.add_argument("--client-cpu", type=int, default=1, help="core of the client and the profiler (default 1)")
    p.add_argument("--keep", metavar="DIR", help="keep the raw profile and the client's result in DIR")
    args = p.parse_args(argv)
    problem = point_error(args.connections, args.rate, args.seconds)
    if problem:
        p.error(problem)
    if not 1 <= args.top <= 100:
        p.error("--top must be 1..100")
    return args


def profiler_missing() -> str:
    """Why the profiler this interpreter needs cannot run, or ''."""
    if platform.python_implementation() == "PyPy":
        try:
            import vmprof  # noqa: F401,PLC0415
        except ImportError:
            return "vmprof is not installed in this PyPy venv: run `make profile-server PY=pypy` (it installs it)"
        return ""
    if not os.path.exists(pyspy_path()):
        return "py-spy is not installed in this venv: run `make profile-server PY=cpython` (it installs it)"
    return ""


def pyspy_path() -> str:
    return os.path.join(os.path.dirname(sys.executable), "py-spy")


def client_command(args: argparse.Namespace, url: str, pid: int, out: str) -> List[str]:
    # One point at one fixed rate (sockbench_contract.fixed_rate_point).
    return (["taskset", "-c", str(args.client_cpu), "java", "-jar", JAR, "--url", url + "/broadcast",
             "--server-pid", str(pid)] + client_args(args.connections, args.rate, args.seconds) + ["--out", out])


def main(argv: List[str]) -> int:
    args = parse_args(argv)
    missing = profiler_missing()
    if missing:
        print(missing, file=sys.stderr)
        return 1
    if not os.path.exists(JAR):
        print(f"the client jar is missing ({JAR}): run `make client`", file=sys.stderr)
        return 1
    work = args.keep or tempfile.mkdtemp(prefix="profile-broadcast-")
    os.makedirs(work, exist_ok=True)
    pypy = platform.python_implementation() == "PyPy"
    raw = os.path.join(work, "profile.vmprof" if pypy else "profile.pyspy.txt")
    server_args = ["--sessions", str(args.connections + 100)] + (["--naive"] if args.naive else [])
    if pypy:
        argv_server = [sys.executable, os.path.join(HERE, "vmprof_server.py"), raw] + server_args
    else:
        argv_server = [sys.executable, "-m", "sockbench_server"] + server_args
    server = start_server(["taskset", "-c", str(args.server_cpu)] + argv_server)
    sampler = None
    try:
        result = os.path.join(work, "client.json")
        client = subprocess.Popen(client_command(args, server.url, server.pid, result),
                                  stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "client.log"), "wb"))
        if not pypy:
            # Sessions open in a second or two; the warm-up then runs: attach after both.
            time.sleep(window_start_s(args.connections))
            sampler = subprocess.Popen(["taskset", "-c", str(args.client_cpu), pyspy_path(), "record",
                                        "-p", str(server.pid), "-d", f"{args.seconds:g}", "-r", str(PYSPY_RATE),
                                        "-f", "raw", "-o", raw, "--nonblocking"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            sampler.wait(timeout=args.seconds + 60)
        code = client.wait(timeout=args.seconds + args.connections / 100 + 120)
    finally:
        if sampler is not None and sampler.poll() is None:
            sampler.kill()
        stop_server(server)  # vmprof writes its file as the server exits
    if code != 0 or not os.path.exists(raw):
        print(f"the run failed (client exit {code}; raw profile {'present' if os.path.exists(raw) else 'missing'}); "
              f"see {work}", file=sys.stderr)
        return 1
    if pypy:
        summary = Summary(vmprof_stacks(raw))
    else:
        with open(raw) as f:
            summary = Summary(pyspy_stacks(f))
    mode = "naive" if args.naive else "fast"
    print(f"### {platform.python_implementation()} {platform.python_version()}, {mode}, "
          f"{args.connections} sessions, {args.rate:g} msgs/s\n")
    print(f"{'vmprof' if pypy else 'py-spy'}, {summary.total} samples over {args.seconds:g} s; "
          f"client's point: {point_line(result)}\n")
    print(summary.self_table(args.top) + "\n")
    print("Our code on the stack:\n")
    print(summary.inclusive_table(args.top, prefix="sockbench_server/"))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
