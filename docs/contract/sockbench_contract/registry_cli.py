"""What make asks the server registry (docs/contract/server-registry.json), one subcommand each.

  python3 docs/contract/sockbench_contract/registry_cli.py list
      every entry: name, mode, groups, whether it can run here, label
  python3 docs/contract/sockbench_contract/registry_cli.py installs [--quiet] [--single [--naive]] NAMES
      the make goals installing the entries NAMES selects (entry and group names,
      comma-separated; empty = the default group), one line on stderr for each
      entry skipped because something it requires is missing (--quiet: none;
      the runner says it; --single: NAMES is one server as `argv` takes it)
  python3 docs/contract/sockbench_contract/registry_cli.py argv NAME --host H --port P --heartbeat S [--json CODEC]
                                                                [--naive] [--workers N] [--broker URL|private]
                                                                [--sessions N]
      the entry's launch with the contract flags and its knobs, shell-quoted
      (NAME may be a short name completed by the mode: pypy -> pypy-fast,
      with --naive pypy-naive)
      (WORKERS/BROKER are checked against its knobs here and added by make's
      scaleout-command, which may start a private redis-server)
  python3 docs/contract/sockbench_contract/registry_cli.py requirement NAME
      the requirement check's output (e.g. an interpreter's home), or one line
      naming what is missing and exit status 1

A malformed registry or an unknown name: one line on stderr, exit status 2.
Standard library only (make runs it with the system python3).
"""

import argparse
import os
import shlex
import sys

# Run as a script by make: put docs/contract on sys.path for the package import.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sockbench_contract.registry import RegistryError, load, server_command  # noqa: E402


def _list(reg, _args):
    width = max(len(n) for n in reg.names())
    for e in reg.entries:
        why = reg.missing(e)
        state = "ok" if why is None else f"missing {why}"
        deflate = "deflate" if e.has_compression else "-"  # COMPRESSION=permessage-deflate (docs/compression.md)
        print(f"{e.name:<{width}}  {e.mode:<5}  {deflate:<7}  {','.join(e.groups):<16}  {e.label}  [{state}]")
    return 0


def _installs(reg, args):
    goals = []
    for e in ([reg.single(args.names, args.naive)] if args.single else reg.select(args.names)):
        why = reg.missing(e)
        if why:
            if not args.quiet:
                print(f"[skip] {e.name}: missing {why}", file=sys.stderr)
            continue
        goals += [g for g in e.install if g not in goals]
    print(" ".join(goals))
    return 0


def _argv(reg, args):
    e = reg.single(args.name, args.naive)
    why = reg.missing(e)
    if why:
        print(f"{e.name}: missing {why}", file=sys.stderr)
        return 1
    broker = args.broker
    if broker == "private" or (args.workers > 1 and not broker):
        broker = "redis://127.0.0.1:6379/0"  # stands in for the private one make's wrapper starts
    try:
        server_command(e, args.host, args.port, args.heartbeat, codec=args.json, workers=args.workers,
                       broker=broker)
        argv = server_command(e, args.host, args.port, args.heartbeat, codec=args.json, sessions=args.sessions,
                              compression=args.compression)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(shlex.join(argv))
    return 0


def _requirement(reg, args):
    if args.name not in reg.requirements:
        print(f"unknown requirement {args.name!r}; declared: {', '.join(reg.requirements)}", file=sys.stderr)
        return 2
    out = reg.check_requirement(args.name)
    if out is None:
        print(f"missing {reg.requirements[args.name].missing}", file=sys.stderr)
        return 1
    print(out)
    return 0


def parse_args(argv):
    p = argparse.ArgumentParser(prog="registry_cli.py", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="every entry and whether it can run here").set_defaults(run=_list)
    s = sub.add_parser("installs", help="make goals installing the selected entries")
    s.add_argument("names", nargs="?", default="", help="comma list of entry and group names (default: default)")
    s.add_argument("--quiet", action="store_true", help="no line for a skipped entry")
    s.add_argument("--single", action="store_true",
                   help="NAMES is one entry, or a short name completed by the mode (pypy -> pypy-fast)")
    s.add_argument("--naive", action="store_true", help="with --single: the naive entry of a short name")
    s.set_defaults(run=_installs)
    s = sub.add_parser("argv", help="one entry's launch, shell-quoted")
    s.add_argument("name")
    s.add_argument("--host", default="127.0.0.1", help="listen address (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8080, help="port 0-65535 (default 8080)")
    s.add_argument("--heartbeat", type=float, default=25.0, help="heartbeat, seconds > 0 (default 25)")
    s.add_argument("--json", default="json", help="JSON codec, servers with the codec knob only (default json)")
    s.add_argument("--naive", action="store_true", help="the naive entry of a short name (NAIVE=1)")
    s.add_argument("--workers", type=int, default=1, help="worker processes 1-64, checked only (default 1)")
    s.add_argument("--broker", default="", help="redis:// URL or 'private', checked only (default none)")
    s.add_argument("--sessions", type=int, default=None,
                   help="sessions the server is to hold, 1-10,000,000 (--sessions, servers with the knob only; "
                        "they refuse to start when the open-files limit is too low)")
    s.add_argument("--compression", default="none",
                   help="none|permessage-deflate: websocket compression (COMPRESSION=), servers with the knob only "
                        "(docs/compression.md; default none)")
    s.set_defaults(run=_argv)
    s = sub.add_parser("requirement", help="run one requirement's check")
    s.add_argument("name")
    s.set_defaults(run=_requirement)
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return args.run(load(), args)
    except RegistryError as exc:
        print(exc, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
