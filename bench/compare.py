"""Compare result files as Markdown: two runs level by level, or a folder of
runs against one baseline.

  python3 bench/compare.py results/A.json results/B.json
  python3 bench/compare.py results/reference [--base sockjs-tornado-cpython]

The figure compared is each level's saturation throughput (received msgs/s at
the best point with mean RTT under the ok threshold) as the *median* of the
run's repetitions, with its min-max range. A difference is only called one
when the two ranges do not overlap: on these VMs a sweep repeated right away
can land 2x apart, so overlapping ranges are "within noise". A file with a
single repetition has no range; the table says so instead of guessing.

Two files: also the corrected p99 RTT of each at the highest target rate both
ran with both points ok (the fair place to compare tails), and server RSS at
each median saturation point. "≥" marks a floor (bench/floors.py): in at
least one repetition the server was < 95 % busy, the client was client-bound
("†", it measures the client, not the server), or the level ended without
overloading the server. A floor on the lower side of a gap is no verdict: the
lower server's limit is unknown. A server under 95 % busy beside a client with
clear headroom is no floor: its figure is the server's own limit below full
CPU, printed plain and labelled under the table with the CPU seen.

Both forms start with the verdict (bench/verdict.py: the same sentences as the
summary page, one per algorithm group), at `--level N` clients or by default
at each group's highest level where every run has a figure.

Runs of the sessions profile (docs/sessions.md) are judged on every copy: their
saturation is the fan-out saturation in copies/s, not a throughput figure, so
they are never put in the throughput matrix or verdict. They get their own
ranking per level instead, by the same rule (`verdict`: a difference only where
the min-max ranges over repetitions do not overlap, a floor below another figure
never ranked as the server's limit), within one mode and one churn setting (a
coalescing server's copies/s are not a one-frame-per-message server's, and a run
under a reconnect storm is not a plain run); a level with no ok point is named
as such. Two sessions files get the fan-out figures side by side.
"""

import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# docs/contract holds the server registry's one reader (sockbench_contract.registry).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "contract"))

from churn import run_pct as churn_pct  # noqa: E402  (the one reader of parameters.churn_pct)
from floors import NOT_SAMPLED_NOTE, level_floor_reasons, limit_notes, server_sampled  # noqa: E402
from results_io import load_result, scale_out_tag  # noqa: E402
from sessions_text import _si, mode_text, sessions_table  # noqa: E402
from sockbench_contract.registry import RegistryError, load as load_registry  # noqa: E402
from verdict import VerdictUnavailable, verdict_sentences  # noqa: E402

RATE_MATCH = 0.005  # target rates within 0.5 % count as the same step of the ramp
# The default baseline of a folder comparison: the original sockjs-tornado on
# CPython, the subject of the 2011 benchmark and a third-party implementation
# that does not change when our code does.
DEFAULT_BASE = "sockjs-tornado-cpython"


def _levels(doc):
    return {level["concurrency"]: level for level in doc["levels"]}


def level_range(level, sampled=True):
    """{median, min, max, runs, client_bound, floor, limit} of a level's saturation received/s; None without
    a figure. floor: bench/floors.py's reasons ([]: the server's limit); limit: its own-limit label ([]: none).

    A file without repetitions (or with one) has min = max = median and runs = 1. sampled:
    floors.server_sampled of the level's file (False: its floors are judged from the client's side).
    """
    sat = level.get("saturation") if level else None
    if not sat:
        return None
    spread = sat.get("spread") or {"min": sat["received_per_s"], "median": sat["received_per_s"],
                                    "max": sat["received_per_s"]}
    runs = level.get("runs") or [level]
    return {"median": sat["received_per_s"], "min": spread["min"], "max": spread["max"],
            "runs": level.get("repetitions", 1),
            "client_bound": any((r.get("saturation") or {}).get("client_bound") for r in runs),
            "floor": level_floor_reasons(level, sampled), "limit": limit_notes(level, sampled)}


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


def _fmt_range(r):
    if r is None:
        return "—"
    text = ("≥ " if r.get("floor") else "") + f"{r['median']:,.0f}"
    if r["runs"] > 1:
        text += f" ({r['min']:,.0f}–{r['max']:,.0f})"
    return text + (" †" if r["client_bound"] else "")


def _ratio(ra, rb):
    return rb["median"] / ra["median"] if ra and rb and ra["median"] else None


def _sat_point(level):
    sat = level.get("saturation") if level else None
    if not sat:
        return None
    for p in level["points"]:
        if p["target_rate"] == sat["target_rate"]:
            return p
    return None


