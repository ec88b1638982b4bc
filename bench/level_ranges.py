"""What every comparison of result files stands on: a level's saturation as a median with its min-max
range over repetitions, and the one rule that calls a difference (`verdict`: only where the ranges do not
overlap, and never with a floor below). Shared by the throughput comparison (compare.py), the fan-out
ranking of sessions runs (compare_sessions.py), the saturation tables (saturation_tables.py) and the
session kinds' costs (session_kind_costs.py)."""

import math

from floors import NOT_SAMPLED_NOTE, WHOLE_CORE, level_floor_reasons, limit_notes, saturation_field
from results_io import scale_out_tag


def levels_by_concurrency(doc):
    return {level["concurrency"]: level for level in doc["levels"]}


def level_range(level, server=WHOLE_CORE, figure="received_per_s"):
    """{median, min, max, runs, client_bound, floor, limit} of a level's saturation received/s; None without
    a figure. floor: bench/floors.py's reasons ([]: the server's limit); limit: its own-limit label ([]: none).

    A file without repetitions (or with one) has min = max = median and runs = 1. server:
    floors.server_view of the level's file (sampled or not, and the CPU it could use).

    figure: which number of the saturation object is ranged. received_per_s, the headline, has its range in
    the file (`spread`). Another (sent_per_s: broadcasts/s) is the median repetition's, the repetition the
    headline chose, and ranges over every repetition's own saturation object, as `spread` does; a repetition
    without it falls back to its saturation point (floors.saturation_field), and None is returned when the
    median repetition has it nowhere. Floors and labels are the level's whatever the figure: one verdict
    on a level, however its saturation is said.
    """
    sat = level.get("saturation") if level else None
    if not sat:
        return None
    runs = level.get("runs") or [level]
    if figure == "received_per_s":
        median = sat["received_per_s"]
        spread = sat.get("spread") or {"min": median, "max": median}
    else:
        median = saturation_field(level, figure)
        if median is None:
            return None
        values = [v for v in (saturation_field(r, figure) for r in runs if r.get("saturation")) if v is not None]
        spread = {"min": min(values + [median]), "max": max(values + [median])}
    return {"median": median, "min": spread["min"], "max": spread["max"],
            "runs": level.get("repetitions", 1),
            "client_bound": any((r.get("saturation") or {}).get("client_bound") for r in runs),
            "floor": level_floor_reasons(level, server), "limit": limit_notes(level, server)}


def verdict(ra, rb):
    """How B stands against A: 'within noise' when the min-max ranges overlap, else 'B higher'/'B lower';
    'single run' when either side has one repetition (no range to judge by); '—' without figures."""
    if ra is None or rb is None:
        return "—"
    if ra["runs"] < 2 or rb["runs"] < 2:
        return "single run: noise unknown"
    if ra["min"] <= rb["max"] and rb["min"] <= ra["max"]:
        return "within noise"
    lower, name = (ra, "A") if rb["min"] > ra["max"] else (rb, "B")
    if lower.get("floor"):
        return f"{name} is a floor: no verdict"
    return "B higher" if rb["min"] > ra["max"] else "B lower"


def median_ratio(ra, rb):
    return rb["median"] / ra["median"] if ra and rb and ra["median"] else None


def bounded_ratio(ra, rb):
    """B's median over A's as far as floors allow: (ratio, mark), mark "" for a plain ratio, "≥" when B is a
    floor (B could only be higher), "≤" when A is one (the ratio could only be lower); None when either has no
    figure, A's median is 0, or both are floors (then the ratio is unknown, not a number)."""
    ratio = median_ratio(ra, rb)
    if ratio is None or (ra["floor"] and rb["floor"]):
        return None
    return ratio, "≥" if rb["floor"] else "≤" if ra["floor"] else ""


def round_bound(value, mark, scale):
    """`value` to the nearest 1/`scale`, rounded away from the claim a bound makes ("≥" down, "≤" up) so
    rounding never overstates it; half up for a plain figure (mark ""), as the site's Math.round."""
    if mark == "≥":
        return math.floor(value * scale) / scale
    if mark == "≤":
        return math.ceil(value * scale) / scale
    return math.floor(value * scale + 0.5) / scale


def runs_note(doc, name):
    reps = max((lv.get("repetitions", 1) for lv in doc["levels"]), default=1)
    return f"{name}: {doc['label']} ({doc['run_id']}; " + (
        f"median of {reps} repetitions)" if reps > 1 else "a single run: no spread, differences cannot be told from noise)")


def floor_notes(named_levels):
    """One line per floor figure: which run, which level, why (bench/floors.py); one per figure that was
    the server's own limit below full CPU, with its label; one line per run whose server was not sampled.
    named_levels: [(name, {concurrency: level}, floors.server_view of its file)]."""
    notes = []
    for name, levels, server in named_levels:
        if not server.sampled:
            notes.append(f"{name}: {NOT_SAMPLED_NOTE}.")
        for n in sorted(levels):
            reasons = level_floor_reasons(levels[n], server)
            if reasons and levels[n].get("saturation"):
                notes.append(f"≥ {name} at {n} clients is a floor: {'; '.join(reasons)}.")
            if levels[n].get("saturation"):
                notes += [f"{name} at {n} clients: {note}." for note in limit_notes(levels[n], server)]
    return ([""] + notes) if notes else []


def run_name(doc):
    """The name `make bench SERVERS=` uses for this run: its registry entry (server.entry, e.g.
    `cpython3.12-fast`, docs/contract/server-registry.json) when the file records one; for older files
    `<runtime>-<mode>` (e.g. `node-naive`) for our servers and server-node, `<server>-<runtime>`
    (e.g. `sockjs-tornado-pypy`) for a peer. A scaled-out run adds its tag (`pypy-fast-w2`,
    `node-fast-w1-broker`: results_io.scale_out_tag), so it is never mistaken for the one-process
    run of the same server."""
    server = doc["server"]
    tag = scale_out_tag(server)
    if server.get("entry"):
        return server["entry"] + (f"-{tag}" if tag else "")
    if server.get("peer"):
        return f"{server['name']}-{server['runtime']}"
    return f"{server['runtime']}-{server.get('mode') or 'na'}" + (f"-{tag}" if tag else "")
