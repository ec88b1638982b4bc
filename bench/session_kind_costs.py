"""What each session kind costs each server, relative to plain websocket sessions, as Markdown tables
— what a SockJS user choosing a stack cannot find measured anywhere: the same servers measured with
different kinds of sessions, side by side per level.

  python3 bench/session_kind_costs.py results/<folder> [--levels 100,1000]
  make session-kind-costs DIR=results/<folder> [LEVELS=100,1000]

What a session kind is. A result file is one server measured with one kind of session, read from its
`parameters` (results/README.md): the SockJS transport(s) the sessions used (`transports`: `websocket`,
`xhr-streaming`, `eventsource`, `xhr-polling`, or a weighted mix such as
`websocket:16,xhr-streaming:2,eventsource:1,xhr-polling:1`), whether the websocket frames were compressed
(`compression`: `permessage-deflate`) and whether a share of the sessions read slowly (`slow_clients`:
10 % at 64 KiB/s). An absent field is the plain kind: websocket sessions, no compression, no slow reader.
The folder holds one file per server and kind: the runs of `make bench SERVERS=... TRANSPORTS=...`,
`COMPRESSION=permessage-deflate`, `SLOW_CLIENTS=10%:64`, ... gathered in one folder (two files of the same
server and kind are refused: which one is the figure would be a guess). A server is its registry entry
(docs/contract/server-registry.json; rows in its order, files without an entry last), else its name,
runtime, codec and mode, and a scaled-out setup is a server of its own.

The unit: broadcasts per second. A cell is a level's saturation (the best point whose latency stayed
under the ok threshold) said as the messages the clients SENT per second there, not the copies they
received. Received/s counts copies, and what counts as a copy depends on the kind: with slow readers a
point's own counts are the healthy sessions' only (the slow ones are kept apart, in the point's
`slow_clients`), so 10 % slow readers would read as a 10 % loss at the very same broadcast rate. The
sent rate is the broadcast load the server carried to every session whatever the kind, so it is the one
figure the kinds can be read against. It is the median repetition's (the repetition the file's headline
chose), in brackets the min–max over every repetition (bench/level_ranges.level_range, figure
"sent_per_s"). "≥" marks a floor and "†" a client-bound repetition, decided on the level as for every
figure (bench/floors.py; the reasons are listed under each table, as `make saturation-tables` does).

Relative to websocket. Beside every other kind's figure: "× 0.42", its median over the same server's
plain-websocket median at the same level (median over median, only that: the repetitions of two runs are
not paired), "≥"/"≤" when one of the two is a floor and the ratio is therefore a bound
(level_ranges.bounded_ratio), and the verdict of level_ranges.verdict, the kit's one rule for calling a
difference: lower or higher only where the min–max ranges do not overlap and the lower figure is the
server's limit, within noise otherwise. A server without a websocket file in the folder has no ratio.

What the kind costs besides throughput: a second table per level gives, at the median repetition's
saturation point, the server's CPU (percent of one core) and resident memory (MiB) for every kind, so
compression's CPU and memory show beside plain websocket's. At saturation the server's core is usually
full whatever the kind, so its CPU says little by itself: the cost is the lower broadcast rate that the
same core carried (the first table). A slow-reader kind adds the slow sessions the server cut off (the sum of
`slow_clients.lost_sessions` over every point of the median repetition's climb, so the same repetition as
the other figures; a cut-off session reopens for the next point, so one session may count more than once)
and how far behind they were (the p99 of `slow_clients.fanout_ms` at the saturation point: copies they read
late, from the send schedule); a deflate kind the compression the sessions saw (`bytes_inflated` over
`bytes_read` at the saturation point, frame headers included). RSS is the server's own memory: the kernel's
socket buffers, which hold most of what a slow reader has not read, are not in it (docs/slow-readers.md).

Sessions runs (the `sessions` profile, judged on every copy) are left out and named: their saturation is
another verdict (`make compare` ranks them). "—" is a figure that cannot be derived; a line under the table
says why, never a guess.
"""

import argparse
import os
import sys
from typing import NamedTuple, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# docs/contract holds the server registry's one reader (sockbench_contract.registry).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "contract"))

