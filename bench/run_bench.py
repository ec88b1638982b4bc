"""One benchmark run end to end: start a server pinned to its cores, wait for
READY, run the Java client pinned to the other cores, stop the server, and
leave one result file in results/.

Every step has a name; a failure stops the run with `[step] why` on stderr and
exit status 1, and the server is stopped whatever happens (context manager,
plus SIGTERM/SIGINT turned into an exception so `finally` runs).

Usage (the Makefile's bench-* targets call this):
  python3 bench/run_bench.py --server pypy --profile quick
"""

import argparse
import datetime
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cpus import available_cpus, default_client_cpus, format_cpu_list, parse_cpu_list  # noqa: E402
from server_process import ServerProcess, StepError  # noqa: E402
from servers import ROOT, SPECS, server_command  # noqa: E402

PROFILES = ("smoke", "quick", "standard", "legacy", "full")
DEFAULT_JAR = os.path.join(ROOT, "client-java", "target", "sockbench-client.jar")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="run_bench.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--server", required=True, choices=sorted(SPECS), help="which server to benchmark")
    p.add_argument("--profile", default="standard", choices=PROFILES, help="client sweep profile (default standard)")
    p.add_argument("--levels", default="", help="comma-separated concurrency levels, overriding the profile's")
    p.add_argument("--json", default="json", help="JSON codec for server-python: json|simplejson|ujson|orjson (default json)")
    p.add_argument("--naive", action="store_true", help="server-python's naive broadcast mode")
    p.add_argument("--transport", default="sockjs", choices=("sockjs", "raw"), help="client transport (default sockjs)")
    p.add_argument("--host", default="127.0.0.1", help="server listen address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8080, help="server port 0-65535, 0 = any free port (default 8080)")
    p.add_argument("--heartbeat", type=float, default=25.0, help="server heartbeat, seconds (default 25)")
    p.add_argument("--server-cpu", default="0", help="CPU list for the server, taskset syntax (default 0)")
    p.add_argument("--client-cpu", default="", help="CPU list for the client (default: every core but the server's)")
    p.add_argument("--out-dir", default=os.path.join(ROOT, "results"), help="where the result file goes (default results/)")
    p.add_argument("--client-jar", default=DEFAULT_JAR, help="the client's runnable jar")
    p.add_argument("--java", default=os.environ.get("JAVA", "java"), help="java executable (default $JAVA or java)")
    p.add_argument("--java-opts", default=os.environ.get("JAVA_OPTS", ""), help="extra JVM options (default $JAVA_OPTS)")
    p.add_argument("--client-args", default=os.environ.get("CLIENT_ARGS", ""),
                   help="extra client flags, e.g. '--step 1 --rate-factor 1.5' (default $CLIENT_ARGS)")
    p.add_argument("--no-server-warmup", dest="server_warmup", action="store_false",
                   help="skip the unrecorded warm-up pass before the sweep (default: run it)")
    p.add_argument("--ready-timeout", type=float, default=30.0, help="seconds to wait for READY (default 30)")
    p.add_argument("--client-timeout", type=float, default=3 * 3600.0,
                   help="seconds the client may run before it is stopped as hung (default 10800)")
    args = p.parse_args(argv)
    if not 0 <= args.port <= 65535:
        p.error("--port must be in 0-65535")
    try:
        args.server_cpus = parse_cpu_list(args.server_cpu)
        args.client_cpus = parse_cpu_list(args.client_cpu) if args.client_cpu else None
    except ValueError as exc:
        p.error(str(exc))
    return args


def result_path(out_dir, fields, when):
    """results/<date>-<server>-<runtime>-<codec>-<mode>.json, never overwriting an earlier run."""
    parts = [when.strftime("%Y-%m-%d"), fields.get("server", "unknown"), fields.get("runtime", "unknown"),
             fields.get("codec", "na"), fields.get("mode", "na")]
    base = os.path.join(out_dir, "-".join(parts))
    path, n = base + ".json", 2
    while os.path.exists(path):
        path, n = f"{base}-{n}.json", n + 1
    return path


def check_installed(spec, jar):
    """Stop early, naming what to run, when `make setup` has not produced something we need."""
    exe = spec.argv[0]
    if os.path.isabs(exe) and not os.path.exists(exe):
        raise StepError("setup", f"{exe} is missing: run `make setup`")
    if not os.path.exists(jar):
        raise StepError("setup", f"client jar {jar} is missing: run `make setup`")


def client_command(args, server, spec, out_path, client_cpus):
    cmd = ["taskset", "-c", format_cpu_list(client_cpus), args.java]
    cmd += shlex.split(args.java_opts)
    cmd += ["-jar", args.client_jar,
            "--url", f"{server.url}/broadcast",
            "--transport", args.transport,
            "--profile", args.profile,
            "--out", out_path,
            "--server-pid", str(server.pid),
            "--server-ready", server.ready_line]
    if args.levels:
        cmd += ["--levels", args.levels]
    if spec.peer:
        cmd.append("--peer")
    cmd += shlex.split(args.client_args)
    return cmd


# A short unrecorded sweep before the measured one, for every server alike:
# PyPy's JIT (and the client's own JVM JIT) compile the broadcast path on the
# first few thousand messages, which otherwise shows up as inflated latency in
# the first points of the first level. Its output is thrown away.
WARMUP_ARGS = ["--levels", "50", "--start-rate", "200", "--rate-factor", "2", "--max-rate", "3200",
               "--step", "1", "--settle", "0.2", "--warmup", "0.5"]


def warm_up(args, server, client_cpus, out_dir):
    cmd = ["taskset", "-c", format_cpu_list(client_cpus), args.java, *shlex.split(args.java_opts),
           "-jar", args.client_jar, "--url", f"{server.url}/broadcast", "--transport", args.transport,
           "--out", os.path.join(out_dir, "warmup.json"), *WARMUP_ARGS]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, timeout=120)
    if proc.returncode != 0:
        raise StepError("warm up", f"warm-up pass failed (status {proc.returncode}): {proc.stderr[-2000:]}")


