"""Load shedding under overload, on real sockets: the scenario of
tools/overload.py (overload_scenario.py) at a smaller size (50 sessions, 4 KB messages, 2,000
msgs/s sent for 4 s = 400 MB/s to deliver, clients reading 1 MiB/s), against
this interpreter's server in fast and naive mode with an 8 MiB output
budget and a 4 MiB per-session cap (so that without the budget the caps
alone would allow 200 MiB: naive mode then grows by 200-360 MiB here).

Besides RSS it checks the accounting (``budget_probe.py``): the most
output ever unsent stays within ``pause_at`` plus one message's fan-out in
naive mode, plus one turn's shared frame per session in fast mode (bytes
owed, held once: RSS is the check of memory there). Checking the budget
only before each read batch let a batch of messages (each to every client)
overshoot by many fan-outs."""
from __future__ import annotations

import os
import sys

import pytest

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))

from measured_server import start_server, stop_server  # noqa: E402
from overload_scenario import run  # noqa: E402
from sockbench_server.tornado_io.shedding import FRAME_CAP_SHARE  # noqa: E402

PROBE = os.path.join(HERE, "budget_probe.py")
SESSIONS = 50
SIZE = 4000

MiB = 1024 * 1024
BUDGET = 8 * MiB
SESSION_CAP = 4 * MiB
#: What RSS may grow beyond the budget: the allocator, the garbage
#: collector's headroom and PyPy's JIT warming up during the overload.
SLACK = 32 * MiB


@pytest.mark.parametrize("mode", ["fast", "naive"])
def test_overload_keeps_memory_within_the_budget_and_light_load_recovers(mode):
    command = [sys.executable, PROBE, "--max-total-buffer", str(BUDGET),
               "--max-session-buffer", str(SESSION_CAP)] + (["--naive"] if mode == "naive" else [])
    server = start_server(command)
    log = ""
    try:
        r = run(server.url, server.pid, sessions=SESSIONS, rate=2000, seconds=4,
                size=SIZE, read_rate=1 * MiB, light_seconds=4)
    finally:
        log = stop_server(server)
    growth = r["peak"] - r["before"]
    summary = ("%s: RSS %.0f -> %.0f -> %.0f MiB, light RTT mean %.1f ms (last second %.1f), "
               "%d/%d back" % (mode, r["before"] / MiB, r["peak"] / MiB, r["after"] / MiB,
                               r["rtt_mean"] * 1e3, r["rtt_mean_last_second"] * 1e3,
                               r["light_received"], r["light_sent"]))
    print(summary)
    assert "Traceback" not in log, log[-3000:]
    # The budget was what held memory: reading paused at least once, and
    # no session had to be closed for its own backlog.
    assert log.count("overloaded:") >= 1, summary + "\n" + log[-2000:]
    assert "client not reading" not in log, log[-2000:]
    assert growth < BUDGET + SLACK, summary
    # The accounting held: never more unsent than pause_at plus one
    # message to every session (its frame: payload, JSON and framing) in
    # naive mode; in fast mode plus one turn's frame to every session, which
    # is one shared bytes object (at most a quarter of the session cap).
    peaks = [line.split() for line in log.splitlines() if line.startswith("BUDGET-PEAK ")]
    assert peaks, log[-2000:]
    peak, pause_at = int(peaks[-1][1]), int(peaks[-1][2])
    overshoot = SIZE + 64 if mode == "naive" else SESSION_CAP // FRAME_CAP_SHARE
    assert peak <= pause_at + SESSIONS * overshoot, (peak, pause_at, summary)
    assert r["closed_by_server"] == 0, summary
    # Recovered: every light-load message came back, and within its last
    # second (4 s after the overload) the mean round trip is under 50 ms.
    assert r["light_received"] == r["light_sent"] > 0, summary
    assert r["rtt_mean_last_second"] < 0.050, summary