import compression  # noqa: E402
import reason_counts  # noqa: E402
import transports  # noqa: E402
from compare_sessions import is_sessions_run  # noqa: E402
from floors import NOT_SAMPLED_NOTE, saturation_point, saturation_server_cpu, server_view  # noqa: E402
from level_ranges import bounded_ratio, level_range, levels_by_concurrency, round_bound, verdict  # noqa: E402
from results_io import load_result, result_paths, scale_out_tag  # noqa: E402
from saturation_tables import FigureNotes, cell, rows  # noqa: E402
from sockbench_contract.registry import load as load_registry  # noqa: E402

#: The figure the kinds are compared by: messages sent per second at saturation (see the module's docstring).
FIGURE = "sent_per_s"

#: Each transport's short name in a mix's column title, in the order single transports are listed.
TRANSPORT_SHORT = {"websocket": "ws", "xhr-streaming": "xhr-s", "eventsource": "es", "xhr-polling": "xhr-p"}

#: level_ranges.verdict's answer (B: the kind, A: the same server's websocket) as the cell says it.
VERDICT_WORDS = {"B higher": "higher", "B lower": "lower", "within noise": "within noise",
                 "A is a floor: no verdict": "websocket's a floor: no verdict",
                 "B is a floor: no verdict": "a floor: no verdict",
                 "single run: noise unknown": "single run: noise unknown"}


class SessionKind(NamedTuple):
    """How a run's sessions read the broadcast: parameters.transports (canonical), parameters.compression,
    and parameters.slow_clients as (pct, kib_per_s), None without slow readers."""

    transports: str
    compression: str
    slow: Optional[Tuple[float, int]]


#: Plain websocket sessions: every other kind is read against this one.
WEBSOCKET = SessionKind(transports.WEBSOCKET, compression.NONE, None)


def session_kind(doc):
    """The SessionKind of a result file; an absent field is the plain kind's (every file before v6)."""
    parameters = doc.get("parameters") or {}
    slow = parameters.get("slow_clients")
    return SessionKind(parameters.get("transports", transports.WEBSOCKET),
                       parameters.get("compression", compression.NONE),
                       (slow["pct"], slow["kib_per_s"]) if slow else None)


def transport_weights(spec):
    """[(transport, weight)] of a canonical transports value: `websocket` is [("websocket", 1)]."""
    out = []
    for entry in spec.split(","):
        name, _, weight = entry.partition(":")
        out.append((name, int(weight or 1)))
    return out


def _pct(value):
    """A share in percent as a column title says it: 80, 12.5, 33.3."""
    return f"{round(value, 1):g}"


def kind_name(kind):
    """The column title: `websocket`, `xhr-streaming`, `mix 80/10/5/5 (ws/xhr-s/es/xhr-p)` (the shares computed
    from the canonical weights), `websocket + deflate`, `websocket + 10% slow @64 KiB/s`."""
    weights = transport_weights(kind.transports)
    if len(weights) == 1:
        parts = [weights[0][0]]
    else:
        total = sum(w for _, w in weights)
        parts = [f"mix {'/'.join(_pct(100 * w / total) for _, w in weights)} "
                 f"({'/'.join(TRANSPORT_SHORT.get(name, name) for name, _ in weights)})"]
    if kind.compression == "permessage-deflate":
        parts.append("deflate")
    elif kind.compression != compression.NONE:
        parts.append(kind.compression)
    if kind.slow:
        parts.append(f"{kind.slow[0]:g}% slow @{kind.slow[1]} KiB/s")
    return " + ".join(parts)


def kind_order(kind):
    """Sort key of the columns: plain websocket first, then single transports (in TRANSPORT_SHORT's order),
    mixes, compressed kinds, slow-reader kinds; a kind that is two of these goes with the later one."""
    weights = transport_weights(kind.transports)
    single = weights[0][0] if len(weights) == 1 else None
    category = (4 if kind.slow else 3 if kind.compression != compression.NONE else 2 if single is None
                else 0 if single == transports.WEBSOCKET else 1)
    rank = list(TRANSPORT_SHORT).index(single) if single in TRANSPORT_SHORT else len(TRANSPORT_SHORT)
    return category, rank, kind.transports, kind.compression, kind.slow or ()