def _raise_on_signal(signum, _frame):
    raise KeyboardInterrupt(f"signal {signum}")


def run(args):
    spec = SPECS[args.server]
    check_installed(spec, args.client_jar)
    cpus = available_cpus()
    client_cpus = args.client_cpus or default_client_cpus(args.server_cpus, cpus)
    if set(client_cpus) & set(args.server_cpus):
        print(f"warning: server CPUs {format_cpu_list(args.server_cpus)} and client CPUs "
              f"{format_cpu_list(client_cpus)} overlap: they compete for CPU (recorded in the result)",
              file=sys.stderr)
    try:
        argv = server_command(spec, args.host, args.port, args.heartbeat,
                              codec=args.json if spec.has_codec else None, naive=args.naive)
    except ValueError as exc:
        raise StepError("start server", str(exc)) from exc

    os.makedirs(args.out_dir, exist_ok=True)
    log_path = os.path.join(args.out_dir, f"{args.server}.server.log")
    when = datetime.datetime.now(datetime.timezone.utc)
    print(f"[start server] {' '.join(argv)} on CPU {format_cpu_list(args.server_cpus)}", file=sys.stderr)
    with ServerProcess(argv, args.server_cpus, log_path, args.ready_timeout) as server:
        print(f"[wait for READY] {server.ready_line}", file=sys.stderr)
        if args.server_warmup:
            print("[warm up] unrecorded warm-up pass (50 clients, 200-3200 msgs/s, ~6 s)", file=sys.stderr)
            with tempfile.TemporaryDirectory() as scratch:
                warm_up(args, server, client_cpus, scratch)
        out_path = result_path(args.out_dir, server.fields, when)
        cmd = client_command(args, server, spec, out_path, client_cpus)
        print(f"[run client] CPU {format_cpu_list(client_cpus)}: {shlex.join(cmd[3:])}", file=sys.stderr)
        started = time.monotonic()
        try:
            code = subprocess.run(cmd, stdin=subprocess.DEVNULL, timeout=args.client_timeout).returncode
        except subprocess.TimeoutExpired as exc:
            raise StepError("run client", f"client still running after {args.client_timeout:g} s; stopped") from exc
        if server.proc.poll() is not None:
            raise StepError("run client", f"the server exited (status {server.proc.returncode}) during the run"
                            + server._log_tail())
        if code != 0:
            raise StepError("run client", f"client exited with status {code}")
        if not os.path.exists(out_path):
            raise StepError("run client", f"client exited 0 but wrote no {out_path}")
        print(f"[run client] done in {time.monotonic() - started:.0f} s", file=sys.stderr)
    print(f"[stop server] stopped cleanly; server log: {log_path}", file=sys.stderr)
    print(out_path)
    return out_path


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, _raise_on_signal)
    try:
        run(args)
    except StepError as exc:
        print(f"bench failed: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:
        print(f"bench interrupted ({exc or 'SIGINT'}); server stopped", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
