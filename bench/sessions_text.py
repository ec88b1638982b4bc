"""What a sessions run's levels say, as text: the run summary's line per level and the Markdown table
`make compare` and `make saturation-tables` print under their own (docs/sessions.md).

Per level: the processes that served and held it (workers, agents), the connect
phase (time, achieved rate, the paced target, failures), the idle hold (server
bytes per session, idle server CPU) and the fan-out saturation in copies/s with
the all-copies p99 at it. The fairness rule holds here as everywhere: the
server's mode and its algorithm stand beside the throughput figure (a coalescing
server's copies/s are not a one-frame-per-message server's), and a figure that
is only a floor says so with its reasons (bench/floors.py: under the fan-out
verdict the level's saturation IS the fan-out saturation, so its floor reasons
are that figure's).

A level is a sessions level when it carries any of the v4 level fields
(results/schema.json: workers, agents, connect, idle, fanout_saturation).
A churn run (v5 parameters.churn_pct) says so in its table's title and adds
churn's figures per level (bench/churn_text.py), so it is never read as a plain run.
"""

import churn_text
from floors import WHOLE_CORE, level_floor_reasons

SESSION_FIELDS = ("workers", "agents", "connect", "idle", "fanout_saturation")

#: The algorithm each server mode stands for, as the site names it (site/src/js/algorithm.js modeText).
ALGORITHMS = {"fast": "coalesced", "naive": "one frame per message"}


def is_sessions_level(level):
    return any(field in level for field in SESSION_FIELDS)


def has_sessions_levels(doc):
    return any(is_sessions_level(level) for level in doc["levels"])


def algorithm_mode(doc):
    """The mode whose algorithm `doc`'s server ran: its own, or "naive" for a server without one (the
    sockjs-tornado and sockjs-go peers, sockjs-node before it had a fast path: each writes one frame per
    message, as the registry's `mode` and the site's per-message group say)."""
    return (doc.get("server") or {}).get("mode") or "naive"


def mode_text(doc):
    """The server's mode with its algorithm: "fast (coalesced)", "no mode (one frame per message)"."""
    mode = (doc.get("server") or {}).get("mode")
    return f"{mode or 'no mode'} ({ALGORITHMS.get(mode or 'naive', 'an algorithm of its own')})"


def _titled_mode_text(doc):
    """mode_text for a title: "mode fast (coalesced)", but "no mode (...)" alone, never "mode no mode"."""
    text = mode_text(doc)
    return text if text.startswith("no mode") else f"mode {text}"


def _si(value, unit=""):
    """1310000 -> "1.31 M" (+ " unit"): three significant figures, as the reference pages print."""
    for scale, prefix in ((1e6, " M"), (1e3, " k")):
        if abs(value) >= scale:
            return f"{value / scale:.3g}{prefix}" + (f" {unit}" if unit else "")
    return f"{value:.3g}" + (f" {unit}" if unit else "")


def _rate(value):
    """A target rate, messages per second: whole above 10, three significant figures below."""
    return f"{value:,.0f}" if value >= 10 else f"{value:.3g}"


def processes_text(workers, agents):
    """"1 server process and 1 client process", "3 server workers and 3 client agents"."""
    server = "1 server process" if workers == 1 else f"{workers} server workers"
    client = "1 client process" if agents == 1 else f"{agents} client agents"
    return f"{server} and {client}"


def _bytes(value):
    """Bytes per session as people read them: 9.1 KiB, 812 B (negative when the heap shrank)."""
    if value is None:
        return "—"
    return f"{value / 1024:,.1f} KiB" if abs(value) >= 1024 else f"{value:,.0f} B"


def connect_text(level):
    """"12.3 s, 4,065/s (paced 2,000/s), 0 failed" or with reasons "…, 10 failed: Too many open files (10)"."""
    connect = level.get("connect") or {}
    text = f"{level['connect_s']:,.1f} s"
    achieved = connect.get("achieved_per_s")
    if achieved is not None:
        text += f", {achieved:,.0f}/s"
    if "rate_per_s" in connect:
        paced = connect["rate_per_s"]
        text += f" ({'unpaced' if paced is None else f'paced {paced:,.0f}/s'})"
    failures = connect.get("failures") or {}
    failed = sum(failures.values()) if failures else level.get("connect_errors", 0)
    text += f", {level['connected']:,} of {level['concurrency']:,} opened"
    if failed:
        text += f", {failed:,} failed" + (": " + ", ".join(f"{why} ({n:,})" for why, n in failures.items())
                                          if failures else "")
    return text


