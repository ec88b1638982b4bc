"""How long a run will take: the one place the bench estimates time.

A run's length depends on where the server saturates (a level ends at its
first confirmed not-ok point, so a faster server costs more points), which is
what the run is there to find out. So the estimate has two parts:

- a *prior* from the profile's parameters alone (`prior_run_s`): points per
  level from the ramp (start_rate, rate_factor, max_rate; for a geometric ramp
  the knee is assumed half-way up the grid, in log terms), each point costing
  warmup_s + step_s + settle_s plus a fixed per-point overhead, confirm and
  refine points per level, connection time per level (again for each confirm
  and refine point, which run on fresh connections), and a per-run overhead
  (server start, the unrecorded warm-up pass, JVM start);
- *learning* (`Eta`): once runs have finished, a server's first repetition
  is expected to take what it took, a server not yet measured takes its prior
  scaled by how far off the priors were for the servers measured so far, and
  a later repetition takes the mean of that server's later repetitions so far
  (before one is measured: its first x `later_ratio`).

Profiles are dicts with the keys of the client's `--list-profiles` (the same
names as a result file's `parameters`).

The client's ceiling (bench/client_ceiling.py) changes both parts: a level's
climb now ends at the client's ceiling / N instead of the profile's
`max_rate`, so the prior's grid reaches higher (`prior_run_s(...,
ceiling_per_s=)`), and the self-test that measures the ceiling runs once
before the first server (`ceiling_measure_s`, added once to the run's total,
not per server).
"""

import math

RUN_OVERHEAD_S = 15.0      # server start + READY, warm-up pass (~6-8 s), client JVM start, stop
POINT_OVERHEAD_S = 0.15    # per point: drain, bookkeeping, beyond warmup + step + settle
CONNECT_S_PER_CLIENT = 0.002  # ~0.1-3 s per level in results/reference for 25-2000 clients
ADDITIVE_KNEE_RECEIVED = 100_000.0  # assumed knee (received msgs/s) for additive ramps: the order of the 2011 servers
# Before the run has measured the client's ceiling (a dry run, the plan line):
# the client's received msgs/s at 1 message per frame, 100-1,000 connections,
# in the firehose's standing figures (client-java/README.md: 18.8-21.3 M).
PRIOR_CEILING_PER_S = 18_000_000.0
# The firehose self-test: one JVM for the client and one sender JVM per frame
# size (each ~1-2 s on this VM), and per row the connections' opening, the
# settle and the window, then 0.55 s to drain and close.
FIREHOSE_START_S = 2.0
FIREHOSE_ROW_OVERHEAD_S = 0.55
# A later repetition started near its knee (the client's --level-start-rates,
# bench/matrix.py) runs about this share of the first one's points.
LATER_REPETITION_RATIO = 0.6


def _geometric_points(lo, hi, factor):
    """Grid points from lo up to and including the last one <= hi."""
    if hi < lo:
        return 1
    return int(math.floor(math.log(hi / lo) / math.log(factor) + 1e-9)) + 1


