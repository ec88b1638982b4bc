"""Every server of the registry, as the browser check starts it: one JSON object per line.

  python3 bench/sockjs-client-check/registry_servers.py --sockjs-url URL [--proxy haproxy]

Each line: {"name", "label", "peer", "argv"} for a server installed here, or
{"name", "label", "peer", "skip": "<why>"} for one that is not or that serves
only the websocket transports (registry `websocket_only`, e.g. the C limit
server: sockjs-client's fallbacks have nothing to talk to there). The registry
(docs/contract/server-registry.json, loaded and checked by
docs/contract/sockbench_contract/registry.py) is the one list of servers; the
launch comes from its server_command like every other caller's. Our servers
(registry `peer: false`) all take --sockjs-url (docs/protocol.md section 1), so
their /iframe.html loads the check's own copy of sockjs-client; a peer is
started as the registry says and keeps its default.

--proxy NAME: every entry with workers (registry knob `workers`) is launched
behind that proxy as 2 one-worker processes sharing a private redis-server
(docs/contract/sockbench_contract/proxy_front.py, the launch PROXY= uses); the
others are skipped with why. An unknown proxy is one line and exit 2.

Standard library only: make runs it with the system python3.
"""

import argparse
import json
import os
import shutil
import sys

# docs/contract holds the server registry's one reader (sockbench_contract.registry).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "contract"))

from sockbench_contract.proxy_front import Refusal, check_settings, front_command  # noqa: E402
from sockbench_contract.registry import ROOT, RegistryError, load, server_command  # noqa: E402

#: Processes behind the proxy: two is the fewest that shows a session kept on one of several.
PROXY_WORKERS = 2

STAMPS = os.path.join(ROOT, ".stamps")


def not_installed(registry, entry):
    """Why `entry` cannot start here (one line), or None when it can: a requirement the registry
    checks, an install stamp make has not written, or a launch program that is not there."""
    missing = registry.missing(entry)
    if missing:
        return f"missing {missing}"
    for goal in entry.install:
        if goal.startswith(STAMPS + os.sep) and not os.path.exists(goal):
            return f"not installed ({os.path.relpath(goal, ROOT)} absent: make install-server SERVER={entry.name})"
    program = entry.argv[0]
    found = os.access(program, os.X_OK) if os.sep in program else shutil.which(program)
    if not found:
        return f"not installed ({program} not found: make install-server SERVER={entry.name})"
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockjs-url", required=True, metavar="URL",
                        help="where our servers' /iframe.html should load sockjs-client from")
    parser.add_argument("--proxy", default=None, metavar="NAME",
                        help="launch every entry with workers as 2 one-worker processes behind this proxy (haproxy)")
    args = parser.parse_args(argv)
    if args.proxy is not None:
        try:
            check_settings(args.proxy, PROXY_WORKERS, "private")
        except Refusal as exc:
            print(exc, file=sys.stderr)
            return 2
    try:
        registry = load()
    except RegistryError as exc:
        print(exc, file=sys.stderr)
        return 2
    for entry in registry.entries:
        line = {"name": entry.name, "label": entry.label, "peer": entry.peer}
        why = ("serves only the websocket transports (registry websocket_only): no SockJS transport set to check"
               if entry.websocket_only else not_installed(registry, entry))
        if not why and args.proxy and not entry.has_scaleout:
            why = f"runs as one process only (no --workers/--broker): nothing to put behind {args.proxy}"
        if why:
            line["skip"] = why
        else:
            # Port 0: the check reads the port from the READY line.
            line["argv"] = server_command(entry, "127.0.0.1", 0, 25)
            if not entry.peer:
                line["argv"] += ["--sockjs-url", args.sockjs_url]
            if args.proxy:
                line["argv"] = front_command(args.proxy, PROXY_WORKERS, "private", line["argv"])
        print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
