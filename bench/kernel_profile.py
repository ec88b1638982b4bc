"""`make profile-kernel`: what a server's core spends at one fixed broadcast point, as the kernel's
sampler sees it: the kernel (TCP send path, loopback, softirq), the runtime's own binary (libpython,
libpypy, node, the limit server), libc, JIT code, and the other tasks on that core, idle included.
py-spy and vmprof (server-python's `make profile-server`) see only Python frames; perf sees all.

One repetition as the bench runner runs it (bench/measure.py's measure_once: the registry entry's
launch pinned to --server-cpu, READY checked against the entry, the unrecorded warm-up pass, the
client pinned to --client-cpu, the quiet wait and the stop), except that the client measures one
point at one fixed rate (docs/contract/sockbench_contract/fixed_rate_point.py, the point
server-python's profile takes too), and that once the point's window is under way
`perf record -C <server cpu> -F 999 -g` samples the server's core for --seconds. The summary
(bench/perf_summary.py) goes to stdout as Markdown; progress goes to stderr.

Usage (make profile-kernel SERVER=... CONNECTIONS=... RATE=... runs it with .venv-bench):
  python bench/kernel_profile.py --server cpython-naive --connections 50 --rate 4000
  python bench/kernel_profile.py --server node-naive --connections 100 --rate 2000 --seconds 20 --top 20

A profile is a measurement: run it alone on the machine, as a benchmark.
"""

import argparse
import dataclasses
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# docs/contract holds sockbench_contract (the registry, the launcher, the fixed-rate point).
sys.path.insert(0, os.path.join(HERE, "..", "docs", "contract"))

from bench_cli import build_parser as runner_parser  # noqa: E402
from cpus import available_cpus  # noqa: E402
from measure import WARMUP_PROFILE, measure_once  # noqa: E402
from perf_record import FREQUENCY_HZ, PerfRecorder, perf_problem  # noqa: E402
import perf_summary  # noqa: E402
from profiles import load_client_profiles  # noqa: E402
from run_bench import available_variants, check_installed, run_as_command  # noqa: E402
from run_config import from_cli  # noqa: E402
from servers import ROOT, entry  # noqa: E402
from sockbench_contract.fixed_rate_point import (client_args, measured_point, point_error, point_line,  # noqa: E402
                                                 sessions_missing, window_start_s)
from sockbench_contract.registry import RegistryError, load as load_registry  # noqa: E402
from sockbench_contract.server_launch import StepError  # noqa: E402

#: The client profile the point's flags override (the client's default, as server-python's profile runs).
BASE_PROFILE = "standard"


def parse_args(argv):
    """The command line, checked: a typo or a value out of range is a usage error (exit 2)."""
    p = argparse.ArgumentParser(prog="kernel_profile.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--server", required=True, metavar="NAME",
                   help="a server registry entry, as `make bench SERVERS=` takes (e.g. cpython-naive, node-naive, "
                        "limit-naive; `make servers` lists them)")
    p.add_argument("--connections", type=int, required=True, help="sessions the client holds, 1..19000")
    p.add_argument("--rate", type=float, required=True,
                   help="messages/s the clients send together (each goes to every session), > 0")
    p.add_argument("--seconds", type=float, default=15.0, help="recorded window, 5..120 s (default 15)")
    p.add_argument("--top", type=int, default=12, help="rows of each symbol table, 1..100 (default 12)")
    p.add_argument("--server-cpu", type=int, default=0, help="the server's core, recorded system-wide (default 0)")
    p.add_argument("--client-cpu", type=int, default=1, help="the client's and perf's own core (default 1)")
    p.add_argument("--keep", metavar="DIR", help="keep perf.data, the client's result and the logs in DIR")
    p.add_argument("--check-usage", action="store_true",
                   help="check the command line (usage errors exit 2) and exit 0; make runs it before installing")
    args = p.parse_args(argv)
    try:
        entry(args.server)
    except RegistryError:
        p.error(f"--server {args.server}: not an entry of the server registry; choose from: "
                f"{', '.join(load_registry().names())}")
    problem = point_error(args.connections, args.rate, args.seconds)
    if problem:
        p.error(problem)
    if not 1 <= args.top <= 100:
        p.error("--top must be 1..100")
    usable = available_cpus()
    for flag, cpu in (("--server-cpu", args.server_cpu), ("--client-cpu", args.client_cpu)):
        if cpu not in usable:
            p.error(f"{flag} {cpu}: not a CPU this process may use ({','.join(map(str, usable))})")
    if args.server_cpu == args.client_cpu:
        p.error("--server-cpu and --client-cpu must differ: the recorded core is the server's alone")
    return args


def run_config(args):
    """The runner's settings for this one repetition (bench/run_config.py), from the runner's own
    command line: its defaults for everything the point does not set. Port 0: any free port."""
    ns = runner_parser().parse_args(["--server", args.server, "--profile", BASE_PROFILE, "--port", "0",
                                     "--server-cpu", str(args.server_cpu), "--client-cpu", str(args.client_cpu),
                                     "--client-args", ""])
    # The server is to hold the point's sessions, as the sessions profile starts it (measure.py passes
    # `sessions` to a server with that knob): without it such a server keeps its default limit and
    # refuses the rest with 503.
    return dataclasses.replace(from_cli(ns), sessions=args.connections)


def git_revision():
    """The checkout's short commit, "-dirty" when tracked files differ from it; "?" outside git."""
    def git(*cmd):
        return subprocess.run(["git", "-C", ROOT, *cmd], capture_output=True, text=True, check=True).stdout.strip()
    try:
        return git("rev-parse", "--short", "HEAD") + ("-dirty" if git("status", "--porcelain", "-uno") else "")
    except (OSError, subprocess.CalledProcessError):
        return "?"