def server_key(doc):
    """Which server a file measured, whatever its session kind: its registry entry, else its name, runtime,
    codec and mode; with its scale-out tag (results_io.scale_out_tag), a setup of its own."""
    server = doc["server"]
    who = server.get("entry") or (server.get("name"), server.get("runtime"), server.get("codec"), server.get("mode"))
    return who, scale_out_tag(server)


class Folder(NamedTuple):
    """A folder's files arranged for the tables: servers (key, label) in row order, kinds in column order,
    the file of each (server key, kind), and the sessions runs left out (their paths)."""

    servers: list
    kinds: list
    files: dict
    left_out: list


class DuplicateKind(ValueError):
    """Two files of one server and session kind: which is the figure would be a guess."""


def arrange(loaded, registry):
    """A Folder from [(path, doc)]; DuplicateKind naming both files when two share a server and kind."""
    left_out = [path for path, doc in loaded if is_sessions_run(doc)]
    measured = [(path, doc) for path, doc in loaded if not is_sessions_run(doc)]
    path_of = {id(doc): path for path, doc in measured}
    servers, files = {}, {}
    for _, label, doc in rows([doc for _, doc in measured], registry):  # the registry's row order
        key = server_key(doc)
        servers.setdefault(key, _server_label(doc, label, registry))
        at = (key, session_kind(doc))
        if at in files:
            raise DuplicateKind(f"{files[at][0]} and {path_of[id(doc)]} are both {servers[key]} with "
                                f"{kind_name(at[1])} sessions: keep one file per server and session kind in the folder")
        files[at] = (path_of[id(doc)], doc)
    kinds = sorted({kind for _, kind in files}, key=kind_order)
    return Folder(list(servers.items()), kinds, {at: doc for at, (_, doc) in files.items()}, left_out)


def _server_label(doc, rows_label, registry):
    """The row's label: the registry entry's (saturation_tables.rows), else the server's own fields (a file's
    `label` names its session kind too, which is the column's); a scale-out tag in brackets."""
    server = doc["server"]
    if server.get("entry") not in registry.names():
        rows_label = " · ".join(str(server[f]) for f in ("name", "runtime", "codec", "mode") if server.get(f))
    tag = scale_out_tag(server)
    return rows_label + (f" ({tag})" if tag else "")


def ratio_text(base, figure):
    """"× 0.42" (the kind's median over websocket's), "× ≥ 0.42" / "× ≤ 0.42" when one is a floor, "× —" when
    the ratio is unknown (both floors)."""
    bounded = bounded_ratio(base, figure)
    if bounded is None:
        return "× —"
    ratio, mark = bounded
    return f"× {mark + ' ' if mark else ''}{round_bound(ratio, mark, 100):.2f}"


def throughput_table(folder, n):
    """The lines of level n's broadcasts/s table, its floors and what is missing."""
    heads = [kind_name(k) for k in folder.kinds]
    out = [f"| {n} clients: broadcasts/s at saturation | " + " | ".join(heads) + " |",
           "| --- |" + " ---: |" * len(heads)]
    notes, missing, short = FigureNotes(), [], []
    for key, label in folder.servers:
        base_doc = folder.files.get((key, WEBSOCKET))
        base = _figure(base_doc, n)
        cells = []
        for kind in folder.kinds:
            doc = folder.files.get((key, kind))
            figure = _figure(doc, n)
            name = f"{label}, {kind_name(kind)}"
            notes.add(name, figure)
            opened = short_opened(levels_by_concurrency(doc).get(n) if doc else None, n)
            if opened:
                short.append(f"- {name}: {opened}")
            if figure is None:
                cells.append("—")
                if doc is not None:
                    missing.append(f"- {name}: {_why_no_figure(doc, n)}.")
                continue
            text = cell(figure)
            if kind != WEBSOCKET and base is not None:
                text += f" · {ratio_text(base, figure)} · {VERDICT_WORDS.get(verdict(base, figure))}"
            elif kind != WEBSOCKET:
                missing.append(f"- {name}: no ratio, " + (f"websocket {_why_no_figure(base_doc, n)}." if base_doc
                                                         else "the folder has no websocket file of this server."))
            cells.append(text)
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out.append("")
    out += notes.lines()
    if short:
        # Not a floor (the server carried what it carried), but fewer sessions than the column says: each
        # broadcast went to fewer copies, so the figure is not quite the level's.
        out += ["Fewer sessions than the level (the figure is over the sessions that opened):", *short, ""]
    if missing:
        out += ["Without a figure or a ratio:", *missing, ""]
    return out


