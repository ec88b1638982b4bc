"""Whether a saturation figure is the server's limit or only a floor.

The kit's fairness rule (docs/methodology.md, "A figure is the server's limit,
or a floor"): a saturation figure counts as the server's only when nothing
else stopped the climb: the client was not client-bound, the level really
overloaded the server, and either the server's core was >= 95 % busy at that
point, or it was at least SERVER_OWN_LIMIT_MIN_PCT busy and the client had
clear headroom there (its CPU at most CLIENT_HEADROOM_CPU_PCT, and, where the
client's measured ceiling is known, the received rate at most
CLIENT_CEILING_SHARE_PCT of it). In the second case
the latency collapse is the server's own limit reached below full CPU (timers,
GC, Nagle...): not a floor, but labelled as such with the CPU seen
(limit_notes). Otherwise the figure says only "at least this much": a floor,
its reasons naming both sides. A level that ended because the profile's
maximum rate or the client's measured ceiling was reached (or was cut short)
never saw the server overloaded: also a floor.

The site applies the same rule in JavaScript (site/src/js/floors.js, same
reason words: the pages run in the browser); the two are kept in step by one
table of cases, docs/contract/floor-rule-cases.json, that both their tests run.
A run whose server was not sampled at all (`make bench-url` without
SERVER_PID: the result's server.pid is null) has no server CPU to judge by:
its floors are decided from the client's side alone (client-bound, how the
level ended), and the result and summary say so once (NOT_SAMPLED_NOTE)
instead of marking every level "server CPU not measured". A server that ran
under a CPU quota (`make bench-scaleout`: server.cpu_quota) could never use
a whole core: its CPU is judged against the quota instead (both percentages
become shares of it), and the reasons say so ("< 95 % of its 25 % quota").
What the rule knows of a run's server besides its levels is one ServerView
(server_view(doc)); callers pass it through.

Standard library only.
"""

import math
from typing import NamedTuple

#: The server's core must have been at least this busy (percent of one core,
#: as the client samples /proc/PID/stat; of its CPU quota's share of a core
#: when it ran under one, ServerView.capacity_pct) for its saturation figure
#: to count as the server's limit at full CPU.
SERVER_BUSY_PCT = 95.0

#: Below full CPU, the latency collapse is taken for the server's own (timers, GC, Nagle...) only when its
#: core was at least this busy (percent of one core, or of its quota as SERVER_BUSY_PCT; 0..SERVER_BUSY_PCT):
#: idle a fifth of the window or less.
#: A server idler than that while its latency collapsed points at something outside it: in
#: results/reference-runtimes the disturbed first repetitions sat at 26-64 % CPU beside an idle client, with
#: figures 0.02-0.77x their level's median; the sockjs-tornado-on-CPython levels the exception is for ran at
#: 81-94 %. Such a figure stays a floor, its reason naming both sides.
SERVER_OWN_LIMIT_MIN_PCT = 80.0

#: Clear client headroom, CPU side: the client's CPU at the saturation point (`saturation.client_cpu_pct`,
#: percent of one core, summed over the client's processes; a bound in 0..90) at most this. The client calls
#: itself client-bound at 90 % of its allowed cores (client-java Thresholds.CLIENT_BOUND_CPU_RATIO, recorded
#: as parameters.client_bound_cpu_ratio). At 75 % the client's core sat idle a quarter of the measured window
#: or more, so it could have handled a third more at the same cost per message; the 15 points under
#: client-bound are the margin for a window average hiding busier stretches. The levels this exception exists for (sockjs-tornado on CPython, reference set) ran the
#: client at 13-47 %. Percent of one core, not of the client's cores: a client spread over several cores
#: needs the same absolute idle time (conservative).
CLIENT_HEADROOM_CPU_PCT = 75.0

