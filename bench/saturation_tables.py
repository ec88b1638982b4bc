"""The saturation tables of a result folder as Markdown, one table per algorithm group, as the
reference pages print them (docs/reference-results.md, docs/reference-runtimes.md).

  python3 bench/saturation_tables.py results/reference-runtimes [--rss-level 1000]
  make saturation-tables DIR=results/reference-runtimes [RSS_LEVEL=1000]

A cell is a level's saturation throughput (received msgs/s at the best point with mean RTT under
the ok threshold): the median of the repetitions and, in brackets, their min–max (bench/compare.py
computes both). "≥" marks a floor and "†" a client-bound repetition (bench/floors.py decides; the
reasons are listed under each table, so a reader never has to guess why a figure is only a floor;
so is the label of a figure that is the server's own limit reached below full CPU).
The RSS column is the server's resident set at the median repetition's saturation point at
`--rss-level` clients. Rows follow docs/contract/server-registry.json's order; a file without a registry
entry (make bench-url) goes last under its own label. Tables are per algorithm group because
runtimes are only compared with the algorithm held fixed.

Share of the limit (a figure read against what any runtime could reach on this host): the
folder is one session, and when it holds the limit server of a
group (the registry's `limit` group: limit-naive for the naive table, limit-fast for the fast one;
bench/limit-server/) the table gains a column giving, for every row and level, the row's figure as
a percentage of the limit's figure at the same level. It is the median over the median, and only
that: the repetitions of two servers are not paired, so no range is derived for the share; each
figure's own range stands in its cell. Floors stay floors: a floor over the limit's figure is
"≥ N %" (rounded down), a figure over a limit that is itself a floor "≤ N %" (rounded up), and
where both are floors the share is unknown and not given. Where a group or a level has no limit
figure the column shows "—" (never 0, never a guess) and one line under the table says why. The site
gives the same share (site/src/js/limit-share.js); both test against docs/contract/limit-share-cases.json.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# docs/contract holds the server registry's one reader (sockbench_contract.registry).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "contract"))

from level_ranges import bounded_ratio, level_range, round_bound  # noqa: E402
from floors import saturation_point, server_view  # noqa: E402
from results_io import load_result, result_paths  # noqa: E402
from sessions_text import sessions_table  # noqa: E402
from sockbench_contract.registry import load as load_registry  # noqa: E402

#: The table heading per algorithm group (sockbench_contract/registry.py MODES).
GROUP_TITLES = {"fast": "coalesced (fast)", "naive": "one frame per message"}

#: The registry group whose entries measure the machine's ceiling, one per algorithm group
#: (docs/contract/server-registry.json: limit-naive, limit-fast).
LIMIT_GROUP = "limit"


def _si(value):
    """2090000 -> '2.09 M', 186000 -> '186 k': three significant figures, as the reference pages print."""
    for scale, unit in ((1e6, " M"), (1e3, " k")):
        if value >= scale:
            digits = 2 if value < 10 * scale else 1 if value < 100 * scale else 0
            return f"{value / scale:.{digits}f}{unit}"
    return f"{value:.0f}"


def cell(figure):
    """One table cell from compare.level_range's dict; '—' for a level without a figure."""
    if figure is None:
        return "—"
    text = ("≥ " if figure["floor"] else "") + _si(figure["median"])
    if figure["runs"] > 1:
        text += f" ({_si(figure['min'])}–{_si(figure['max'])})"
    return text + (" †" if figure["client_bound"] else "")


class FigureNotes:
    """The lines under a table of cells: every floor with its reasons, every figure that was the server's own
    limit below full CPU with its label (bench/floors.py, through level_ranges.level_range's dict), each under
    the name of its cell, so a reader never has to guess why a figure is only a floor."""

    def __init__(self):
        self.floors, self.own_limits = [], []

    def add(self, name, figure):
        """Note the figure (a level_range dict, or None) of the cell called `name` ("pypy-fast, 100 clients")."""
        if figure and figure["floor"]:
            self.floors.append(f"- {name}: {'; '.join(figure['floor'])}")
        if figure and figure["limit"]:
            self.own_limits.append(f"- {name}: {'; '.join(figure['limit'])}")

    def lines(self):
        """The floors (or that there are none), then the own limits if any; each block ends with a blank line."""
        out = [f"Floors ({len(self.floors)}):" if self.floors else "No floors: every figure is the server's limit.",
               *self.floors, ""]
        if self.own_limits:
            out += [f"The server's own limit below full CPU, beside a client with clear headroom "
                    f"({len(self.own_limits)}): no floor by itself; a level stays a floor when another "
                    "repetition's figure is one.", *self.own_limits, ""]
        return out


def saturation_rss_mib(level):
    """Server RSS (MiB) at the level's saturation point, from its (median repetition's) points; None if unknown.
    The point is floors.saturation_point's (ok, the figure's received/s): matching the target rate alone
    could take an earlier point at the same rate that was not ok."""
    point = saturation_point(level or {})
    if point is None or point.get("server_rss_bytes") is None:
        return None
    return point["server_rss_bytes"] / 2 ** 20


def share_text(figure, limit):
    """A figure as a share of the limit's figure at the same level (both compare.level_range dicts):
    "38 %", "≥ 38 %" when the figure is a floor, "≤ 38 %" when the limit's is; None when either has
    no figure or both are floors (the share is then unknown). Median over median, nothing else.
    Whole percent from 10 %, one decimal below; a bound is rounded away from the claim it makes
    ("≥" down, "≤" up) so rounding never overstates it."""
    bounded = bounded_ratio(limit, figure)
    if bounded is None:
        return None
    ratio, mark = bounded
    pct = 100.0 * ratio
    return f"{mark} {round_bound(pct, mark, 1 if pct >= 10 else 10):g} %".lstrip()