def short_opened(level, n):
    """"opened 900–929 of 1000 sessions in 3 of 3 repetitions (connect errors: timeout)" when some repetition
    of level n opened fewer sessions than n; None when every one opened them all (or no level)."""
    if level is None:
        return None
    runs = level.get("runs") or [level]
    counts = [r.get("connected") for r in runs if r.get("connected") is not None and r["connected"] < n]
    if not counts:
        return None
    lo, hi = min(counts), max(counts)
    opened = f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"
    return f"opened {opened} of {n:,} sessions in {len(counts)} of {len(runs)} repetitions"


def _figure(doc, n):
    """level_range of level n's broadcasts/s in `doc`; None without a file, a level or a figure."""
    if doc is None:
        return None
    return level_range(levels_by_concurrency(doc).get(n), server_view(doc), FIGURE)


def _why_no_figure(doc, n):
    level = levels_by_concurrency(doc).get(n)
    if level is None:
        return f"not measured at {n} clients"
    if not level.get("saturation"):
        return f"no ok point at {n} clients (no saturation)"
    return "no sent rate at the saturation point"


def cost_table(folder, n):
    """The lines of level n's cost table: at the median repetition's saturation point, server CPU and RSS per
    kind; the slow readers cut off and their p99 lag; the compression the sessions saw; cut-off reasons."""
    heads = [kind_name(k) for k in folder.kinds]
    out = [f"| {n} clients: at the saturation point | " + " | ".join(heads) + " |",
           "| --- |" + " ---: |" * len(heads)]
    cut_offs = []
    for key, label in folder.servers:
        cells = []
        for kind in folder.kinds:
            doc = folder.files.get((key, kind))
            level = levels_by_concurrency(doc).get(n) if doc else None
            cells.append(cost_cell(level, kind))
            reasons = slow_cut_off_reasons(level) if kind.slow and level else {}
            if reasons:
                cut_offs.append(f"- {label}, {kind_name(kind)}: {reason_counts.text(reasons, ' cut off')}")
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out.append("")
    if cut_offs:
        out += ["Slow sessions cut off, by the reason their session ended (every point of the median repetition):",
                *cut_offs, ""]
    return out


def cost_cell(level, kind):
    """"99 % CPU · 143 MiB · 1 msgs/frame", with " · cut off 3 · slow p99 4.2 s" for slow readers and " · deflate 3.1:1" for
    compression; "—" for a level without a saturation point."""
    point = saturation_point(level) if level else None
    if point is None:
        return "—"
    cpu = saturation_server_cpu(level)
    rss = point.get("server_rss_bytes")
    parts = ["CPU —" if cpu is None else f"{cpu:.0f} % CPU",
             "RSS —" if rss is None else f"{rss / 2 ** 20:,.0f} MiB"]
    # How many messages the server put in each frame it wrote: a library that queues a session's messages
    # while a write is pending (sockjs-node and sockjs-tornado on their HTTP transports) batches under load
    # even in a one-frame-per-message mode, which changes what the throughput measures.
    per_frame = (point.get("messages_per_frame") or {}).get("mean")
    if per_frame is not None:
        parts.append(f"{per_frame:,.0f} msgs/frame" if per_frame >= 100 else f"{per_frame:.3g} msgs/frame")
    if kind.slow:
        slow = point.get("slow_clients")
        cut = sum((p.get("slow_clients") or {}).get("lost_sessions", 0) for p in level["points"])
        lag = (slow or {}).get("fanout_ms", {}).get("p99")
        parts += [f"cut off {cut:,}" if slow else "cut off —", f"slow p99 {_ms(lag)}"]
    if kind.compression != compression.NONE:
        seen = point.get("compression") or {}
        parts.append(f"deflate {seen['bytes_inflated'] / seen['bytes_read']:.1f}:1" if seen.get("bytes_read")
                     else "deflate —")
    return " · ".join(parts)