def common_ok_rate(level_a, level_b):
    """Highest target rate both levels ran with both points ok, with the two points; None if none."""
    best = None
    for pa in level_a["points"]:
        for pb in level_b["points"]:
            same = abs(pa["target_rate"] - pb["target_rate"]) <= RATE_MATCH * max(pa["target_rate"], 1)
            if same and pa["state"] == "ok" and pb["state"] == "ok":
                if best is None or pa["target_rate"] > best[0]:
                    best = (pa["target_rate"], pa, pb)
    return best


def _fmt_rss(point):
    if not point or point.get("server_rss_bytes") is None:
        return "—"
    return f"{point['server_rss_bytes'] / 1e6:,.0f}"


def _fmt_ms(value):
    return "—" if value is None else f"{value:,.1f}"


def _runs_note(doc, name):
    reps = max((lv.get("repetitions", 1) for lv in doc["levels"]), default=1)
    return f"{name}: {doc['label']} ({doc['run_id']}; " + (
        f"median of {reps} repetitions)" if reps > 1 else "a single run: no spread, differences cannot be told from noise)")


def _setup_words(tag):
    if tag == "one process":
        return tag
    if tag == "w1-broker":
        return "one worker relaying through a broker"
    return f"{tag[1:]} workers sharing a broker"


