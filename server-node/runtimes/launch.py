"""`python3 server-node/runtimes/launch.py NAME [--json]`: a server registry
entry's launch, shell-quoted as the conformance suite's SOCKBENCH_SERVER_CMD
takes it (--json: as a JSON array, for the Node tests):
the entry's argv plus --naive for a naive entry, without the contract flags
(the suite adds --port 0 and the flags each case needs). The registry
(docs/contract/server-registry.json) stays the one place that says how a server starts.

An unknown name or a malformed registry: one line on stderr, exit status 2.
Standard library only (make runs it with the system python3)."""

import json
import os
import shlex
import sys

# Run as a script by make: docs/contract holds the registry's one reader.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "contract"))

from sockbench_contract.registry import RegistryError, load  # noqa: E402


def launch(entry):
    """The argv that starts `entry` in its broadcast mode, before any contract flag."""
    return list(entry.argv) + (["--naive"] if entry.naive else [])


def main(argv):
    as_json = argv[1:] == ["--json"]
    if len(argv) != 1 + as_json:
        print("usage: launch.py NAME [--json] (a server registry entry, e.g. bun-fast)", file=sys.stderr)
        return 2
    try:
        entry = load().entry(argv[0])
    except RegistryError as exc:
        print(f"launch.py: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(launch(entry)) if as_json else shlex.join(launch(entry)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
