"""bench/run_bench.py's command line: its options (what `--help` prints), parsed into one checked
RunConfig (bench/run_config.py), and the one-line refusal a usage error short of the usage gets.
bench/run_scaleout.py builds on the same parser."""

import argparse
import os
import sys

import churn
from byo_server import MODES
from run_config import OneLineRefusal, from_cli
from servers import ROOT

#: The first line of `--help`.
DESCRIPTION = "Benchmark one server, or the like-for-like matrix, REPEAT times each."

#: The client's runnable jar as `make setup-java` builds it.
DEFAULT_JAR = os.path.join(ROOT, "client-java", "target", "sockbench-client.jar")


def build_parser():
    """The command line (its usage and help are what `--help` prints)."""
    p = argparse.ArgumentParser(prog="run_bench.py", description=DESCRIPTION)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--server", metavar="NAME",
                       help="one server: a registry entry (docs/contract/server-registry.json, e.g. cpython3.12-fast) or a "
                            "short name completed by the mode (pypy -> pypy-fast, with --naive pypy-naive)")
    which.add_argument("--servers", metavar="LIST",
                       help="comma list of registry entries and groups, e.g. pypy-fast,node-naive or runtimes; "
                            "'all' = the default group (the like-for-like matrix)")
    which.add_argument("--url", metavar="URL",
                       help="bring your own server: the SockJS service URL of a broadcast server you run, "
                            "http://HOST:PORT/prefix; the runner neither starts nor stops it")
    p.add_argument("--server-pid", type=int, default=None, metavar="PID",
                   help="with --url: the server's process id on this machine, sampled for CPU and RSS "
                        "(default: none; floors are then judged from the client's side alone)")
    p.add_argument("--name", default=None, help="with --url: the server's name in the result (default byo)")
    p.add_argument("--mode", choices=MODES, default=None,
                   help="with --url: the server's broadcast algorithm group (default: not said)")
    p.add_argument("--profile", default="standard", help="client sweep profile, as the client lists them (default standard)")
    p.add_argument("--repeat", type=int, default=None,
                   help="independent repetitions per server, >= 1 (default: 3 for standard, 1 otherwise)")
    p.add_argument("--levels", default="", help="comma-separated concurrency levels, overriding the profile's")
    p.add_argument("--json", default="json", help="JSON codec for server-python: json|simplejson|ujson|orjson (default json)")
    p.add_argument("--naive", action="store_true", help="with --server SHORTNAME: the naive entry (e.g. pypy-naive)")
    p.add_argument("--transport", default="sockjs", choices=("sockjs", "raw"), help="client transport (default sockjs)")
    p.add_argument("--transports", default="websocket", metavar="MIX",
                   help="SockJS transport of each session: websocket, xhr-streaming, eventsource, xhr-polling, or a "
                        "weighted mix such as websocket:80,xhr-streaming:10,eventsource:5,xhr-polling:5; the client "
                        "checks it before any server starts (default websocket)")
    p.add_argument("--compression", default="none", metavar="none|permessage-deflate",
                   help="websocket compression: permessage-deflate (RFC 7692) offered by every client session "
                        "and enabled on every server, each of which must have it (docs/compression.md; default none)")
    p.add_argument("--host", default="127.0.0.1", help="server listen address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8080, help="server port 0-65535, 0 = any free port (default 8080)")
    p.add_argument("--heartbeat", type=float, default=25.0, help="server heartbeat, seconds (default 25)")
    p.add_argument("--server-cpu", default="0", help="CPU list for the server, taskset syntax (default 0)")
    p.add_argument("--client-cpu", default="", help="CPU list for the client (default: every core but the server's)")
    p.add_argument("--workers", type=int, default=None,
                   help="server worker processes, 1-64 (--workers; our servers only); > 1 without --broker starts "
                        "a private redis-server per repetition (default 1; with --profile sessions: per level, "
                        "ceil(N / 19000), docs/sessions.md)")
    p.add_argument("--broker", default=None, metavar="URL|private",
                   help="redis://HOST[:PORT][/DB] the server processes join, or 'private' for a fresh redis-server "
                        "per repetition on a free loopback port (default: none, or private when --workers > 1)")
    p.add_argument("--proxy", default=None, metavar="NAME",
                   help="run --workers one-worker processes, each with --broker on a port of its own, behind this "
                        "proxy on --port, routing on the SockJS session id so every transport works (haproxy; "
                        "needs --workers >= 2; docs/scaling-out.md; default: none)")
    p.add_argument("--agents", type=int, default=None,
                   help="client processes holding the connections, 1-64: N > 1 runs the client as a coordinator of "
                        "N agent processes on --client-cpu (client i on agent i mod N), through --bus (default 1: "
                        "one client process; with --profile sessions: per level, ceil(N / 19000))")
    p.add_argument("--bus", default=None, metavar="URL",
                   help="redis://HOST[:PORT][/DB] the coordinator and agents talk through (with --agents > 1; "
                        "default: a private redis-server per repetition)")
    p.add_argument("--broker-cpu", default="",
                   help="CPU list for a private redis-server, taskset syntax (default: not pinned)")
    p.add_argument("--out-dir", default=os.path.join(ROOT, "results"), help="where result files go (default results/)")
    p.add_argument("--client-jar", default=DEFAULT_JAR, help="the client's runnable jar")
    p.add_argument("--java", default=os.environ.get("JAVA", "java"), help="java executable (default $JAVA or java)")
    p.add_argument("--java-opts", default=os.environ.get("JAVA_OPTS", ""), help="extra JVM options (default $JAVA_OPTS)")
    p.add_argument("--churn", default=None, metavar="PCT",
                   help="percent of each level's sessions that close and reconnect once per second during its "
                        f"broadcast ramp, 5 or 5%%, 0 < PCT <= {churn.max_pct():g} (default: no churn); needs the "
                        "all-copies verdict (--profile sessions, or --client-args --all-copies); docs/sessions.md "
                        "\"Churn\"")
    p.add_argument("--slow-clients", default=None, metavar="PCT%:KIB",
                   help="slow readers: PCT percent of each level's sessions (0 < PCT <= 50) read at most KIB KiB/s "
                        "each (1-1000000), e.g. 10%%:64; the client checks it before any server starts (default: "
                        "none); docs/slow-readers.md")
    p.add_argument("--client-args", default=os.environ.get("CLIENT_ARGS", ""),
                   help="extra client flags, e.g. '--step 1 --rate-factor 1.5' (default $CLIENT_ARGS)")
    p.add_argument("--no-server-warmup", dest="server_warmup", action="store_false",
                   help="skip the unrecorded warm-up pass before each sweep (default: run it)")
    p.add_argument("--dry-run", action="store_true",
                   help="check the servers' knobs, print the plan and the time estimate, run nothing")
    p.add_argument("--check-usage", action="store_true",
                   help="check the command line (usage errors exit 2, with the usage or in one line) and exit 0; "
                        "make runs it before installing the servers")
    p.add_argument("--ready-timeout", type=float, default=30.0, help="seconds to wait for READY (default 30)")
    p.add_argument("--client-timeout", type=float, default=3 * 3600.0,
                   help="seconds one client run may take before it is stopped as hung (default 10800)")
    return p


def parse_args(argv, parser=None):
    """The run's settings (run_config.RunConfig) from the command line; a usage error (exit 2, with
    the usage) when they cannot run."""
    parser = parser or build_parser()
    try:
        return from_cli(parser.parse_args(argv))
    except OneLineRefusal as exc:
        refuse_in_one_line("bench", exc)
    except ValueError as exc:
        parser.error(str(exc))


def refuse_in_one_line(label, exc):
    """Print `label: exc` as the one line on stderr and exit 2 (a usage error without the usage)."""
    print(f"{label}: {exc}", file=sys.stderr)
    sys.exit(2)
