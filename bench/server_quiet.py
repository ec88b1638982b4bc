"""Wait until a server has finished the work a client run left it, before it is stopped.

The client closes its sessions when its sweep ends, and the server then closes
them one by one: a few hundred at the standard profile's levels take no time,
but 19,000 sessions of the `sessions` profile keep CPython busy for seconds
(3.7 s seen on this 2-core VM). A SIGTERM sent into that would be judged against
the stop contract (exit within 2 s, docs/protocol.md) while the server is still
doing the client's work, and fail the repetition for the runner's impatience.
So the runner waits until the serving processes are quiet: their CPU, summed,
below QUIET_PCT of one core over one POLL_S interval, at most TIMEOUT_S.

Standard library plus the contract's /proc reader.
"""

import time

from sockbench_contract.procfs import clock_ticks_per_s, read_pid_ticks

#: Quiet: the serving processes together used less than this percent of one core over one poll (0..100).
QUIET_PCT = 10.0
#: Seconds between two CPU readings (> 0; a tick is 10 ms, so 0.25 s resolves 4 %).
POLL_S = 0.25
#: Give up waiting after this many seconds (the stop then proceeds and its contract applies).
TIMEOUT_S = 30.0


def _ticks(pids):
    values = [read_pid_ticks(pid) for pid in pids]
    return sum(v for v in values if v is not None)


def wait_until_quiet(pids, quiet_pct=QUIET_PCT, poll_s=POLL_S, timeout_s=TIMEOUT_S, clock=time.monotonic,
                     sleep=time.sleep):
    """Block until the processes `pids` (a gone one counts as idle) used < quiet_pct of one core over
    poll_s seconds, or timeout_s passed. Returns (seconds waited, quiet reached: bool)."""
    hz = clock_ticks_per_s()
    start = clock()
    before = _ticks(pids)
    while True:
        sleep(poll_s)
        now_ticks = _ticks(pids)
        busy_pct = 100.0 * (now_ticks - before) / hz / poll_s
        waited = clock() - start
        if busy_pct < quiet_pct:
            return waited, True
        if waited >= timeout_s:
            return waited, False
        before = now_ticks
