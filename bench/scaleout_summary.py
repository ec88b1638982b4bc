"""The scale-out summary of a `make bench-scaleout` run: throughput against workers, efficiency, and
what the relay costs per flush, from the merged result files (one per worker count).

- Throughput: per level, the median saturation (`received_per_s`, msgs/s the clients received) of
  each worker count, with its min-max over the repetitions.
- Efficiency with k workers: throughput(k) / (k x throughput(1)), per level. 1.0 = each worker adds
  what one worker does alone; the 1-worker run has no broker, so the relay's whole cost is in it.
- Relay per flush (each relayed flush is one Redis PUBLISH: bench/relay_counter.py), per
  repetition, then the median over repetitions:
  * `redis_us_per_flush`: Redis's own time per PUBLISH (commandstats usec / calls), the broker's
    side: receiving the envelope and writing it to every subscribed worker;
  * `broker_cpu_us_per_flush`: the redis-server process's CPU (from /proc) / publishes;
  * `server_cpu_us_per_msg`: every serving process's CPU / messages the clients received;
  * `relay_cpu_us_per_flush`: what the servers spend on the relay per flush, derived:
    (server_cpu_us_per_msg(k) - server_cpu_us_per_msg(1)) x received(k) / publishes(k). It assumes
    the work per delivered copy is the same with and without the relay, which batching at other
    rates bends either way: an estimate, not a count;
    Below zero (the batching difference outweighs the relay) the Markdown says "not resolved";
  * `messages_per_flush`: messages the clients sent / publishes.
  CPU and publishes cover the whole client run; received and sent the points' measured windows.
- Throttling: the share of the workers' CFS periods in which the kernel throttled them (the quota
  was binding) during the sweep.

Pure data in, data out (to_markdown renders); `bench/run_scaleout.py` writes both files.
"""

from merge import median_index


def _median(values):
    nums = [v for v in values if v is not None]
    return nums[median_index(nums)] if nums else None


def _repetition_totals(doc):
    """{repetition: (sent, received)} summed over every point of every level of that repetition."""
    totals = {}
    for level in doc["levels"]:
        for run in level.get("runs") or [dict(level, repetition=1)]:
            sent, received = totals.get(run["repetition"], (0, 0))
            totals[run["repetition"]] = (sent + sum(p["sent"] for p in run["points"]),
                                         received + sum(p["received"] for p in run["points"]))
    return totals


def _per_repetition(doc):
    """[{repetition, server_cpu_s, broker_cpu_s, publishes, redis_usec, sent, received, throttled}]."""
    totals = _repetition_totals(doc)
    out = []
    for i, run in enumerate(doc.get("runs") or []):
        rep = run.get("repetition", i + 1)
        sent, received = totals.get(rep, (0, 0))
        relay = run.get("relay") or {}
        workers = [g for g in (run.get("cpu_quota") or {}).get("groups", []) if g["group"].startswith("worker-")]
        periods = sum(g["nr_periods"] for g in workers)
        out.append({"repetition": rep, "server_cpu_s": run.get("server_cpu_s"),
                    "broker_cpu_s": (run.get("broker") or {}).get("cpu_s"),
                    "publishes": relay.get("publishes"), "redis_usec": relay.get("redis_publish_usec"),
                    "sent": sent, "received": received,
                    "throttled_pct": round(100.0 * sum(g["nr_throttled"] for g in workers) / periods, 1)
                    if periods else None})
    return out


def _ratio(a, b, scale=1.0):
    return None if a is None or not b else a * scale / b


def relay_row(workers, doc, one_worker_cpu_us_per_msg):
    """The relay figures of the file with `workers` workers (medians over its repetitions)."""
    reps = _per_repetition(doc)
    cpu_per_msg = [_ratio(r["server_cpu_s"], r["received"], 1e6) for r in reps]
    derived = []
    for r, per_msg in zip(reps, cpu_per_msg):
        if workers > 1 and per_msg is not None and one_worker_cpu_us_per_msg is not None and r["publishes"]:
            derived.append((per_msg - one_worker_cpu_us_per_msg) * r["received"] / r["publishes"])
    row = {
        "workers": workers,
        "repetitions": len(reps),
        "publishes": _median([r["publishes"] for r in reps]),
        "messages_per_flush": _median([_ratio(r["sent"], r["publishes"]) for r in reps]),
        "redis_us_per_flush": _median([_ratio(r["redis_usec"], r["publishes"]) for r in reps]),
        "broker_cpu_us_per_flush": _median([_ratio(r["broker_cpu_s"], r["publishes"], 1e6) for r in reps]),
        "server_cpu_us_per_msg": _median(cpu_per_msg),
        "relay_cpu_us_per_flush": _median(derived),
        "throttled_pct": _median([r["throttled_pct"] for r in reps]),
    }
    return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()}


