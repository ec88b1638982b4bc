"""Whether a saturation figure is the server's limit or only a floor.

The kit's fairness rule (docs/methodology.md, "A figure is the server's limit,
or a floor"): a saturation figure counts as the server's only when the server's core was >= 95 % busy at that point and
the client was not client-bound. Otherwise something else stopped the climb
- the client, or idle time the server still had - and the figure says only
"at least this much". A level that ended because the profile's maximum rate
was reached (or the level was cut short) never saw the server overloaded:
also a floor.

The site applies the same rule in JavaScript (site/src/js/floors.js, same
reason words: the pages run in the browser); the two are kept in step by one
table of cases, docs/contract/floor-rule-cases.json, that both their tests run.
A run whose server was not sampled at all (`make bench-url` without
SERVER_PID: the result's server.pid is null) has no server CPU to judge by:
its floors are decided from the client's side alone (client-bound, how the
level ended), and the result and summary say so once (NOT_SAMPLED_NOTE)
instead of marking every level "server CPU not measured".

Standard library only.
"""

import math

#: The server's core must have been at least this busy (percent of one core,
#: as the client samples /proc/PID/stat) for its saturation figure to count
#: as the server's limit.
SERVER_BUSY_PCT = 95.0

_ENDS_WITHOUT_OVERLOAD = {"max_rate": "max rate reached (never overloaded)",
                          "connect_failed": "level ended: connect_failed",
                          "aborted": "level ended: aborted"}


#: Said once per run (result warning, run summary, make compare) when the server was not sampled.
NOT_SAMPLED_NOTE = ("server not sampled (no server pid: make bench-url without SERVER_PID): no server CPU or "
                    "RSS; floors are judged from the client's side alone (client-bound, how each level ended)")


def server_sampled(doc):
    """Whether the run sampled its server's CPU and RSS from /proc: False only for a result whose
    server.pid is null (a server benchmarked by URL alone: `make bench-url` without SERVER_PID)."""
    server = doc.get("server") or {}
    return "pid" not in server or server["pid"] is not None


def saturation_server_cpu(level):
    """The server's CPU % at the level's saturation point: the saturation object's own field (v2),
    else the measured point it came from (v1 files: same received/s, state ok); None if neither."""
    sat = level.get("saturation") or {}
    if sat.get("server_cpu_pct") is not None:
        return sat["server_cpu_pct"]
    for point in level.get("points") or []:
        if point.get("state") == "ok" and point.get("received_per_s") == sat.get("received_per_s"):
            return point.get("server_cpu_pct")
    return None


def _repetition_kinds(level, server_sampled=True):
    """The kinds of floor one repetition's figure is, in _RANK order ("busy" stands for "server N %
    busy (< 95 %)"); [] when it is the server's limit or the level has no figure. Without a
    sampled server only the client's side counts."""
    sat = level.get("saturation")
    if not sat:
        return []
    kinds = []
    if sat.get("client_bound"):
        kinds.append("client-bound")
    cpu = saturation_server_cpu(level) if server_sampled else None
    if server_sampled and cpu is None:
        kinds.append("server CPU not measured")
    elif server_sampled and cpu < SERVER_BUSY_PCT:
        kinds.append("busy")
    end = _ENDS_WITHOUT_OVERLOAD.get(level.get("end_reason"))
    if end:
        kinds.append(end)
    return kinds


def repetition_floor_reasons(level, server_sampled=True):
    """Why one repetition's saturation figure of a level is a floor; [] when it is the server's limit
    (or when the level has no figure at all). `level`: a level object of a result file, or one
    element of a repeated level's `runs[]`; server_sampled: server_sampled(doc) of its file."""
    return [_busy_text(_pct(saturation_server_cpu(level))) if kind == "busy" else kind
            for kind in _repetition_kinds(level, server_sampled)]


def level_floor_reasons(level, server_sampled=True):
    """Why a level's headline figure (the median over repetitions) is a floor: the reasons of every
    repetition whose figure is one, merged by kind, with "in k of n" when the level was repeated;
    [] when every repetition's figure was the server's limit.

    Conservative on purpose: one floor among the repetitions marks the level, as "client-bound in
    at least one repetition" always has. Busy percentages differ per repetition: the merged reason
    gives their range ("server 81–93 % busy (< 95 %) in 2 of 3"). server_sampled:
    server_sampled(doc) of the level's file (False: the client's side alone decides)."""
    runs = level.get("runs") or [level]
    counts, busy = {}, []
    for run in runs:
        for kind in _repetition_kinds(run, server_sampled):
            counts[kind] = counts.get(kind, 0) + 1
            if kind == "busy":
                busy.append(saturation_server_cpu(run))
    out = []
    for kind in sorted(counts, key=_RANK.index):
        if kind == "busy":
            lo, hi = _pct(min(busy)), _pct(max(busy))
            text = _busy_text(lo if lo == hi else f"{lo}–{hi}")
        else:
            text = kind
        if len(runs) > 1:
            text += f" in {counts[kind]} of {len(runs)}"
        out.append(text)
    return out


_RANK = ["client-bound", "server CPU not measured", "busy", *_ENDS_WITHOUT_OVERLOAD.values()]


def _pct(cpu):
    """Busy percent as text, rounded down: 94.6 must not read as "95 % busy (< 95 %)"."""
    return str(math.floor(cpu))


def _busy_text(pct_text):
    return f"server {pct_text} % busy (< {SERVER_BUSY_PCT:.0f} %)"
