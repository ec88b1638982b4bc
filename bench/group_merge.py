"""One repetition's result from its level groups (the sessions profile: bench/sessions.py).

The sessions profile runs each group of levels (levels that need the same number of
server workers and client agents) as its own server start and client run, so one
repetition leaves one client document and one host record per group. This turns
them into the ONE document and host record a repetition has everywhere else, so
bench/merge.py, the summary and the site read it like any other:

- `levels` are the groups' levels in the order run, each with `workers` and
  `agents` (results/schema.json v4): the processes that served and held it;
- `parameters.levels` lists them all; the other parameters must agree (they
  are one profile's), else ValueError;
- `server`, `client`, `machine`, `pinning` are the first group's (the groups
  differ there only in pids, READY's worker_pids and the agents, which the
  host record's `groups` keep per group);
- warnings are every group's, each prefixed with its levels, plus one line
  saying which levels ran on how many processes;
- the host record sums CPU seconds and wall time over the groups and keeps the
  worst steal and other-process CPU, and lists each group's own record in
  `groups` (schema run_host.groups).

Pure data in, data out (no I/O).
"""

import copy

from sessions_text import processes_text

#: Host-record fields summed over the groups (seconds, and packets dropped; None when any group's is None).
_SUMMED = ("server_cpu_s", "client_cpu_s", "wall_s", "loopback_dropped")


def _levels_text(levels):
    return ",".join(str(n) for n in levels)


def group_note(groups):
    """The warning that says which levels ran on how many processes, e.g. "sessions profile: levels
    1000,19000 on 1 server process and 1 client process; 50000 on 3 server workers (private broker)
    and 3 client agents ..."."""
    parts = [f"{_levels_text(g.levels)} on {processes_text(g.workers, g.agents)}" for g in groups]
    text = "sessions profile: levels " + "; ".join(parts) + " (each group its own server start and client run)"
    if any(g.workers > 1 for g in groups):
        text += ("; with workers, per-point server_cpu_pct and server_rss_bytes, like levels[].idle, sum every "
                 "serving process (the workers share the server's cores: together they are one server)")
    return text


def merge_group_docs(groups, docs):
    """One result document from the client documents of each group (same order as `groups`, the
    bench/sessions.py LevelGroup each was run as). ValueError when they are not one profile's run."""
    if len(groups) != len(docs) or not docs:
        raise ValueError(f"{len(docs)} documents for {len(groups)} level groups")
    first = docs[0]
    for k, doc in enumerate(docs[1:], start=2):
        a = {key: v for key, v in first["parameters"].items() if key != "levels"}
        b = {key: v for key, v in doc["parameters"].items() if key != "levels"}
        diff = sorted(key for key in set(a) | set(b) if a.get(key) != b.get(key))
        if diff:
            raise ValueError(f"level group {k} differs from group 1 in parameters: {', '.join(diff)}")
    merged = copy.deepcopy(first)
    merged["started_at"] = min(d["started_at"] for d in docs)
    merged["finished_at"] = max(d["finished_at"] for d in docs)
    merged["duration_s"] = round(sum(d["duration_s"] for d in docs), 3)
    levels, warnings = [], []
    for group, doc in zip(groups, docs):
        ran = [lv["concurrency"] for lv in doc["levels"]]
        missing = [n for n in group.levels if n not in ran]
        if missing:
            warnings.append(f"levels {_levels_text(missing)}: missing from their group's client run")
        for level in doc["levels"]:
            levels.append(dict(copy.deepcopy(level), workers=group.workers, agents=group.agents))
        prefix = f"levels {_levels_text(group.levels)}: " if len(groups) > 1 else ""
        warnings += [prefix + w for w in doc["warnings"]]
    merged["levels"] = levels
    merged["parameters"]["levels"] = [n for g in groups for n in g.levels]
    merged["warnings"] = [group_note(groups)] + warnings
    return merged


def merge_group_records(groups, records):
    """One host record for the repetition from each group's (measure.measure_once's first return
    value); a single group's record is returned as it is."""
    if len(groups) != len(records) or not records:
        raise ValueError(f"{len(records)} host records for {len(groups)} level groups")
    if len(records) == 1:
        return copy.deepcopy(records[0])
    merged = copy.deepcopy(records[0])
    merged["started_at"] = min(r["started_at"] for r in records)
    merged["finished_at"] = max(r["finished_at"] for r in records)
    for key in _SUMMED:
        values = [r.get(key) for r in records]
        merged[key] = None if None in values else round(sum(values), 3)
    merged["steal_pct"] = _worst(r.get("steal_pct") for r in records)
    merged["other_cpu_pct"] = {side: _worst((r.get("other_cpu_pct") or {}).get(side) for r in records)
                               for side in ("server_cpus", "client_cpus")}
    # Per-process and broker figures belong to one server start: they stay in the groups only.
    for key in ("workers", "server_total", "server_processes", "broker", "client_agents"):
        merged.pop(key, None)
    merged["groups"] = [dict(copy.deepcopy(r), levels=list(g.levels), workers=g.workers, agents=g.agents)
                        for g, r in zip(groups, records)]
    return merged


def _worst(values):
    nums = [v for v in values if v is not None]
    return max(nums) if nums else None