def _saturation(level):
    sat = level.get("saturation")
    if not sat:
        return None, None, None
    spread = sat.get("spread") or {}
    return sat["received_per_s"], spread.get("min"), spread.get("max")


def summarize(docs, settings):
    """The summary of `docs` ({workers: merged result document}); settings: what the run was
    (server, core_share, period_us, profile, command, files) copied into it as is."""
    ks = sorted(docs)
    base = docs.get(1)
    levels = sorted({level["concurrency"] for doc in docs.values() for level in doc["levels"]})
    by_level = []
    for n in levels:
        one = None
        if base is not None:
            one = next((_saturation(l)[0] for l in base["levels"] if l["concurrency"] == n), None)
        rows = []
        for k in ks:
            level = next((l for l in docs[k]["levels"] if l["concurrency"] == n), None)
            median, lo, hi = _saturation(level) if level else (None, None, None)
            rows.append({"workers": k, "received_per_s": median, "min": lo, "max": hi,
                         "efficiency": round(median / (k * one), 3) if median is not None and one else None})
        by_level.append({"concurrency": n, "rows": rows})
    one_cpu = relay_row(1, base, None)["server_cpu_us_per_msg"] if base is not None else None
    relay = [relay_row(k, docs[k], one_cpu) for k in ks]
    return {"kind": "sockbench.scaleout-summary/1", **settings, "workers": ks, "levels": by_level, "relay": relay}


def _num(v, fmt="{:,.0f}"):
    return "–" if v is None else fmt.format(v)


def _relay_cell(value):
    # Below zero the per-message difference is the batching's (k workers saturated at other rates, with
    # other batch sizes), not the relay's: shown as not resolved rather than as a negative cost.
    if value is not None and value < 0:
        return f"not resolved ({value:.1f})"
    return _num(value, "{:.1f}")


def to_markdown(summary):
    """The summary as Markdown: one throughput/efficiency table, one relay table, what it is."""
    s = summary
    lines = [f"## Scale-out simulation: {s['server']}, {s['core_share']:g} of a core per worker "
             f"(cgroup v{s['cgroup_version']} quota {s['quota_us']} us / {s['period_us']} us)", "",
             f"`{s['command']}`", "",
             "Received msgs/s at saturation, median [min-max] over repetitions; efficiency = "
             "throughput(k) / (k x throughput(1)).", "",
             "| clients | " + " | ".join(f"{k} worker{'s' if k > 1 else ''}" for k in s["workers"]) + " |",
             "| ---: | " + " | ".join("---:" for _ in s["workers"]) + " |"]
    for level in s["levels"]:
        cells = []
        for row in level["rows"]:
            text = _num(row["received_per_s"])
            if row["min"] is not None and row["max"] is not None:
                text += f" [{_num(row['min'])}-{_num(row['max'])}]"
            if row["efficiency"] is not None and row["workers"] > 1:
                text += f" (eff. {row['efficiency']:.2f})"
            cells.append(text)
        lines.append(f"| {level['concurrency']} | " + " | ".join(cells) + " |")
    lines += ["", "Relay per flush (one flush = one Redis PUBLISH; medians over repetitions; "
              "relay CPU per flush is derived against 1 worker, an estimate):", "",
              "| workers | flushes | msgs/flush | Redis us/flush | broker CPU us/flush | server CPU us/msg "
              "| relay CPU us/flush (servers) | workers throttled (% of periods) |",
              "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in s["relay"]:
        lines.append(f"| {r['workers']} | {_num(r['publishes'])} | {_num(r['messages_per_flush'], '{:.1f}')} | "
                     f"{_num(r['redis_us_per_flush'], '{:.1f}')} | {_num(r['broker_cpu_us_per_flush'], '{:.1f}')} | "
                     f"{_num(r['server_cpu_us_per_msg'], '{:.3f}')} | {_relay_cell(r['relay_cpu_us_per_flush'])} | "
                     f"{_num(r['throttled_pct'], '{:.1f}')} |")
    lines += ["", "Files: " + ", ".join(f"{k} → `{p}`" for k, p in sorted(s.get("files", {}).items(), key=lambda kv: int(kv[0]))),
              "", "What this does and does not show: docs/scaleout-simulation.md", ""]
    return "\n".join(lines)