def points_per_level(profile, n_clients, first_level=True, ceiling_per_s=None):
    """Expected measured points at one level (ramp + confirm + refine).

    ceiling_per_s: the client's receive ceiling, msgs/s, when the level ends at
    ceiling / N instead of at the profile's max_rate; None = at max_rate."""
    extra = (1 if profile.get("confirm") else 0) + int(profile.get("refine_steps") or 0)
    start, top = float(profile["start_rate"]), float(profile["max_rate"])
    if ceiling_per_s:
        top = float(ceiling_per_s) / n_clients
    if profile["ramp"] == "additive":
        knee = min(top, ADDITIVE_KNEE_RECEIVED / n_clients)
        step = max(1, 1000 // n_clients)
        return max(1, int((knee - start) / step) + 1) + extra
    factor = float(profile["rate_factor"])
    full = _geometric_points(start, top, factor)
    fraction = profile.get("next_level_start_fraction")
    if not first_level and fraction:
        # Started at `fraction` of the knee the previous level predicts: climb
        # back up to it and one step past.
        climb = _geometric_points(fraction, 1.0, factor) + 1
        return min(full, climb) + extra
    half = math.ceil(full / 2) + 1
    return min(full, half) + extra


def point_s(profile):
    return float(profile["warmup_s"]) + float(profile["step_s"]) + float(profile["settle_s"]) + POINT_OVERHEAD_S


def prior_run_s(profile, levels=None, ceiling_per_s=None):
    """Seconds one run of one server with this profile is expected to take, before any measurement.
    ceiling_per_s: as in points_per_level (None: every level ends at the profile's max_rate)."""
    levels = list(levels or profile["levels"])
    total = RUN_OVERHEAD_S
    # Confirm and refine points run on fresh connections: the level connects again for each.
    connects = 1 + (1 if profile.get("confirm") else 0) + int(profile.get("refine_steps") or 0)
    # A paced connect (the sessions profile) takes at least N / rate; an idle hold is waited out once per level.
    rate = float(profile.get("connect_rate_per_s") or 0)
    for i, n in enumerate(levels):
        total += points_per_level(profile, n, first_level=(i == 0), ceiling_per_s=ceiling_per_s) * point_s(profile)
        total += max(CONNECT_S_PER_CLIENT * n, n / rate if rate > 0 else 0.0) * connects
        total += float(profile.get("idle_hold_s") or 0)
    return total


def ceiling_measure_s(connections, frame_sizes, window_s, settle_s):
    """Seconds the client-ceiling self-test takes: every connection count for every frame size
    (bench/client_ceiling.py), once per run; 0 when nothing is measured."""
    if not connections or not frame_sizes:
        return 0.0
    per_frame = FIREHOSE_START_S + sum(settle_s + window_s + CONNECT_S_PER_CLIENT * n + FIREHOSE_ROW_OVERHEAD_S
                                       for n in connections)
    return FIREHOSE_START_S + len(frame_sizes) * per_frame


class Eta:
    """Expected time of the runs still to do, learning from the ones done.

    prior_s: seconds one run is expected to take before anything is measured
    (the same for every server: the profile does not know which is faster).
    later_ratio: how long a later repetition of a server takes against its
    first, before a later one has been measured (1.0; less when later
    repetitions skip the climb to the knee, see bench/matrix.py).
    """

    def __init__(self, prior_s, later_ratio=1.0):
        if not prior_s > 0:
            raise ValueError(f"prior must be > 0 s, got {prior_s!r}")
        if not 0 < later_ratio <= 1:
            raise ValueError(f"later_ratio must be in (0, 1], got {later_ratio!r}")
        self.prior_s = float(prior_s)
        self.later_ratio = float(later_ratio)
        self.first = {}   # server name -> seconds of its first repetition
        self.later = {}   # server name -> [seconds of later repetitions]

    def observe(self, server, seconds, repetition=1):
        """Record that repetition `repetition` (1-based) of `server` took `seconds`."""
        if repetition == 1:
            self.first[server] = float(seconds)
        else:
            self.later.setdefault(server, []).append(float(seconds))

    def scale(self):
        """Measured / prior over every first repetition so far (1 before any)."""
        return (sum(self.first.values()) / (self.prior_s * len(self.first))) if self.first else 1.0

    def expected_s(self, server, repetition=1):
        """Seconds repetition `repetition` of `server` is expected to take."""
        first = self.first.get(server, self.prior_s * self.scale())
        if repetition == 1:
            return first
        later = self.later.get(server)
        return sum(later) / len(later) if later else first * self.later_ratio

    def remaining_s(self, pending):
        """Seconds for the runs in `pending`: (server name, repetition) pairs, one per run."""
        return sum(self.expected_s(server, rep) for server, rep in pending)


def format_duration(seconds):
    """'1 h 05 min', '12 min 30 s', '45 s'."""
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    if h:
        return f"{h} h {m:02d} min"
    if m:
        return f"{m} min {s:02d} s"
    return f"{s} s"