def limit_doc(docs, registry, group):
    """(the folder's limit result for an algorithm group, or None; why there is none, or None)."""
    names = [e.name for e in registry.group(LIMIT_GROUP) if e.mode == group]
    found = [doc for doc in docs if (doc.get("server") or {}).get("entry") in names]
    wanted = " or ".join(names) or f"a `{LIMIT_GROUP}` entry of mode {group}"
    if not found:
        return None, (f"No share of the limit: this folder has no {wanted} result "
                      f"(`make bench SERVERS={','.join(names) or LIMIT_GROUP}` in the same session).")
    if len(found) > 1:
        return None, (f"No share of the limit: this folder has {len(found)} {wanted} results, "
                      "so which one is this session's limit is not known.")
    return found[0], None


def rows(docs, registry):
    """[(group, label, doc)] ordered by registry entry, then by label for files without one."""
    order = {name: i for i, name in enumerate(registry.names())}
    out = []
    for doc in docs:
        name = (doc.get("server") or {}).get("entry")
        entry = registry.entry(name) if name in order else None
        group = entry.mode if entry else (doc["server"].get("mode") or "naive")
        label = entry.label if entry else doc["label"]
        out.append((order.get(name, len(order)), label, group, doc))
    out.sort(key=lambda r: (r[0], r[1]))
    return [(group, label, doc) for _, label, group, doc in out]


def tables(docs, registry, rss_level=None):
    """The Markdown text: per group a table (rows: servers; columns: levels, the share of the limit when the
    folder has the group's limit result, and RSS), its floor reasons, and why a share is absent."""
    levels = sorted({lv["concurrency"] for doc in docs for lv in doc["levels"]})
    rss_level = rss_level if rss_level in levels else (levels[-1] if levels else None)
    out = []
    for group, title in GROUP_TITLES.items():
        members = [(label, doc) for g, label, doc in rows(docs, registry) if g == group]
        if not members:
            continue
        limit, no_limit_why = limit_doc(docs, registry, group)
        limit_figures = ({lv["concurrency"]: level_range(lv, server_view(limit)) for lv in limit["levels"]}
                         if limit else {})
        heads = [str(n) for n in levels] + ([f"% of limit at {' · '.join(str(n) for n in levels)}"] if limit else [])
        out.append(f"| {title} | " + " | ".join(heads) + f" | RSS at {rss_level} |")
        out.append("| --- |" + " ---: |" * (len(levels) + 1 + (1 if limit else 0)))
        notes, no_share = FigureNotes(), {"no limit figure": [], "both floors": []}
        for label, doc in members:
            by_level = {lv["concurrency"]: lv for lv in doc["levels"]}
            server = server_view(doc)
            cells, shares = [], []
            for n in levels:
                figure = level_range(by_level.get(n), server)
                cells.append(cell(figure))
                notes.add(f"{label}, {n} clients", figure)
                if limit and doc is not limit:
                    share = share_text(figure, limit_figures.get(n))
                    shares.append(share or "—")
                    if share is None and figure is not None:
                        no_share["no limit figure" if limit_figures.get(n) is None else "both floors"].append(n)
            if limit:
                cells.append("the limit" if doc is limit else " · ".join(shares))
            rss = saturation_rss_mib(by_level.get(rss_level))
            cells.append("—" if rss is None else f"{rss:,.0f} MiB")
            out.append(f"| {label} | " + " | ".join(cells) + " |")
        out.append("")
        out.extend(notes.lines())
        if limit:
            out.append(f"Share of the limit: each figure's median over {_entry(limit)}'s median at the same level "
                       "(median only: no range is derived); ≥ over a floor, ≤ over a limit that is a floor.")
            out.extend(_no_share_lines(limit, no_share))
        else:
            out.append(no_limit_why)
        out.append("")
        for _, doc in members:  # a sessions run's per-level figures (bench/sessions_text.py)
            table = sessions_table(doc, server_view(doc))
            if table:
                out += table + [""]
    return "\n".join(out)


def _entry(doc):
    return (doc.get("server") or {}).get("entry") or doc["label"]


def _no_share_lines(limit, no_share):
    """One line per reason a figure has no share although the folder has a limit result, naming the levels."""
    def where(levels):
        return ", ".join(str(n) for n in sorted(set(levels))) + " clients"
    out = []
    if no_share["no limit figure"]:
        out.append(f"- {_entry(limit)} has no figure at {where(no_share['no limit figure'])}: no share there.")
    if no_share["both floors"]:
        out.append(f"- No share where a figure and {_entry(limit)}'s are both floors (unknown): "
                   f"{where(no_share['both floors'])}.")
    return out


def main(argv):
    parser = argparse.ArgumentParser(prog="saturation_tables.py",
                                     description="Markdown saturation tables of a result folder, one per algorithm group.")
    parser.add_argument("folder", help="a folder of result files (results/schema.json)")
    parser.add_argument("--rss-level", type=int, default=None,
                        help="concurrent clients whose saturation RSS the last column shows "
                             "(default: the highest level measured)")
    args = parser.parse_args(argv)
    paths = result_paths(args.folder)
    if not paths:
        parser.error(f"no result files (*.json) in {args.folder}")
    try:
        docs = [load_result(p) for p in paths]
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(tables(docs, load_registry(), args.rss_level), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
