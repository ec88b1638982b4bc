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

import functools

from sockbench_contract.registry import load


@functools.lru_cache(maxsize=None)
def registry():
    """The server registry (docs/contract/server-registry.json), read once; RegistryError if it is malformed.
    Its entries are the variants: each names one server in one broadcast mode, and its default
    group, in the registry's order (fast row first, then naive, then the peers), is what
    `make bench` runs."""
    return load()


def select(names):
    """Entries named in a comma list of entry and group names (SERVERS=), in the list's order; the
    default group for an empty list or "all".

    ValueError (registry.RegistryError) naming the unknown entries and the valid ones.
    """
    return registry().select(names)


def single(name, naive):
    """The entry for one `make bench-<name>` target: an entry name, or a short name (`pypy`,
    `node`) completed by the mode (NAIVE=1 -> `pypy-naive`)."""
    return registry().single(name, naive)


def interleave(variants, repeat):
    """[(repetition, variant), ...]: every variant once per round, `repeat` rounds."""
    if repeat < 1:
        raise ValueError(f"repeat must be >= 1, got {repeat}")
    return [(r, v) for r in range(1, repeat + 1) for v in variants]


def level_start_rates(first_doc, profile):
    """{concurrency: start rate} for later repetitions, from the first repetition's result.

    A level starts at the profile's `later_repetition_start_fraction` (the
    client's profile table says why its value) of the target rate where the
    first repetition saturated. Levels without a saturation figure are left out
    (they start at the profile's start rate); no rate goes below the profile's
    start_rate or above the level's cap: the client's ceiling / N when the level
    had one (`client_ceiling_per_s`, bench/client_ceiling.py), else max_rate.
    A profile whose fraction is null (the sessions profile: every repetition climbs
    the same grid from the start rate) gets none: {}.
    """
    if profile.get("later_repetition_start_fraction") is None:
        return {}
    fraction = float(profile["later_repetition_start_fraction"])
    lo = float(profile["start_rate"])
    rates = {}
    for level in first_doc["levels"]:
        sat = level.get("saturation")
        if sat:
            ceiling = level.get("client_ceiling_per_s")
            hi = ceiling / level["concurrency"] if ceiling else float(profile["max_rate"])
            rates[level["concurrency"]] = min(hi, max(lo, fraction * sat["target_rate"]))
    return rates


def format_level_start_rates(rates):
    """The client's `--level-start-rates` value: "25:1200,100:300"."""
    return ",".join(f"{n}:{rate:.6g}" for n, rate in sorted(rates.items()))
