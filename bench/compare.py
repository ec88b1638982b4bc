"""Compare two result files as a Markdown table, level by level.

  python3 bench/compare.py results/A.json results/B.json

Columns: saturation throughput of each run (highest received msgs/s whose mean
RTT was under the ok threshold), B/A, corrected p99 RTT of each at the highest
target rate both ran with both points ok (the fair place to compare tails),
and server RSS at each run's saturation point. Client-bound figures carry a
"†": they measure the client, not the server.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from results_io import load_result  # noqa: E402

RATE_MATCH = 0.005  # target rates within 0.5 % count as the same step of the ramp


def _levels(doc):
    return {level["concurrency"]: level for level in doc["levels"]}


def _sat(level):
    return level["saturation"] if level else None


def _sat_point(level):
    sat = _sat(level)
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


def _fmt_rate(sat):
    if not sat:
        return "—"
    return f"{sat['received_per_s']:,.0f}" + (" †" if sat.get("client_bound") else "")


def _fmt_rss(point):
    if not point or point.get("server_rss_bytes") is None:
        return "—"
    return f"{point['server_rss_bytes'] / 1e6:,.0f}"


def _fmt_ms(value):
    return "—" if value is None else f"{value:,.1f}"


def compare_table(a, b):
    """The Markdown table (a string) comparing result documents a and b."""
    la, lb = _levels(a), _levels(b)
    lines = [
        f"A: {a['label']} ({a['run_id']})",
        f"B: {b['label']} ({b['run_id']})",
        "",
        "| clients | A sat. msgs/s | B sat. msgs/s | B/A | common rate msgs/s | A p99 ms | B p99 ms | A RSS MB | B RSS MB |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for n in sorted(set(la) | set(lb)):
        sa, sb = _sat(la.get(n)), _sat(lb.get(n))
        ratio = f"{sb['received_per_s'] / sa['received_per_s']:.2f}" if sa and sb and sa["received_per_s"] else "—"
        common = common_ok_rate(la[n], lb[n]) if n in la and n in lb else None
        rate, p99a, p99b = ("—", None, None) if not common else (
            f"{common[0]:,.0f}", common[1]["rtt_ms"]["p99"], common[2]["rtt_ms"]["p99"])
        lines.append(f"| {n} | {_fmt_rate(sa)} | {_fmt_rate(sb)} | {ratio} | {rate} | {_fmt_ms(p99a)} | "
                     f"{_fmt_ms(p99b)} | {_fmt_rss(_sat_point(la.get(n)))} | {_fmt_rss(_sat_point(lb.get(n)))} |")
    if any(s and s.get("client_bound") for lv in (la, lb) for s in map(_sat, lv.values())):
        lines += ["", "† client-bound: the client, not the server, limited this figure."]
    return "\n".join(lines)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or argv[0].startswith("-"):
        print("usage: compare.py A.json B.json   (or: make compare A=... B=...)", file=sys.stderr)
        return 2
    try:
        a, b = load_result(argv[0]), load_result(argv[1])
    except ValueError as exc:
        print(f"compare: {exc}", file=sys.stderr)
        return 1
    print(compare_table(a, b))
    return 0


if __name__ == "__main__":
    sys.exit(main())