#: Clear client headroom, rate side: where the level records the client's measured ceiling
#: (`client_ceiling_per_s`: the client's firehose ceiling in received msgs/s for that level's connections
#: and frames), the received rate at the saturation point at most this percent of it (0..100). Beyond it the
#: client was within a fifth of the most it has been seen to receive, so its own receive path may have shaped
#: the latency collapse even with CPU to spare.
CLIENT_CEILING_SHARE_PCT = 80.0

_ENDS_WITHOUT_OVERLOAD = {"max_rate": "max rate reached (never overloaded)",
                          "client_ceiling": "client ceiling reached (never overloaded)",
                          "connect_failed": "level ended: connect_failed",
                          "aborted": "level ended: aborted",
                          "agent_lost": "level ended: agent_lost"}


#: Said once per run (result warning, run summary, make compare) when the server was not sampled.
NOT_SAMPLED_NOTE = ("server not sampled (no server pid: make bench-url without SERVER_PID): no server CPU or "
                    "RSS; floors are judged from the client's side alone (client-bound, how each level ended)")


class ServerView(NamedTuple):
    """What the floor rule needs to know of a run's server besides its levels (server_view(doc))."""

    #: False when the run sampled no server at all (server.pid null): floors from the client's side alone.
    sampled: bool = True
    #: The CPU the sampled server processes could use, percent of one core (0 < x <= 100): 100, or under a
    #: CPU quota the quota of the processes the per-point figures cover (server_capacity_pct). The busy
    #: thresholds are shares of it.
    capacity_pct: float = 100.0


#: A sampled server on a whole core: every run but a URL-only or a quota one.
WHOLE_CORE = ServerView()


def server_view(doc):
    """The ServerView of a result file: whether its server was sampled, and its CPU capacity."""
    return ServerView(server_sampled(doc), server_capacity_pct(doc))


def server_capacity_pct(doc):
    """The CPU the sampled server processes could use, percent of one core: 100, or when the workers ran
    under a cgroup CPU quota (`make bench-scaleout`, server.cpu_quota) the quota of the processes the
    per-point figures cover (server.per_point_scope): one worker's (core_share) when they are the first
    worker's alone, every worker's (workers x core_share, the run group's) when they are summed; at most
    100. A per-point CPU of one worker must not be held against the whole group's quota."""
    server = doc.get("server") or {}
    quota = server.get("cpu_quota")
    if not quota:
        return 100.0
    summed = server.get("per_point_scope") == "all_processes"
    quota_us = quota["workers_total_quota_us"] if summed else quota["quota_us"]
    return min(100.0, 100.0 * quota_us / quota["period_us"])


def server_sampled(doc):
    """Whether the run sampled its server's CPU and RSS from /proc: False only for a result whose
    server.pid is null (a server benchmarked by URL alone: `make bench-url` without SERVER_PID)."""
    server = doc.get("server") or {}
    return "pid" not in server or server["pid"] is not None


def saturation_point(level):
    """The measured point the level's saturation figure came from (its median repetition's, in a merged
    file): state ok and the same received/s, the figure being a copy of that point's; None without a
    figure (or when no point matches). What the saturation object does not copy (a v1 file's CPU, the
    point's RSS, its slow readers, its compression) is read there. Matched on state and received/s, not
    on the target rate alone: a level may hold a point that was not ok at the same target rate."""
    sat = level.get("saturation")
    if not sat:
        return None
    for point in level.get("points") or []:
        if point.get("state") == "ok" and point.get("received_per_s") == sat.get("received_per_s"):
            return point
    return None


def saturation_field(level, field):
    """`field` of the level's saturation object (v2), else of the measured point the figure came from
    (saturation_point: v1 files); None if neither has it."""
    sat = level.get("saturation") or {}
    if sat.get(field) is not None:
        return sat[field]
    return (saturation_point(level) or {}).get(field)


def saturation_server_cpu(level):
    """The server's CPU % at the level's saturation point: the saturation object's own field (v2),
    else the measured point it came from (v1 files: same received/s, state ok); None if neither."""
    return saturation_field(level, "server_cpu_pct")


