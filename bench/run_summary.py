"""The run summary printed after each server's merged result: per level, the median saturation
with its min-max over the repetitions, and what to distrust (floors named as floors, with why;
every warning); a figure that is the server's own limit below full CPU says so, with the CPU seen.
A sessions run adds a line per level: processes, connect, idle hold, fan-out saturation
(bench/sessions_text.py)."""

from floors import level_floor_reasons, limit_notes, server_view
from sessions_text import level_line


def _figure(sat):
    if sat is None:
        return "no ok point (median repetition)"
    spread = sat.get("spread")
    text = f"{sat['received_per_s']:,.0f}"
    if spread:
        text += f" [{spread['min']:,.0f}-{spread['max']:,.0f}]"
    return text + (" client-bound" if sat.get("client_bound") else "")


def summarize(doc, name):
    """The run summary: per level, median saturation with its min-max, and what to distrust."""
    lines = [f"== {name}: {doc['label']} (received msgs/s at saturation: median [min-max])"]
    for level in doc["levels"]:
        n = level.get("repetitions", 1)
        text = f"   {level['concurrency']:>5} clients: {_figure(level.get('saturation'))}"
        if "saturation_strict" in level:
            text += f"; strict {_figure(level['saturation_strict'])}"
        text += f" ({n} run{'s' if n != 1 else ''})"
        floor = level_floor_reasons(level, server_view(doc))
        if floor:
            text += f"; a floor, not the server's limit: {'; '.join(floor)}"
        for note in limit_notes(level, server_view(doc)):
            text += f"; {note}"
        lines.append(text)
        sessions = level_line(level, doc, server_view(doc))  # the sessions profile's per-level figures
        if sessions:
            lines.append(sessions)
    for w in doc["warnings"]:
        lines.append(f"   warning: {w}")
    return "\n".join(lines)