def header(args, variant, recorder, result_path, recording, began):
    """The point: server, connections, rate, the client's verdict, when, which commit; how perf saw it."""
    with open(result_path, encoding="utf-8") as f:
        server = json.load(f).get("server", {})
    named, unresolved = perf_summary.jit_samples(recording, perf_summary.Runtime.from_path(recorder.server_exe))
    if unresolved:
        # The registry's launch has no place for runtime flags such as node's --perf-basic-prof, and the
        # server starts exactly as the runner starts it: so no perf map, and the JIT code stays one row.
        jit = (f"{unresolved:,} of the server's samples fell in JIT code perf cannot name: the server runs as the "
               "registry launches it, with no runtime flag (such as node's `--perf-basic-prof`) writing a perf "
               f"map, so they are one row, \"{perf_summary.JIT_UNRESOLVED}\"")
    elif named:
        jit = f"{named:,} samples in JIT code, named through the runtime's perf map"
    else:
        jit = "no samples fell in JIT code (anonymous executable memory)"
    c = args.server_cpu
    return "\n".join([
        f"### Kernel view: {variant.name}, {args.connections:,} connections, {args.rate:g} msgs/s\n",
        f"- **server**: `{variant.name}`, {variant.label}; {server.get('runtime', '?')} "
        f"{server.get('runtime_version', '')}, pid {', '.join(map(str, recorder.server_pids))} "
        f"(`{recorder.server_exe}`) on CPU {c}",
        f"- **client's point** (CPU {args.client_cpu}, {args.connections:,} sessions, {args.rate:g} msgs/s sent, "
        f"each to every session): {point_line(result_path)}",
        f"- **recorded**: `perf record -C {c} -F {FREQUENCY_HZ} -g` for {args.seconds:g} s inside the point's window, "
        f"{recording.total:,} samples; started {began:%Y-%m-%d %H:%M} UTC, git `{git_revision()}`",
        f"- **system-wide on CPU {c}**: every task that ran on CPU {c} is sampled, so idle (`swapper`) and "
        "other processes appear: they are rows of their own, not the server's. Softirq work the kernel does "
        f"on CPU {c} counts under the task it interrupted: on loopback the server's own sends carry its copies "
        "through the receive path into the client's sockets (`net_rx_action`), work a real network would do "
        "on the receiving host",
        f"- **JIT code**: {jit}",
    ])


def summary(args, variant, recorder, result_path, recording, began, warnings):
    runtime = perf_summary.Runtime.from_path(recorder.server_exe)
    c = args.server_cpu
    parts = [header(args, variant, recorder, result_path, recording, began), "",
             f"Shares of CPU {c}'s samples by layer (the server's rows are its own threads; indented rows are "
             "part of the kernel row above them):\n",
             perf_summary.layers_markdown(recording, runtime, c), "",
             f"Top {args.top} kernel symbols of the server's samples (self):\n",
             perf_summary.symbols_markdown(recording, True, args.top, c), "",
             f"Top {args.top} user-space symbols of the server's samples (self):\n",
             perf_summary.symbols_markdown(recording, False, args.top, c)]
    notes = list(warnings)
    if recorder.past_client_s > 0.5:
        notes.append(f"perf's window ended {recorder.past_client_s:.1f} s after the client's run: "
                     "its last part is not the point")
    if notes:
        parts += ["", "Warnings:", *[f"- {n}" for n in notes]]
    return "\n".join(parts)


def _log(msg):
    print(msg, file=sys.stderr, flush=True)


def profile(args):
    """Run the point under perf and print the summary; StepError naming the step when one fails."""
    problem = perf_problem(args.server_cpu)
    if problem:
        raise StepError("perf", problem)
    config = run_config(args)
    variant = config.variants[0]
    available_variants([variant], log=_log)
    check_installed([variant], config.client_jar)
    try:
        warmup = load_client_profiles(config.java, config.client_jar).get(WARMUP_PROFILE)
    except ValueError as exc:
        raise StepError("setup", str(exc)) from exc
    work = args.keep or tempfile.mkdtemp(prefix="kernel-profile-")
    os.makedirs(work, exist_ok=True)
    result_path = os.path.join(work, "client.json")
    began = datetime.datetime.now(datetime.timezone.utc)
    with PerfRecorder(os.path.join(work, "perf.data"), args.server_cpu, str(args.client_cpu),
                      window_start_s(args.connections), args.seconds, os.path.join(work, "perf.log")) as rec:
        _, warnings = measure_once(config, variant, result_path, os.path.join(work, "server.log"),
                                   extra_client_args=client_args(args.connections, args.rate, args.seconds),
                                   warmup=warmup, log=_log, probes=[rec])
    problem = rec.problem() or (None if measured_point(result_path) else "the client measured no point")
    if problem:
        raise StepError("perf record", f"{problem}; files kept in {work}")
    short = sessions_missing(result_path, args.connections)
    if short:
        raise StepError("client", f"{short}; files kept in {work}")
    try:
        recording = perf_summary.Recording.read(rec.data_path, rec.server_pids)
    except RuntimeError as exc:
        raise StepError("perf report", f"{exc}; files kept in {work}") from exc
    print(summary(args, variant, rec, result_path, recording, began, warnings))
    if args.keep:
        _log(f"kept in {work}: perf.data (perf report -i {rec.data_path}), client.json, logs")
    else:
        shutil.rmtree(work, ignore_errors=True)


def main(argv):
    args = parse_args(argv)
    if args.check_usage:
        return 0
    return run_as_command("kernel_profile", lambda: profile(args), interrupted="server and perf stopped")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
