"""Merge N independent repetitions of one server's sweep into one result file.

Why repetitions: on a VM one sweep's saturation figure is not a stable fact
(two sweeps of the same server process, back to back, differ by up to 2x), so
a figure is only worth quoting with its spread. Each repetition is a full
client run on a fresh server process; this module turns their N result
documents into one, without losing any of them:

- every repetition's level is kept verbatim in `levels[i].runs[]`, with its
  `repetition` number (1-based, in the order they were measured);
- the level's own fields (`points`, `connected`, `end_reason`, ...) are those
  of its *median repetition* (`median_repetition`), so a reader that knows one
  sweep draws the typical one;
- `saturation` is the median repetition's saturation object plus `spread`:
  {min, median, max} of `received_per_s` over the repetitions that had one;
  `saturation_strict` (schema v2) the same, chosen on its own figures;
- the median of an even count is the lower of the two middle values: a
  figure that was measured, never an average of two, and the cautious one;
- top-level `runs[]` holds each repetition's host record (steal, load
  average, other processes' CPU on the pinned cores, process ids).

Pure data in, data out (no I/O), so the rules are tested on small documents.
"""

import copy


def median_index(values):
    """Index of the median of `values` (numbers or None), lower middle for an even count.

    None ranks below every number: a repetition with no ok point measured
    less than one that had one.
    """
    if not values:
        raise ValueError("median of no values")
    order = sorted(range(len(values)), key=lambda i: (values[i] is not None, values[i] or 0, i))
    return order[(len(values) - 1) // 2]


def spread(values):
    """{min, median, max} of the numbers in `values` (None skipped); None if there are none."""
    nums = [v for v in values if v is not None]
    if not nums:
        return None
    return {"min": min(nums), "median": nums[median_index(nums)], "max": max(nums)}


def _figure(level, key):
    sat = level.get(key)
    return None if sat is None else sat["received_per_s"]


def _summary(reps, key):
    """(median repetition's saturation object with spread, median repetition index) for one key."""
    figures = [_figure(level, key) for level in reps]
    i = median_index(figures)
    chosen = copy.deepcopy(reps[i].get(key))
    if chosen is not None and len(reps) > 1:
        chosen["spread"] = spread(figures)
    return chosen, i


def merge_level(reps, numbers):
    """One `levels[]` entry from the same level of each repetition (`numbers`: their 1-based repetition numbers)."""
    saturation, i = _summary(reps, "saturation")
    merged = {k: copy.deepcopy(v) for k, v in reps[i].items() if k not in ("runs", "saturation")}
    merged["saturation"] = saturation
    if any("saturation_strict" in level for level in reps):
        merged["saturation_strict"], _ = _summary(reps, "saturation_strict")
    merged["repetitions"] = len(reps)
    merged["median_repetition"] = numbers[i]
    merged["runs"] = [dict(repetition=n, **copy.deepcopy(level)) for n, level in zip(numbers, reps)]
    return merged


def merge_repetitions(docs, host_runs=None):
    """One result document from the documents of N repetitions of the same server and settings.

    docs: result documents in measurement order. host_runs: one dict per
    repetition for top-level `runs[]` (sockbench_contract/procfs.py's host record plus
    timing and pid), or None. ValueError if the documents are not repetitions
    of one thing (different server, runtime, codec, mode or parameters).
    """
    if not docs:
        raise ValueError("no repetitions to merge")
    first = docs[0]
    for k, doc in enumerate(docs[1:], start=2):
        for section, keys in (("server", ("name", "runtime", "codec", "mode", "peer")), ("parameters", None)):
            a, b = first[section], doc[section]
            if keys is None:
                keys = sorted(set(a) | set(b))
            diff = [key for key in keys if a.get(key) != b.get(key)]
            if diff:
                raise ValueError(f"repetition {k} differs from repetition 1 in {section}: {', '.join(diff)}")
    numbers = list(range(1, len(docs) + 1))
    merged = copy.deepcopy(first)
    merged["started_at"] = min(d["started_at"] for d in docs)
    merged["finished_at"] = max(d["finished_at"] for d in docs)
    # Repetitions of several servers are interleaved, so end minus start
    # would count the other servers' runs too: duration_s is the time spent
    # sweeping this server, the sum of its repetitions' sweeps.
    merged["duration_s"] = round(sum(d["duration_s"] for d in docs), 3)

    warnings = []
    for n, doc in zip(numbers, docs):
        prefix = f"repetition {n}: " if len(docs) > 1 else ""
        warnings += [prefix + w for w in doc["warnings"]]
    levels = []
    for position, level in enumerate(first["levels"]):
        n_clients = level["concurrency"]
        reps, nums = [], []
        for n, doc in zip(numbers, docs):
            match = [lv for lv in doc["levels"] if lv["concurrency"] == n_clients]
            if match:
                reps.append(match[0])
                nums.append(n)
            else:
                warnings.append(f"level {n_clients}: missing from repetition {n}")
        merged_level = merge_level(reps, nums)
        if len(docs) > 1 and merged_level["saturation"] is not None:
            empty = [n for n, lv in zip(nums, reps) if lv.get("saturation") is None]
            if empty:
                warnings.append(f"level {n_clients}: repetition(s) {', '.join(map(str, empty))} had no ok point; "
                                "the spread is over the others")
        levels.append(merged_level)
    merged["levels"] = levels
    merged["warnings"] = warnings
    if host_runs is not None:
        if len(host_runs) != len(docs):
            raise ValueError(f"{len(host_runs)} host records for {len(docs)} repetitions")
        merged["runs"] = [dict(repetition=n, **copy.deepcopy(h)) for n, h in zip(numbers, host_runs)]
    return merged