def slow_cut_off_reasons(level):
    """Why the slow sessions the server cut off ended, over every point of the level, the most frequent first."""
    return reason_counts.summed((p.get("slow_clients") or {}).get("cut_off_reasons") for p in level["points"])


def _ms(value):
    if value is None:
        return "—"
    return f"{value / 1000:,.1f} s" if value >= 1000 else f"{value:,.0f} ms"


LEGEND = [
    "Broadcasts/s: messages sent per second at the saturation point (not copies received: with slow readers the "
    "received count is the healthy sessions' only), median repetition (min–max over repetitions). "
    "× the kind's median over the same server's websocket median at the same level; "
    "lower / higher only where the min–max ranges do not overlap and the lower figure is the server's limit, "
    "within noise otherwise (bench/level_ranges.py). ≥ a floor, not the server's limit; "
    "† client-bound in at least one repetition; — no file of that server and kind, or no figure (listed).",
    "",
    "At the saturation point: the median repetition's server CPU (percent of one core) and RSS (the server's own "
    "memory; the kernel's socket buffers are not in it). Slow readers: the sessions cut off over every point of "
    "the median repetition (a session reopens for the next point, so it may count twice) and the p99 of how far "
    "behind they read at the saturation point. Deflate: bytes inflated over bytes read there. Msgs/frame: the mean "
    "number of messages in each SockJS frame the clients received there (1: one frame per message).",
]


def tables(folder, levels):
    """The Markdown text: for each level its broadcasts/s table and its cost table, then the legend."""
    out = []
    if folder.left_out:
        out += ["Left out, sessions runs (judged on every copy: another verdict; `make compare` ranks them): "
                + ", ".join(os.path.basename(p) for p in folder.left_out) + ".", ""]
    measured = {lv["concurrency"] for doc in folder.files.values() for lv in doc["levels"]}
    for n in levels:
        if n not in measured:
            out += [f"No file measured {n} clients.", ""]
            continue
        out += throughput_table(folder, n) + cost_table(folder, n)
    labels = dict(folder.servers)
    out += [f"{labels[key]}, {kind_name(kind)}: {NOT_SAMPLED_NOTE}." for (key, kind), doc in folder.files.items()
            if not server_view(doc).sampled]
    out += LEGEND
    return "\n".join(out) + "\n"


def levels_arg(text):
    """--levels: a comma list of positive integers."""
    try:
        levels = sorted({int(part) for part in text.split(",")})
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a comma list of client counts, e.g. 100,1000") from None
    if not levels or levels[0] < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: client counts are at least 1")
    return levels


def main(argv):
    parser = argparse.ArgumentParser(prog="session_kind_costs.py",
                                     description="Markdown tables: what each session kind costs each server, "
                                                 "relative to its plain websocket sessions.")
    parser.add_argument("folder", help="a folder of result files (results/schema.json), one per server and kind")
    parser.add_argument("--levels", type=levels_arg, default=None,
                        help="comma list of concurrent clients to tabulate (default: every level measured)")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.folder):
        parser.error(f"{args.folder}: not a folder")
    paths = result_paths(args.folder)
    if not paths:
        print(f"session_kind_costs: no result files (*.json) in {args.folder}", file=sys.stderr)
        return 2
    try:
        loaded = [(p, load_result(p)) for p in paths]
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        folder = arrange(loaded, load_registry())
    except DuplicateKind as exc:
        print(f"session_kind_costs: {exc}", file=sys.stderr)
        return 2
    if not folder.files:
        print(f"session_kind_costs: only sessions runs in {args.folder}: nothing to tabulate (make compare ranks them)",
              file=sys.stderr)
        return 2
    levels = args.levels or sorted({lv["concurrency"] for doc in folder.files.values() for lv in doc["levels"]})
    print(tables(folder, levels), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