def saturation_client_cpu(level):
    """The client's CPU % (of one core) at the level's saturation point, found like the server's."""
    return saturation_field(level, "client_cpu_pct")


def ceiling_share_pct(level):
    """The saturation's received rate as a percent of the level's `client_ceiling_per_s` (the client's
    measured ceiling, received msgs/s); None when there is no figure or no ceiling (missing, null or
    not > 0: absent)."""
    sat = level.get("saturation")
    ceiling = level.get("client_ceiling_per_s")
    if not sat or isinstance(ceiling, bool) or not isinstance(ceiling, (int, float)) or not ceiling > 0:
        return None
    return 100 * sat["received_per_s"] / ceiling


def _client_headroom(level):
    """Whether the client clearly had room to spare at the saturation point (see the two constants)."""
    cpu = saturation_client_cpu(level)
    share = ceiling_share_pct(level)
    return cpu is not None and cpu <= CLIENT_HEADROOM_CPU_PCT and (share is None or share <= CLIENT_CEILING_SHARE_PCT)


def _busy_bar(server):
    """SERVER_BUSY_PCT of what the server could use, percent of one core."""
    return SERVER_BUSY_PCT * server.capacity_pct / 100


def _own_limit(level, server=WHOLE_CORE):
    """Whether one repetition's figure is the server's own limit reached below full CPU: a sampled server
    at SERVER_OWN_LIMIT_MIN_PCT or more but under SERVER_BUSY_PCT (of its capacity), nothing else making a
    floor (not client-bound, the level overloaded the server) and clear client headroom."""
    sat = level.get("saturation")
    cpu = saturation_server_cpu(level) if server.sampled else None
    return (bool(sat) and not sat.get("client_bound") and cpu is not None
            and SERVER_OWN_LIMIT_MIN_PCT * server.capacity_pct / 100 <= cpu < _busy_bar(server)
            and level.get("end_reason") not in _ENDS_WITHOUT_OVERLOAD and _client_headroom(level))


def _repetition_kinds(level, server=WHOLE_CORE):
    """The kinds of floor one repetition's figure is, in _RANK order ("busy" stands for "server N %
    busy (< 95 %), client ..."); [] when it is the server's limit (at full CPU or its own below it) or
    the level has no figure. Without a sampled server only the client's side counts."""
    sat = level.get("saturation")
    if not sat:
        return []
    kinds = []
    if sat.get("client_bound"):
        kinds.append("client-bound")
    cpu = saturation_server_cpu(level) if server.sampled else None
    if server.sampled and cpu is None:
        kinds.append("server CPU not measured")
    elif server.sampled and cpu < _busy_bar(server) and not _own_limit(level, server):
        kinds.append("busy")
    end = _ENDS_WITHOUT_OVERLOAD.get(level.get("end_reason"))
    if end:
        kinds.append(end)
    return kinds


def _with_level_ceiling(run, level):
    """A repetition of `level` with the level's client ceiling when it records none of its own: the
    ceiling belongs to the level's connections and frames, so a repetition is judged by it too."""
    if run.get("client_ceiling_per_s") is not None or level.get("client_ceiling_per_s") is None:
        return run
    return {**run, "client_ceiling_per_s": level["client_ceiling_per_s"]}


def _runs(level):
    return [_with_level_ceiling(run, level) for run in level.get("runs") or [level]]


def repetition_floor_reasons(level, server=WHOLE_CORE):
    """Why one repetition's saturation figure of a level is a floor; [] when it is the server's limit
    (or when the level has no figure at all). `level`: a level object of a result file, or one
    element of a repeated level's `runs[]`; server: server_view(doc) of its file."""
    return [_busy_text([level], server) if kind == "busy" else kind for kind in _repetition_kinds(level, server)]


