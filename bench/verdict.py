"""The verdict sentences of result files, for `make compare`.

The rule (rank only where the min-max ranges do not overlap, "within noise"
where they do, "≥" for floors, missing runs named, the registry's `limit`
servers named as the machine's ceiling instead of ranked) has one implementation:
site/src/js/verdict.js, which the summary page runs in the browser so the
reader can pick the level. This module runs the same code through
site/tools/verdict-cli.js with Node, so the page and the Markdown always say
the same thing; the script reads the limit group from
docs/contract/server-registry.json as the site build does. It needs nothing but `node` (>= 18) on PATH, which the kit
already requires for server-node and the site.
"""

import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERDICT_CLI = os.path.join(ROOT, "site", "tools", "verdict-cli.js")
#: Seconds the Node process may take; it reads a few files and prints a few lines.
TIMEOUT_S = 60


class VerdictUnavailable(Exception):
    """The sentences cannot be computed: the message says what is missing and how to fix it."""


def verdict_sentences(paths, level=None):
    """One sentence per algorithm group of the result files `paths`, judged at `level`
    concurrent clients (an int >= 1; None = per group, the highest level where every run
    has a figure). Raises VerdictUnavailable when Node is missing or the script fails."""
    node = shutil.which("node")
    if node is None:
        raise VerdictUnavailable("the verdict needs Node >= 18 ('node' not found): install nodejs (Debian: "
                                 "apt-get install nodejs), then run make compare again")
    args = [node, VERDICT_CLI] + (["--level", str(level)] if level is not None else []) + list(paths)
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired as exc:
        raise VerdictUnavailable(f"{VERDICT_CLI} took more than {TIMEOUT_S} s") from exc
    if done.returncode != 0:
        raise VerdictUnavailable(done.stderr.strip() or f"{VERDICT_CLI} exited {done.returncode}")
    return [line for line in done.stdout.splitlines() if line.strip()]
