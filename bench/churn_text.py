"""A churn run's figures as text, for the sessions line of the run summary and the sessions table of
`make compare` and `make saturation-tables` (bench/sessions_text.py; docs/sessions.md "Churn").

Per level: the connects per second the server served at the fan-out saturation
point against those asked of it (the pool: each pool session reconnects once a
second), the reconnect p99 there, and the level's churn failures. The saturation
point is where the level's headline figure was measured, so its churn is the
storm the server served while delivering that figure. Failures are summed over
every point of the level instead: a reconnect that failed anywhere must show.
"""

import reason_counts
from churn import pct_text, run_pct

#: The sessions table's extra columns for a churn run, and their alignment row.
TABLE_HEADER = " churn connects/s served (asked) | reconnect p99 ms | churn failures |"
TABLE_ALIGN = " ---: | ---: | --- |"


def title_note(doc):
    """What a churn run's table title adds ("" for a run without churn)."""
    pct = run_pct(doc)
    if not pct:
        return ""
    return (f"; churn {pct_text(pct)} of the sessions a second: every-copy figures are the other sessions', "
            "the pool's copies are not counted")


def saturation_point(level):
    """The point the level's fan-out saturation was read from (its target rate, ok, its received/s the
    copies/s), None when the level has none."""
    sat = level.get("fanout_saturation")
    if not sat:
        return None
    ok = [p for p in level["points"] if p["target_rate"] == sat["target_rate"] and p.get("state") == "ok"]
    exact = [p for p in ok if p["received_per_s"] == sat["copies_per_s"]]
    return (exact or ok or [None])[0]


def level_failures(level):
    """The churn failures of every point of the level, {reason: count}, the most frequent first."""
    return reason_counts.summed((point.get("churn") or {}).get("failures") for point in level["points"])


def figures(level):
    """{served, asked, p99, failures} of one level: connects/s served at the fan-out saturation point (None
    without one), asked (the pool, per second), the reconnect p99 there in ms (None when none was timed or
    there is no such point), the level's failures by reason. None when no point of the level churned."""
    churned = [p["churn"] for p in level["points"] if p.get("churn")]
    if not churned:
        return None
    at = (saturation_point(level) or {}).get("churn")
    return {"served": None if at is None else at["connects_per_s"], "asked": (at or churned[0])["pool"],
            "p99": None if at is None else at["reconnect_ms"]["p99"], "failures": level_failures(level)}


def _per_s(value):
    """Connects per second: whole from 100 up, three significant figures below (9.8 is not 10)."""
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def _failures_text(failures, word=" failed"):
    """"0 failed", "12 failed: Cannot assign requested address (10), timeout (2)" (word: what follows the count)."""
    return reason_counts.text(failures, word)


def level_text(level):
    """The summary line's churn part, e.g. "churn 98/s served of 100/s asked at the fan-out saturation
    point, reconnect p99 40.0 ms, 0 failed"; None for a level without churn."""
    f = figures(level)
    if f is None:
        return None
    if f["served"] is None:
        head = f"churn {_per_s(f['asked'])}/s asked, no fan-out saturation point to read it at"
    else:
        p99 = "—" if f["p99"] is None else f"{f['p99']:,.1f} ms"
        head = (f"churn {_per_s(f['served'])}/s served of {_per_s(f['asked'])}/s asked at the fan-out saturation "
                f"point, reconnect p99 {p99}")
    return f"{head}, {_failures_text(f['failures'])}"


def table_cells(level):
    """The churn columns of one sessions-table row (TABLE_HEADER's order), "—" where there is no figure."""
    f = figures(level)
    if f is None:
        return " — | — | — |"
    served = "—" if f["served"] is None else _per_s(f["served"])
    p99 = "—" if f["p99"] is None else f"{f['p99']:,.1f}"
    failures = _failures_text(f["failures"], word="").replace("|", "\\|")  # a reason must not split the row
    return f" {served} ({_per_s(f['asked'])}) | {p99} | {failures} |"
