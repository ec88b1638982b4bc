"""Realistic sessions-profile documents for the tests: a committed reference result cut down to what one
client run writes (one repetition, no runner fields), with the v4 fields of results/schema.json added as
the client writes them for a profile with all_copies, an idle hold and paced connects, and for a churn
run the v5 fields (parameters.churn_pct, each point's churn)."""

import copy
import glob
import os

from results_io import load_result
from servers import ROOT

#: A committed result whose levels stand in for a sessions run's (their points and saturations are real).
REFERENCE = sorted(glob.glob(os.path.join(ROOT, "results", "reference", "*cpython-json-fast.json")))[0]

_RUNNER_LEVEL_FIELDS = ("repetitions", "median_repetition", "runs")


def latency(p99):
    return {"count": 1000, "mean": p99 / 3, "stddev": p99 / 6, "min": 0.2, "p50": p99 / 4, "p90": p99 / 2,
            "p99": p99, "p999": p99 * 1.5, "max": p99 * 2}


def sessions_level(level, server_bytes_per_session=9000.0):
    """`level` (a client run's level) with the v4 fields a sessions client run adds."""
    out = copy.deepcopy(level)
    for field in _RUNNER_LEVEL_FIELDS:
        out.pop(field, None)
    for point in out["points"]:
        point["fanout_ms"] = latency(point["rtt_ms"]["p99"] or 1.0)
        point["completion_ms"] = {"count": 990, "incomplete": 0, "p50": 2.0, "p90": 5.0, "p99": 9.0, "max": 12.0}
    n = out["connected"]
    out["connect"] = {"rate_per_s": 2000.0, "achieved_per_s": 1990.0, "failures": {}}
    out["idle"] = {"hold_s": 30.0, "connections_lost": 0, "heartbeats": n, "server_cpu_pct": 0.8,
                   "server_rss_bytes": 60_000_000 + int(n * server_bytes_per_session),
                   "server_rss_baseline_bytes": 60_000_000, "server_bytes_per_session": server_bytes_per_session,
                   "client_rss_bytes": 300_000_000, "client_rss_baseline_bytes": 290_000_000,
                   "client_bytes_per_session": 10_000_000 / n}
    sat = out["saturation"]
    out["fanout_saturation"] = None if sat is None else {
        "copies_per_s": sat["received_per_s"], "target_rate": sat["target_rate"], "p99_ms": 120.0}
    return out


def client_doc(concurrencies, reference=REFERENCE):
    """One client run's v4 document over `concurrencies` (levels of the reference file)."""
    doc = load_result(reference)
    doc.pop("runs", None)
    doc.pop("client_ceiling", None)
    doc["schema"] = "sockbench.result/4"
    doc["warnings"] = []
    by_n = {lv["concurrency"]: lv for lv in doc["levels"]}
    doc["levels"] = [sessions_level(by_n[n]) for n in concurrencies]
    doc["parameters"].update(profile="sessions", levels=list(concurrencies), all_copies=True,
                             verdict="all_copies_p99", idle_hold_s=30, connect_rate_per_s=2000)
    return doc


def host_record(started, finished, wall_s, **extra):
    """A measure_once host record (the fields results/schema.json run_host requires, minus repetition)."""
    return {"server_pid": 4242, "started_at": started, "finished_at": finished, "wall_s": wall_s,
            "load_avg_before": {"1m": 0.1, "5m": 0.1, "15m": 0.1}, "steal_pct": 0.5, "server_cpu_s": 10.0,
            "client_cpu_s": 20.0, "other_cpu_pct": {"server_cpus": 1.0, "client_cpus": 2.0}, **extra}


def churn_record(pool, served_per_s, window_s=2.0, failures=None, p99_ms=40.0):
    """A point's v5 `churn` object: `pool` sessions asked to reconnect once a second, `served_per_s` of
    them did, timed at a reconnect p99 of `p99_ms`; failures: {reason: count}."""
    reconnects = round(served_per_s * window_s)
    timed = None if reconnects == 0 else p99_ms
    return {"pool": pool, "closes": round(pool * window_s), "reconnects": reconnects,
            "connects_per_s": served_per_s, "failures": dict(failures or {}),
            "reconnect_ms": {"count": reconnects, "p50": timed and p99_ms / 4, "p90": timed and p99_ms / 2,
                             "p99": timed, "max": timed and p99_ms * 1.5}}


def churn_doc(concurrencies, pct=5.0):
    """One client run's v5 document over `concurrencies` with churn: each level's pool is one session in
    round(100 / pct), and every point served 98 % of the connects it asked for."""
    doc = client_doc(concurrencies)
    doc["schema"] = "sockbench.result/5"
    doc["parameters"]["churn_pct"] = pct
    every = max(2, round(100 / pct))
    for level in doc["levels"]:
        pool = level["concurrency"] // every
        for point in level["points"]:
            point["churn"] = churn_record(pool, pool * 0.98, point["duration_s"])
    return doc