def compare_table(a, b):
    """The Markdown table (a string) comparing result documents a and b; two sessions runs get
    fanout_compare_table. ValueError when only one of them is a sessions run (different verdicts)."""
    if is_sessions_run(a) or is_sessions_run(b):
        if not (is_sessions_run(a) and is_sessions_run(b)):
            which = "A" if is_sessions_run(a) else "B"
            raise ValueError(f"{which} is a sessions run (fan-out saturation in copies/s) and the other is not "
                             "(saturation in msgs/s): their figures are different verdicts, not comparable")
        return fanout_compare_table(a, b)
    la, lb = _levels(a), _levels(b)
    lines = [
        _runs_note(a, "A"),
        _runs_note(b, "B"),
        "",
        "| clients | A sat. msgs/s median (min–max) | B sat. msgs/s median (min–max) | B/A | B vs A "
        "| common rate msgs/s | A p99 ms | B p99 ms | A RSS MB | B RSS MB |",
        "| ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    setups = [scale_out_tag(d["server"]) or "one process" for d in (a, b)]
    if setups[0] != setups[1]:
        lines[2:2] = ["", f"Different setups: A ran {_setup_words(setups[0])}, B {_setup_words(setups[1])}; "
                      "the ratio is a scale-out figure, not a runtime comparison."]
    any_cb = False
    for n in sorted(set(la) | set(lb)):
        ra, rb = level_range(la.get(n), server_sampled(a)), level_range(lb.get(n), server_sampled(b))
        any_cb = any_cb or any(r and r["client_bound"] for r in (ra, rb))
        ratio = _ratio(ra, rb)
        common = common_ok_rate(la[n], lb[n]) if n in la and n in lb else None
        rate, p99a, p99b = ("—", None, None) if not common else (
            f"{common[0]:,.0f}", common[1]["rtt_ms"]["p99"], common[2]["rtt_ms"]["p99"])
        lines.append(f"| {n} | {_fmt_range(ra)} | {_fmt_range(rb)} | {'—' if ratio is None else f'{ratio:.2f}'} | "
                     f"{verdict(ra, rb)} | {rate} | {_fmt_ms(p99a)} | {_fmt_ms(p99b)} | "
                     f"{_fmt_rss(_sat_point(la.get(n)))} | {_fmt_rss(_sat_point(lb.get(n)))} |")
    lines += ["", "B vs A: a difference only when the min–max ranges do not overlap; otherwise within noise."]
    if any_cb:
        lines.append("† client-bound in at least one repetition: the client, not the server, limited this figure.")
    lines += _floor_notes([("A", la, server_sampled(a)), ("B", lb, server_sampled(b))])
    lines += _sessions_tables([a, b])
    return "\n".join(lines)


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
        groups.setdefault((mode_text(d), churn_pct(d)), []).append(d)
    out = ["Fan-out saturation per level (sessions runs, judged on every copy: copies/s delivered with every "
           "copy's p99 under 200 ms), median (min–max) over repetitions, ranked high to low: > only where the "
           "min–max ranges do not overlap and the lower figure is the server's limit; ≈ within noise; ? not "
           "ranked (a single run, or a floor below); ≥ a floor, not the server's limit; † client-bound in at "
           "least one repetition."]
    for (mode, _), group in groups.items():
        names = [run_name(d) for d in group]
        names = [n if names.count(n) == 1 else f"{n} ({d['run_id']})" for n, d in zip(names, group)]
        out += ["", f"Mode {mode}{_churn_words(group[0])}:", "", "| sessions | ranking | no ok point |",
                "| ---: | --- | --- |"]
        for n in sorted({lv["concurrency"] for d in group for lv in d["levels"]}):
            ranked, none = [], []
            for name, d in zip(names, group):
                level = _levels(d).get(n)
                if level is None:
                    continue
                r = level_range(level, server_sampled(d))
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
    la, lb = _levels(a), _levels(b)
    if churn_pct(a) != churn_pct(b):
        note = [f"Different churn: A {churn_pct(a):g} %, B {churn_pct(b):g} % of sessions reconnecting per "
                "second; B vs A is what the reconnect storm costs, not a server comparison.", ""]
    else:
        note = []
    lines = [_runs_note(a, "A") + _churn_words(a), _runs_note(b, "B") + _churn_words(b), ""] + note + [
        "| sessions | A fan-out copies/s median (min–max) | B fan-out copies/s median (min–max) | B/A | B vs A |",
        "| ---: | ---: | ---: | ---: | --- |"]
    for n in sorted(set(la) | set(lb)):
        ra, rb = level_range(la.get(n), server_sampled(a)), level_range(lb.get(n), server_sampled(b))
        cells = [("no ok point" if n in levels else "not run") if r is None else _fmt_copies(r)
                 for r, levels in ((ra, la), (rb, lb))]
        ratio = _ratio(ra, rb)
        lines.append(f"| {n:,} | {cells[0]} | {cells[1]} | {'—' if ratio is None else f'{ratio:.2f}'} | {verdict(ra, rb)} |")
    lines += ["", "Fan-out saturation: copies/s delivered with every copy's p99 under 200 ms (the sessions profile's "
              "verdict). B vs A: a difference only when the min–max ranges do not overlap; otherwise within noise."]
    lines += _floor_notes([("A", la, server_sampled(a)), ("B", lb, server_sampled(b))])
    lines += _sessions_tables([a, b])
    return "\n".join(lines)


def _sessions_tables(docs):
    """The sessions table of each run that has sessions levels (bench/sessions_text.py), [] when none has."""
    out = []
    for doc in docs:
        table = sessions_table(doc, server_sampled(doc))
        if table:
            out += [""] + table
    return out


def _floor_notes(named_levels):
    """One line per floor figure: which run, which level, why (bench/floors.py); one per figure that was
    the server's own limit below full CPU, with its label; one line per run whose server was not sampled.
    named_levels: [(name, {concurrency: level}, server sampled)]."""
    notes = []
    for name, levels, sampled in named_levels:
        if not sampled:
            notes.append(f"{name}: {NOT_SAMPLED_NOTE}.")
        for n in sorted(levels):
            reasons = level_floor_reasons(levels[n], sampled)
            if reasons and levels[n].get("saturation"):
                notes.append(f"≥ {name} at {n} clients is a floor: {'; '.join(reasons)}.")
            if levels[n].get("saturation"):
                notes += [f"{name} at {n} clients: {note}." for note in limit_notes(levels[n], sampled)]
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


def pick_base(docs, base):
    """The (path, doc) whose run name is `base`, else whose file name or label contains it;
    ValueError if none or several match."""
    hits = [(p, d) for p, d in docs if run_name(d) == base]
    if not hits:
        hits = [(p, d) for p, d in docs if base in os.path.basename(p) or base in d["label"]]
    if len(hits) != 1:
        names = ", ".join(os.path.basename(p) for p, _ in (hits or docs))
        raise ValueError(f"BASE={base!r} matches {len(hits)} files (need exactly one) among: {names}")
    return hits[0]


def default_base(docs):
    """The baseline when BASE= is not given: DEFAULT_BASE when the folder holds it, else the run
    named first in the server registry (docs/contract/server-registry.json; e.g. pypy-fast in a runtimes
    set, which has no peer), else DEFAULT_BASE (pick_base then names the files there are)."""
    names = {run_name(d) for _, d in docs}
    if DEFAULT_BASE in names:
        return DEFAULT_BASE
    try:
        order = load_registry().names()
    except RegistryError:
        return DEFAULT_BASE
    return next((n for n in order if n in names), DEFAULT_BASE)


def matrix_table(docs, base=None):
    """Markdown: every run's median (min–max) per level, then each run's ratio to the baseline run
    (base: a run name, file name or label part; None = default_base). Sessions runs are left to
    fanout_ranking (printed after the throughput tables, or alone when every run is one)."""
    sessions_docs = [d for _, d in docs if is_sessions_run(d)]
    docs = [(p, d) for p, d in docs if not is_sessions_run(d)]
    if not docs:
        return "\n".join(fanout_ranking(sessions_docs) + _sessions_tables(sessions_docs))
    tail = ([""] + fanout_ranking(sessions_docs) + _sessions_tables(sessions_docs)) if sessions_docs else []
    return "\n".join([_throughput_matrix(docs, base)] + tail)


def _throughput_matrix(docs, base):
    base_path, base_doc = pick_base(docs, base or default_base(docs))
    levels = sorted({lv["concurrency"] for _, d in docs for lv in d["levels"]})
    head = "| run | " + " | ".join(str(n) for n in levels) + " |"
    rule = "| --- |" + " ---: |" * len(levels)
    out = [f"Saturation throughput, received msgs/s: median (min–max) over repetitions; † client-bound "
           "in at least one repetition; ≥ a floor, not the server's limit (why: below the tables).",
           "", head, rule]
    for _, d in docs:
        lv = _levels(d)
        out.append(f"| {d['label']} | " + " | ".join(_fmt_range(level_range(lv.get(n), server_sampled(d)))
                                                      for n in levels) + " |")
    base_levels = _levels(base_doc)
    out += ["", f"Against the baseline {base_doc['label']} ({os.path.basename(base_path)}): median ratio; "
            "≈ = the ranges overlap (within noise), ? = a single run on either side (noise unknown), "
            "≥ = the lower figure is a floor (no verdict).", "", head, rule]
    for _, d in docs:
        lv = _levels(d)
        cells = []
        for n in levels:
            ra, rb = level_range(base_levels.get(n), server_sampled(base_doc)), level_range(lv.get(n), server_sampled(d))
            ratio = _ratio(ra, rb)
            if ratio is None:
                cells.append("—")
                continue
            v = verdict(ra, rb)
            mark = " ≈" if v == "within noise" else (" ?" if v.startswith("single") else (" ≥" if "floor" in v else ""))
            cells.append(f"{ratio:.2f}{mark}")
        out.append(f"| {d['label']} | " + " | ".join(cells) + " |")
    out += _floor_notes([(d["label"], _levels(d), server_sampled(d)) for _, d in docs])
    out += _sessions_tables([d for _, d in docs])
    return "\n".join(out)


USAGE = ("usage: compare.py A.json B.json [--level N]        (make compare A=... B=... [LEVEL=N])\n"
         f"       compare.py FOLDER [--base TEXT] [--level N]  (make compare DIR=... [BASE=...] [LEVEL=N]; "
         f"default base {DEFAULT_BASE}, else the first server registry entry present)\n"
         "       --level N: the verdict at N concurrent clients (default: the highest level every run measured)")


def _take_option(argv, name, valid):
    """Remove `name VALUE` from argv; (True, VALUE, argv) or (False, None, argv) when absent;
    (None, None, argv) when the value is missing or not valid(value)."""
    if name not in argv:
        return False, None, argv
    i = argv.index(name)
    if i + 1 >= len(argv) or not valid(argv[i + 1]):
        return None, None, argv
    return True, argv[i + 1], argv[:i] + argv[i + 2:]


def verdict_block(paths, level):
    """The verdict lines to print above the tables."""
    return ["Verdict" + (f" at {level} clients" if level else " (per group, the highest level every run measured)")
            + ": > only where the min–max ranges do not overlap; ≈ within noise; ? not ranked; ≥ a floor.", ""] + [
        f"- {line}" for line in verdict_sentences(paths, level)] + [""]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    found, base, argv = _take_option(argv, "--base", lambda v: True)
    found_level, level, argv = _take_option(argv, "--level", lambda v: v.isdigit() and int(v) >= 1)
    if found is None or found_level is None:
        print(USAGE, file=sys.stderr)
        return 2
    level = int(level) if level else None
    if len(argv) not in (1, 2) or any(a.startswith("-") for a in argv) or (len(argv) == 1) != os.path.isdir(argv[0]):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        if len(argv) == 2:
            docs = [(p, load_result(p)) for p in argv]
            table = compare_table(docs[0][1], docs[1][1])
        else:
            paths = sorted(glob.glob(os.path.join(argv[0], "*.json")))
            paths = [p for p in paths if os.path.basename(p) != "schema.json"]
            if not paths:
                raise ValueError(f"{argv[0]}: no result files (*.json)")
            docs = [(p, load_result(p)) for p in paths]
            table = matrix_table(docs, base)
        # The verdict sentences rank throughput; sessions runs are ranked by fan-out saturation in the table.
        throughput = [p for p, d in docs if not is_sessions_run(d)]
        if throughput:
            print("\n".join(verdict_block(throughput, level)))
        print(table)
    except (ValueError, VerdictUnavailable) as exc:
        print(f"compare: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
