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
saturation is the fan-out saturation in copies/s, so they are never put in the
throughput matrix or verdict. They get their own ranking per level
(compare_sessions.py), by the same rule (level_ranges.py); two sessions files
get the fan-out figures side by side.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# docs/contract holds the server registry's one reader (sockbench_contract.registry).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "contract"))

from compare_sessions import fanout_compare_table, fanout_ranking, is_sessions_run, sessions_tables  # noqa: E402
from floors import saturation_point, server_view  # noqa: E402
from level_ranges import (floor_notes, level_range, levels_by_concurrency, median_ratio, run_name,  # noqa: E402
                          runs_note, verdict)
from results_io import load_result, result_paths, scale_out_tag  # noqa: E402
from sockbench_contract.registry import RegistryError, load as load_registry  # noqa: E402
from verdict import VerdictUnavailable, verdict_sentences  # noqa: E402

RATE_MATCH = 0.005  # target rates within 0.5 % count as the same step of the ramp
# The default baseline of a folder comparison: the original sockjs-tornado on
# CPython, the subject of the 2011 benchmark and a third-party implementation
# that does not change when our code does.
DEFAULT_BASE = "sockjs-tornado-cpython"


def _fmt_range(r):
    if r is None:
        return "—"
    text = ("≥ " if r.get("floor") else "") + f"{r['median']:,.0f}"
    if r["runs"] > 1:
        text += f" ({r['min']:,.0f}–{r['max']:,.0f})"
    return text + (" †" if r["client_bound"] else "")


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


def _setup_words(tag):
    if tag == "one process":
        return tag
    if tag == "w1-broker":
        return "one worker relaying through a broker"
    workers, _, proxy = tag[1:].partition("-")
    if proxy:
        return f"{workers} one-worker processes sharing a broker behind {proxy}"
    return f"{workers} workers sharing a broker"


def slow_readers_words(doc):
    """A run's slow readers in words (parameters.slow_clients): "none", or "10 % of the sessions at 64 KiB/s"."""
    slow = doc.get("parameters", {}).get("slow_clients")
    return f"{slow['pct']:g} % of the sessions at {slow['kib_per_s']} KiB/s" if slow else "none"


def compare_table(a, b):
    """The Markdown table (a string) comparing result documents a and b; two sessions runs get
    fanout_compare_table. ValueError when only one of them is a sessions run (different verdicts)."""
    if is_sessions_run(a) or is_sessions_run(b):
        if not (is_sessions_run(a) and is_sessions_run(b)):
            which = "A" if is_sessions_run(a) else "B"
            raise ValueError(f"{which} is a sessions run (fan-out saturation in copies/s) and the other is not "
                             "(saturation in msgs/s): their figures are different verdicts, not comparable")
        return fanout_compare_table(a, b)
    la, lb = levels_by_concurrency(a), levels_by_concurrency(b)
    lines = [
        runs_note(a, "A"),
        runs_note(b, "B"),
        "",
        "| clients | A sat. msgs/s median (min–max) | B sat. msgs/s median (min–max) | B/A | B vs A "
        "| common rate msgs/s | A p99 ms | B p99 ms | A RSS MB | B RSS MB |",
        "| ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    setups = [scale_out_tag(d["server"]) or "one process" for d in (a, b)]
    if setups[0] != setups[1]:
        lines[2:2] = ["", f"Different setups: A ran {_setup_words(setups[0])}, B {_setup_words(setups[1])}; "
                      "the ratio is a scale-out figure, not a runtime comparison."]
    slow = [slow_readers_words(d) for d in (a, b)]
    if slow[0] != slow[1]:
        lines[2:2] = ["", f"Different slow readers: A {slow[0]}, B {slow[1]}; each run's figures are its healthy "
                      "sessions', so the difference is what the slow readers cost them (docs/slow-readers.md)."]
    any_cb = False
    for n in sorted(set(la) | set(lb)):
        ra, rb = level_range(la.get(n), server_view(a)), level_range(lb.get(n), server_view(b))
        any_cb = any_cb or any(r and r["client_bound"] for r in (ra, rb))
        ratio = median_ratio(ra, rb)
        common = common_ok_rate(la[n], lb[n]) if n in la and n in lb else None
        rate, p99a, p99b = ("—", None, None) if not common else (
            f"{common[0]:,.0f}", common[1]["rtt_ms"]["p99"], common[2]["rtt_ms"]["p99"])
        lines.append(f"| {n} | {_fmt_range(ra)} | {_fmt_range(rb)} | {'—' if ratio is None else f'{ratio:.2f}'} | "
                     f"{verdict(ra, rb)} | {rate} | {_fmt_ms(p99a)} | {_fmt_ms(p99b)} | "
                     f"{_fmt_rss(saturation_point(la.get(n) or {}))} | {_fmt_rss(saturation_point(lb.get(n) or {}))} |")
    lines += ["", "B vs A: a difference only when the min–max ranges do not overlap; otherwise within noise."]
    if any_cb:
        lines.append("† client-bound in at least one repetition: the client, not the server, limited this figure.")
    lines += floor_notes([("A", la, server_view(a)), ("B", lb, server_view(b))])
    lines += sessions_tables([a, b])
    return "\n".join(lines)


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
        return "\n".join(fanout_ranking(sessions_docs) + sessions_tables(sessions_docs))
    tail = ([""] + fanout_ranking(sessions_docs) + sessions_tables(sessions_docs)) if sessions_docs else []
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
        lv = levels_by_concurrency(d)
        out.append(f"| {d['label']} | " + " | ".join(_fmt_range(level_range(lv.get(n), server_view(d)))
                                                      for n in levels) + " |")
    base_levels = levels_by_concurrency(base_doc)
    out += ["", f"Against the baseline {base_doc['label']} ({os.path.basename(base_path)}): median ratio; "
            "≈ = the ranges overlap (within noise), ? = a single run on either side (noise unknown), "
            "≥ = the lower figure is a floor (no verdict).", "", head, rule]
    for _, d in docs:
        lv = levels_by_concurrency(d)
        cells = []
        for n in levels:
            ra, rb = level_range(base_levels.get(n), server_view(base_doc)), level_range(lv.get(n), server_view(d))
            ratio = median_ratio(ra, rb)
            if ratio is None:
                cells.append("—")
                continue
            v = verdict(ra, rb)
            mark = " ≈" if v == "within noise" else (" ?" if v.startswith("single") else (" ≥" if "floor" in v else ""))
            cells.append(f"{ratio:.2f}{mark}")
        out.append(f"| {d['label']} | " + " | ".join(cells) + " |")
    out += floor_notes([(d["label"], levels_by_concurrency(d), server_view(d)) for _, d in docs])
    out += sessions_tables([d for _, d in docs])
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
            paths = result_paths(argv[0])
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
