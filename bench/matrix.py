"""What `make bench` runs, in which order, and what each repetition is told.

The like-for-like matrix: every runtime with both broadcast algorithms, so a
comparison between runtimes can hold the algorithm fixed —

- `fast`: JSON encoded once per broadcast, messages of one loop turn coalesced
  into one frame per session (our server-python; server-node's fast path);
- `naive`: one encode and one frame per message per recipient (server-python
  `--naive`; sockjs-node as its own test server does; the sockjs-tornado peer,
  which has only this).

Repetitions are interleaved (A B C ..., A B C ...), so a slow drift of the
machine during the session hits every server alike instead of whichever ran
last.
"""

import dataclasses


@dataclasses.dataclass(frozen=True)
class Variant:
    name: str     # what SERVERS= takes, e.g. "pypy-naive"
    kind: str     # the launch spec in bench/servers.py SPECS
    naive: bool   # pass --naive


# Fast row first, then naive, then the peers: the order runs start in.
MATRIX = (
    Variant("pypy-fast", "pypy", False),
    Variant("cpython-fast", "cpython", False),
    Variant("node-fast", "node", False),
    Variant("pypy-naive", "pypy", True),
    Variant("cpython-naive", "cpython", True),
    Variant("node-naive", "node", True),
    Variant("sockjs-tornado-cpython", "peer-sockjs-tornado-cpython", False),
    Variant("sockjs-tornado-pypy", "peer-sockjs-tornado-pypy", False),
)
BY_NAME = {v.name: v for v in MATRIX}


def select(names):
    """Variants named in a comma list (SERVERS=), in the list's order; all of MATRIX for an empty list.

    ValueError naming the unknown entries and the valid ones.
    """
    wanted = [n.strip() for n in names.split(",") if n.strip()] if names else []
    if not wanted:
        return list(MATRIX)
    unknown = [n for n in wanted if n not in BY_NAME]
    if unknown:
        raise ValueError(f"unknown server(s) {', '.join(unknown)}; choose from: {', '.join(BY_NAME)}")
    seen, out = set(), []
    for n in wanted:
        if n not in seen:
            seen.add(n)
            out.append(BY_NAME[n])
    return out


def single(kind, naive):
    """The variant for one `make bench-<kind>` target (NAIVE=1 -> naive)."""
    for v in MATRIX:
        if v.kind == kind and v.naive == bool(naive):
            return v
    return Variant(f"{kind}-naive" if naive else kind, kind, bool(naive))


def interleave(variants, repeat):
    """[(repetition, variant), ...]: every variant once per round, `repeat` rounds."""
    if repeat < 1:
        raise ValueError(f"repeat must be >= 1, got {repeat}")
    return [(r, v) for r in range(1, repeat + 1) for v in variants]


# A repetition after the first starts each level at this fraction of the
# target rate where the first repetition saturated: low enough that its first
# point is ok even on a slower pass of a drifting VM (the spread seen here is
# up to 2x), high enough to skip the climb from the profile's start rate.
REPEAT_START_FRACTION = 0.5


def level_start_rates(first_doc, profile):
    """{concurrency: start rate} for later repetitions, from the first repetition's result.

    Levels without a saturation figure are left out (they start at the
    profile's start rate); no rate goes below the profile's start_rate or
    above its max_rate.
    """
    lo, hi = float(profile["start_rate"]), float(profile["max_rate"])
    rates = {}
    for level in first_doc["levels"]:
        sat = level.get("saturation")
        if sat:
            rates[level["concurrency"]] = min(hi, max(lo, REPEAT_START_FRACTION * sat["target_rate"]))
    return rates


def format_level_start_rates(rates):
    """The client's `--level-start-rates` value: "25:1200,100:300"."""
    return ",".join(f"{n}:{rate:.6g}" for n, rate in sorted(rates.items()))
