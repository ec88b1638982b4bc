"""Small result documents for the unit tests: just the fields the code under test reads."""


def point(rate, received_per_s, state="ok", client_bound=False):
    return {"target_rate": rate, "received_per_s": received_per_s, "state": state, "client_bound": client_bound,
            "rtt_ms": {"p99": 1.0}, "server_rss_bytes": 50_000_000}


def saturation(rate, received_per_s, client_bound=False, server_cpu_pct=99.0):
    return {"target_rate": rate, "received_per_s": received_per_s, "sent_per_s": rate, "rtt_mean_ms": 5.0,
            "client_bound": client_bound, "server_cpu_pct": server_cpu_pct}


def level(n, sat_received=None, rate=100.0, client_bound=False, strict_received="absent"):
    lv = {"concurrency": n, "connected": n, "connect_errors": 0, "connect_s": 0.1, "end_reason": "overloaded",
          "points": [point(rate, sat_received or 1.0)],
          "saturation": None if sat_received is None else saturation(rate, sat_received, client_bound)}
    if strict_received != "absent":
        lv["saturation_strict"] = None if strict_received is None else saturation(rate, strict_received)
    return lv


def doc(levels, started="2026-11-24T01:00:00Z", finished="2026-11-24T01:01:00Z", duration=60.0, warnings=(),
        mode="fast"):
    return {"schema": "sockbench.result/1", "run_id": f"{started}-x", "label": f"x · {mode}",
            "started_at": started, "finished_at": finished, "duration_s": duration,
            "server": {"name": "sockbench-tornado", "runtime": "cpython", "codec": "json", "mode": mode,
                       "peer": False, "pid": 1},
            "parameters": {"profile": "smoke", "start_rate": 10, "max_rate": 1000},
            "levels": levels, "warnings": list(warnings)}


def profile(name="standard", **overrides):
    """A profile as `--list-profiles` prints one: a fixed example for arithmetic
    tests (x1.25 from 10 to 100000, 3 s windows), not the client's current table,
    which the runner only ever reads from the jar."""
    p = {"name": name, "levels": [25, 50, 100, 200, 500, 1000, 2000], "ramp": "geometric", "rate_factor": 1.25,
         "rate_step": None, "start_rate": 10, "step_s": 3, "settle_s": 1, "warmup_s": 0.5, "max_rate": 100_000,
         "confirm": False, "refine_steps": 0, "next_level_start_fraction": None,
         "later_repetition_start_fraction": 0.5, "all_copies": False, "idle_hold_s": 0, "connect_rate_per_s": 0}
    if name == "smoke":
        p.update(levels=[2, 4], rate_factor=2.0, start_rate=20, step_s=0.5, settle_s=0.2, warmup_s=0.2, max_rate=80)
    elif name == "quick":
        p.update(levels=[25, 100, 500], rate_factor=1.5, step_s=2, settle_s=0.5)
    p.update(overrides)
    return p
