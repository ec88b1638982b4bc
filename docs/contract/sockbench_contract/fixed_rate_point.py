"""One broadcast point at one fixed rate: the client's flags for it, when its measured window is
under way, and the client's verdict on it in one line.

A profiler looks at a server while the Java client holds N sessions and sends a fixed rate, so
what it samples is one known load, not a ramp. server-python's `tools/profile_broadcast.py`
(py-spy / vmprof) and the bench's `kernel_profile.py` (perf) both run that point; its flags
live here, once, so the two profiles of a server are taken at the same point.

Standard library only.
"""

import json

#: Seconds the client warms up before its measured point (the JIT, the sessions' first messages).
WARMUP_S = 3
#: Seconds the client's measured window outlasts the profiler's, so the profile ends inside it.
WINDOW_MARGIN_S = 2


#: The most sessions one client process holds here: it may keep 20,000 files open.
MAX_CONNECTIONS = 19000
#: The recorded window's bounds in seconds: long enough to sample, short enough to stay one point.
MIN_SECONDS, MAX_SECONDS = 5, 120


def point_error(connections, rate, seconds):
    """What is wrong with a point's parameters, in one line for a usage error; None when nothing is.
    The ranges client_args takes: connections 1..MAX_CONNECTIONS, rate > 0, seconds MIN..MAX_SECONDS."""
    if not 1 <= connections <= MAX_CONNECTIONS:
        return (f"--connections must be 1..{MAX_CONNECTIONS} (one client process holds at most 20,000 "
                "open files)")
    if not rate > 0:
        return "--rate must be > 0 messages/s"
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        return f"--seconds must be {MIN_SECONDS}..{MAX_SECONDS}"
    return None


def client_args(connections, rate, seconds):
    """The client's flags (beside --url, --out, --server-pid) for one point: `connections` sessions
    (1..19000), `rate` messages/s sent by all of them together (> 0), a measured window of
    `seconds` + WINDOW_MARGIN_S. Start = max rate, no refinement, no confirmation, no adaptive
    start: the point is measured once, at that rate."""
    return ["--levels", str(connections), "--start-rate", f"{rate:g}", "--max-rate", f"{rate:g}",
            "--rate-factor", "2", "--step", f"{seconds + WINDOW_MARGIN_S:g}", "--warmup", str(WARMUP_S),
            "--settle", "0.5", "--no-confirm", "--refine-steps", "0", "--no-adaptive-start"]


def window_start_s(connections):
    """Seconds after the client starts by which its measured window is under way: the JVM's start
    and the sessions' connect (about 2,000 a second here) plus the warm-up. A profiler started then
    for `seconds` ends inside the window client_args asked for."""
    return WARMUP_S + 2 + connections / 2000


def measured_point(result_path):
    """The client's last measured point from its result file (the one point of client_args), or
    None when it measured none."""
    with open(result_path, encoding="utf-8") as f:
        doc = json.load(f)
    points = [p for level in doc.get("levels", []) for p in level.get("points", [])]
    return points[-1] if points else None


def sessions_missing(result_path, connections):
    """Why the client's point is not of `connections` sessions, in one line (how many opened, and
    the connect errors the client counted); None when every one of them opened. A profile of fewer
    sessions than asked is not the point it names: a tool refuses it rather than print it."""
    with open(result_path, encoding="utf-8") as f:
        doc = json.load(f)
    levels = doc.get("levels", [])
    opened = levels[-1].get("connected", 0) if levels else 0
    if opened >= connections:
        return None
    errors = levels[-1].get("connect_errors", 0) if levels else 0
    return (f"only {opened:,} of {connections:,} sessions opened ({errors:,} connect errors; the "
            "server's session limit or the machine's open files, see the server log)")


def point_line(result_path):
    """The client's measured point in one line: rate sent and received, mean RTT, its verdict
    (ok / saturated / ...), the server's and the client's CPU."""
    p = measured_point(result_path)
    if p is None:
        return "the client measured no point"
    mpf = p.get("messages_per_frame", {}).get("mean")
    return (f"sent {p['sent_per_s']:,.0f}/s, received {p['received_per_s']:,.0f}/s, "
            f"RTT mean {p['rtt_ms']['mean']:.1f} ms, {p['state']}, server CPU {p.get('server_cpu_pct', '?')} %, "
            f"client CPU {p.get('client_cpu_pct', '?')} %"
            + (f", {mpf:.1f} msgs/frame" if mpf is not None else ""))