def idle_text(level):
    """"idle 30 s: server 9.1 KiB/session, server CPU 0.8 %, client 4.2 KiB/session, 0 lost"."""
    idle = level.get("idle")
    if not idle:
        return None
    cpu = idle.get("server_cpu_pct")
    return (f"idle {round(idle['hold_s'], 1):g} s: server {_bytes(idle.get('server_bytes_per_session'))}/session, "
            f"server CPU {'—' if cpu is None else f'{cpu:.1f} %'}, "
            f"client {_bytes(idle.get('client_bytes_per_session'))}/session, "
            f"{idle.get('connections_lost', 0):,} lost, {idle.get('heartbeats', 0):,} heartbeats")


def fanout_figure(level, doc, server=WHOLE_CORE):
    """(the fan-out saturation as text with the mode beside it, its floor reasons or []) for one level;
    (None, []) when the level has no fanout_saturation field."""
    if "fanout_saturation" not in level:
        return None, []
    sat = level["fanout_saturation"]
    mode = mode_text(doc)
    if sat is None:
        return f"no ok point under the fan-out verdict [{mode}]", []
    reasons = level_floor_reasons(level, server) if level.get("saturation") else []
    p99 = sat.get("p99_ms")
    text = (f"{'≥ ' if reasons else ''}{_si(sat['copies_per_s'], 'copies/s')} [{mode}] at "
            f"{_rate(sat['target_rate'])} msgs/s sent, all-copies p99 {'—' if p99 is None else f'{p99:,.1f} ms'}")
    return text, reasons


def level_line(level, doc, server=WHOLE_CORE):
    """The run summary's sessions line for one level (indented under its saturation line); None for a
    level that is not a sessions level."""
    if not is_sessions_level(level):
        return None
    parts = [processes_text(level.get("workers", 1), level.get("agents", 1)), "connect " + connect_text(level)]
    idle = idle_text(level)
    if idle:
        parts.append(idle)
    figure, reasons = fanout_figure(level, doc, server)
    if figure:
        parts.append("fan-out saturation " + figure
                     + (f" (a floor, not the server's limit: {'; '.join(reasons)})" if reasons else ""))
    churn = churn_text.level_text(level)
    if churn:
        parts.append(churn)
    return "          " + "; ".join(parts)


def sessions_table(doc, server=WHOLE_CORE):
    """Markdown lines: one row per sessions level of `doc`, then the floor reasons; [] without any."""
    levels = [lv for lv in doc["levels"] if is_sessions_level(lv)]
    if not levels:
        return []
    churned = bool(churn_text.title_note(doc))
    out = [f"Sessions, {doc['label']} (fan-out verdict; {_titled_mode_text(doc)}{churn_text.title_note(doc)}):", "",
           "| clients | workers | agents | connect s | connects/s | opened | server per session (idle) "
           "| server CPU idle % | fan-out saturation copies/s | all-copies p99 ms |"
           + (churn_text.TABLE_HEADER if churned else ""),
           "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
           + (churn_text.TABLE_ALIGN if churned else "")]
    notes = []
    for level in levels:
        connect = level.get("connect") or {}
        idle = level.get("idle") or {}
        sat = level.get("fanout_saturation")
        reasons = level_floor_reasons(level, server) if sat and level.get("saturation") else []
        achieved = connect.get("achieved_per_s")
        cpu = idle.get("server_cpu_pct")
        figure = "—" if not sat else ("≥ " if reasons else "") + _si(sat["copies_per_s"])
        p99 = None if not sat else sat.get("p99_ms")
        out.append(f"| {level['concurrency']:,} | {level.get('workers', 1)} | {level.get('agents', 1)} | "
                   f"{level['connect_s']:,.1f} | {'—' if achieved is None else f'{achieved:,.0f}'} | "
                   f"{level['connected']:,} | {_bytes(idle.get('server_bytes_per_session'))} | "
                   f"{'—' if cpu is None else f'{cpu:.1f}'} | {figure} | {'—' if p99 is None else f'{p99:,.1f}'} |"
                   + (churn_text.table_cells(level) if churned else ""))
        if reasons:
            notes.append(f"- ≥ at {level['concurrency']:,} clients is a floor: {'; '.join(reasons)}.")
    return out + ([""] + notes if notes else [])
