"""The comparison of sessions runs (docs/sessions.md): judged on every copy, so their saturation is the
fan-out saturation in copies/s, not a throughput figure. They are ranked per level by the same rule as
throughput (level_ranges.verdict), within one mode and one churn setting: a coalescing server's copies/s
are not a one-frame-per-message server's, and a run under a reconnect storm is not a plain run."""

from churn import run_pct as churn_pct
from floors import server_view
from level_ranges import floor_notes, level_range, levels_by_concurrency, median_ratio, run_name, runs_note, verdict
from sessions_text import ALGORITHMS, _si, algorithm_mode, sessions_table


def is_sessions_run(doc):
    """Whether `doc` is judged on every copy (the sessions profile, or all_copies): its saturation is the
    fan-out saturation in copies/s (site/src/js/sessions-figures.js isSessionsResult, the same predicate)."""
    parameters = doc.get("parameters") or {}
    return parameters.get("profile") == "sessions" or parameters.get("all_copies") is True


def _churn_words(doc):
    pct = churn_pct(doc)
    return f", churn {pct:g} %" if pct else ""


#: How `verdict(lower, higher)` reads between two neighbours of a ranking, high to low.
_RANK_SYMBOLS = {"B higher": ">", "within noise": "≈"}


def _fmt_copies(r):
    """"≥ 94.2 k (75.4 k–118 k)" or "4.23 M (single run)": a fan-out figure in copies/s with its range."""
    text = ("≥ " if r["floor"] else "") + _si(r["median"])
    text += f" ({_si(r['min'])}–{_si(r['max'])})" if r["runs"] > 1 else " (single run)"
    return text + (" †" if r["client_bound"] else "")


def fanout_ranking(docs):
    """Markdown lines ranking the fan-out saturation of sessions runs per level, one table per mode and churn
    setting; [] when no doc is a sessions run. Between neighbours (high to low): ">" only where `verdict`
    says the higher one is higher (both repeated, ranges apart, the lower one no floor), "≈" within noise,
    "?" not ranked (a single run, or the lower figure a floor)."""
    runs = [d for d in docs if is_sessions_run(d)]
    if not runs:
        return []
    groups = {}
    for d in runs:
        # By algorithm, not by the mode field: a peer (no mode) writes one frame per message like naive.
        groups.setdefault((algorithm_mode(d), churn_pct(d)), []).append(d)
    out = ["Fan-out saturation per level (sessions runs, judged on every copy: copies/s delivered with every "
           "copy's p99 under 200 ms), median (min–max) over repetitions, ranked high to low: > only where the "
           "min–max ranges do not overlap and the lower figure is the server's limit; ≈ within noise; ? not "
           "ranked (a single run, or a floor below); ≥ a floor, not the server's limit; † client-bound in at "
           "least one repetition."]
    for (mode, _), group in groups.items():
        names = [run_name(d) for d in group]
        names = [n if names.count(n) == 1 else f"{n} ({d['run_id']})" for n, d in zip(names, group)]
        without_mode = " and the servers without a mode (the same algorithm)" if any(
            not (d.get("server") or {}).get("mode") for d in group) else ""
        out += ["", f"Mode {mode} ({ALGORITHMS.get(mode, 'an algorithm of its own')}){without_mode}"
                f"{_churn_words(group[0])}:", "", "| sessions | ranking | no ok point |",
                "| ---: | --- | --- |"]
        for n in sorted({lv["concurrency"] for d in group for lv in d["levels"]}):
            ranked, none = [], []
            for name, d in zip(names, group):
                level = levels_by_concurrency(d).get(n)
                if level is None:
                    continue
                r = level_range(level, server_view(d))
                if r is None:
                    none.append(name)
                else:
                    ranked.append((name, r))
            ranked.sort(key=lambda e: (-e[1]["median"], e[0]))
            chain = ""
            for i, (name, r) in enumerate(ranked):
                if i:
                    chain += f" {_RANK_SYMBOLS.get(verdict(r, ranked[i - 1][1]), '?')} "
                chain += f"{name} {_fmt_copies(r)}"
            out.append(f"| {n:,} | {chain or '—'} | {', '.join(none) or '—'} |")
    return out


def fanout_compare_table(a, b):
    """The Markdown table comparing two sessions runs level by level: each fan-out saturation in copies/s
    (median, min–max), B/A and B vs A by `verdict`; then the ranking notes, floors and each run's table."""
    la, lb = levels_by_concurrency(a), levels_by_concurrency(b)
    if churn_pct(a) != churn_pct(b):
        note = [f"Different churn: A {churn_pct(a):g} %, B {churn_pct(b):g} % of sessions reconnecting per "
                "second; B vs A is what the reconnect storm costs, not a server comparison.", ""]
    else:
        note = []
    lines = [runs_note(a, "A") + _churn_words(a), runs_note(b, "B") + _churn_words(b), ""] + note + [
        "| sessions | A fan-out copies/s median (min–max) | B fan-out copies/s median (min–max) | B/A | B vs A |",
        "| ---: | ---: | ---: | ---: | --- |"]
    for n in sorted(set(la) | set(lb)):
        ra, rb = level_range(la.get(n), server_view(a)), level_range(lb.get(n), server_view(b))
        cells = [("no ok point" if n in levels else "not run") if r is None else _fmt_copies(r)
                 for r, levels in ((ra, la), (rb, lb))]
        ratio = median_ratio(ra, rb)
        lines.append(f"| {n:,} | {cells[0]} | {cells[1]} | {'—' if ratio is None else f'{ratio:.2f}'} | {verdict(ra, rb)} |")
    lines += ["", "Fan-out saturation: copies/s delivered with every copy's p99 under 200 ms (the sessions profile's "
              "verdict). B vs A: a difference only when the min–max ranges do not overlap; otherwise within noise."]
    lines += floor_notes([("A", la, server_view(a)), ("B", lb, server_view(b))])
    lines += sessions_tables([a, b])
    return "\n".join(lines)


def sessions_tables(docs):
    """The sessions table of each run that has sessions levels (bench/sessions_text.py), [] when none has."""
    out = []
    for doc in docs:
        table = sessions_table(doc, server_view(doc))
        if table:
            out += [""] + table
    return out