def repetition_limit_notes(level, server=WHOLE_CORE):
    """The label of one repetition's figure when it is the server's own limit reached below full CPU
    ("server's own limit at 87 % CPU (client 20 % busy, on schedule)"), else []."""
    return [_own_limit_text([level], server)] if _own_limit(level, server) else []


def level_floor_reasons(level, server=WHOLE_CORE):
    """Why a level's headline figure (the median over repetitions) is a floor: the reasons of every
    repetition whose figure is one, merged by kind, with "in k of n" when the level was repeated;
    [] when every repetition's figure was the server's limit (at full CPU or its own below it).

    Conservative on purpose: one floor among the repetitions marks the level, as "client-bound in
    at least one repetition" always has. Percentages differ per repetition: the merged reason
    gives their range ("server 81–93 % busy (< 95 %), client 78–88 % busy in 2 of 3").
    server: server_view(doc) of the level's file (not sampled: the client's side alone decides)."""
    runs = _runs(level)
    by_kind = {}
    for run in runs:
        for kind in _repetition_kinds(run, server):
            by_kind.setdefault(kind, []).append(run)
    out = []
    for kind in sorted(by_kind, key=_RANK.index):
        text = _busy_text(by_kind[kind], server) if kind == "busy" else kind
        out.append(text + _k_of_n(len(by_kind[kind]), len(runs)))
    return out


def limit_notes(level, server=WHOLE_CORE):
    """The label of a level whose repetitions' figures (some or all) were the server's own limit reached
    below full CPU, merged like the busy reason ("server's own limit at 81–93 % CPU (client 13–27 % busy,
    on schedule) in 2 of 3"); [] when none was. Shown beside the figure instead of a floor mark when
    level_floor_reasons is [], beside the floor's reasons otherwise."""
    runs = _runs(level)
    own = [run for run in runs if _own_limit(run, server)]
    return [_own_limit_text(own, server) + _k_of_n(len(own), len(runs))] if own else []


_RANK = ["client-bound", "server CPU not measured", "busy", *_ENDS_WITHOUT_OVERLOAD.values()]


def _k_of_n(k, n):
    return f" in {k} of {n}" if n > 1 else ""


def _range(values, rounding):
    """'lo–hi' of percentages rounded by `rounding`, or one number when both round alike."""
    lo, hi = rounding(min(values)), rounding(max(values))
    return str(lo) if lo == hi else f"{lo}–{hi}"


# Rounding: every number is rounded against the server, so a reason never reads as less of a floor
# than it was: the server's CPU down (94.6 must not read as "95 % busy (< 95 %)"), the client's CPU
# and its share of its ceiling up (75.2 must not read as "75 %", the headroom's own bound).
def _client_text(runs):
    cpus = [c for c in map(saturation_client_cpu, runs) if c is not None]
    shares = [s for s in map(ceiling_share_pct, runs) if s is not None]
    text = f"client {_range(cpus, math.ceil)} % busy" if cpus else "client CPU not measured"
    return text, (f"at {_range(shares, math.ceil)} % of its ceiling" if shares else None)


def _of_quota(server):
    """" of its 25 % quota" when the server ran under a CPU quota, else ""."""
    return "" if server.capacity_pct >= 100 else f" of its {server.capacity_pct:g} % quota"


def _busy_text(runs, server):
    client, ceiling = _client_text(runs)
    cpu = _range([saturation_server_cpu(run) for run in runs], math.floor)
    return (f"server {cpu} % busy (< {SERVER_BUSY_PCT:.0f} %{_of_quota(server)}), {client}"
            + (f", {ceiling}" if ceiling else ""))


def _own_limit_text(runs, server):
    client, ceiling = _client_text(runs)
    cpu = _range([saturation_server_cpu(run) for run in runs], math.floor)
    inside = ", ".join(part for part in (client, "on schedule", ceiling) if part)
    return f"server's own limit at {cpu} % CPU{_of_quota(server)} ({inside})"
