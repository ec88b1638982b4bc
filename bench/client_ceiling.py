"""The client's receive ceiling: where a level's climb ends when the server never saturates.

A profile's `max_rate` is a constant, and a constant below what a fast server
takes makes a floor of our own ("max rate reached, never overloaded"). What
really bounds a level from above is the client: past the most it can receive,
every point measures the client, not the server. So once per run, before the
first server, the runner measures that with the client's firehose self-test
(client-java `firehose`: a sender writes pre-built SockJS frames to N
connections as fast as the sockets take them, the client counts them through
its real receive path), pinned as the sweep is (sender on the server's CPUs,
client on the client's), for every connection count the run's levels use and
every frame size its servers need. Each level then gets its row as
`--client-ceilings N:MSGS_PER_S` and ends at ceiling / N sent/s with end reason
`client_ceiling` (client-java sweep/LevelCap: no margin, because the firehose
is the client doing nothing but receive, so a run can only reach less).

Which frame size a server's levels use (`messages_per_frame`):
- 1 for a server that writes one SockJS frame per copy (registry mode
  `naive`), and for a server whose mode is not known (`make bench-url` without
  MODE=): the lower of the two ceilings, the one the client surely reaches;
- 100 (COALESCED_MESSAGES_PER_FRAME) for a server that coalesces (mode `fast`):
  at its knee such a server packs hundreds to thousands of messages into a
  frame, and the firehose's ceiling rises with the frame size only slowly past
  100 (wire bytes per message 67.1 at 100 against 71 at 1, one read per
  256 KiB either way), so 100 stands for "coalesced" without claiming more.

Measured once per `make bench` invocation (not per repetition or server):
repetitions are interleaved over the whole run anyway, and the figure is a
property of the client on this machine, not of a server. What it took is
`wall_s` in the record; bench/estimate.py's `ceiling_measure_s` is the
estimate `make bench-plan` prints. Not measured (levels then end at the
profile's `max_rate`, as before): for `smoke` (KEEPS_MAX_RATE), with AGENTS=N > 1 (the firehose measures one
process, not a fleet), when CLIENT_ARGS has an explicit `--max-rate` (which
wins anyway), and with a client jar that predates `--client-ceilings`. A
sessions run measures only its levels one process holds (up to 19,000
sessions, bench/sessions.py): the larger ones run on agents, uncapped.

The record (`client_ceiling` in every result of the run, results/schema.json)
keeps the command, when, the window, the cost and the whole table.
"""

import datetime
import shlex
import subprocess
import time

from cpus import format_cpu_list
from sockbench_contract.server_launch import StepError

#: Messages per frame that stands for a coalescing (fast) server; 1 for a naive one.
COALESCED_MESSAGES_PER_FRAME = 100
NAIVE_MESSAGES_PER_FRAME = 1
#: Counting window per (connections, frame size) row, seconds: 3 s of a stream that reaches steady
#: state within the first second (the README's 10 s rows moved by < 10 % against 5 s ones).
WINDOW_S = 3.0
#: Streaming time before each window, seconds.
SETTLE_S = 1.0
#: The client feature that says the jar takes --client-ceilings (its --list-profiles `features`).
FEATURE = "client-ceilings"
#: Profiles whose max_rate is their point, not a guess at the servers' range: `smoke` is a few
#: seconds for CI and the end-to-end tests, three points a level; a climb to the client's ceiling
#: would make it minutes (and its self-test would outlast the sweep).
KEEPS_MAX_RATE = {"smoke": "a CI-sized sweep whose max_rate bounds its length"}


def frames_for(mode):
    """Messages per frame whose ceiling a server of `mode` ("fast", "naive" or None) is capped by."""
    return COALESCED_MESSAGES_PER_FRAME if mode == "fast" else NAIVE_MESSAGES_PER_FRAME


def what_to_measure(levels, modes):
    """(connection counts, frame sizes) the run needs: every level once, each server mode's frame size once."""
    return tuple(sorted(set(int(n) for n in levels))), tuple(sorted(set(frames_for(m) for m in modes)))


def why_not_measured(config, features):
    """Why the ceiling is not measured for the run `config` (run_config.RunConfig), or None when it is.

    features: the client jar's optional abilities (bench/profiles.py ClientProfiles.features).
    """
    if config.profile in KEEPS_MAX_RATE:
        return f"profile {config.profile}: {KEEPS_MAX_RATE[config.profile]}"
    if FEATURE not in features:
        return "the client jar predates --client-ceilings (rebuild it with `make setup-java`)"
    if config.agents > 1:
        return "AGENTS > 1: the firehose measures one client process, not a fleet"
    if any(arg == "--max-rate" or arg.startswith("--max-rate=") for arg in config.client_args):
        return "CLIENT_ARGS gives --max-rate, which caps every level"
    return None


def _client_arg(args, name):
    """The value of `name` in a flag list (`--x V` or `--x=V`), or None."""
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def firehose_command(java_prefix, config, connections, frame_sizes, window_s=WINDOW_S, settle_s=SETTLE_S):
    """The self-test's argv: `java_prefix` (taskset on the client's CPUs + java + -jar JAR, as the
    sweep runs) + `firehose` with the sender on the server's CPUs. The payload size follows
    CLIENT_ARGS' --payload-bytes when given, so the frames are the sweep's."""
    cmd = list(java_prefix) + [
        "firehose",
        "--connections", ",".join(map(str, connections)),
        "--messages-per-frame", ",".join(map(str, frame_sizes)),
        "--duration", f"{window_s:g}",
        "--settle", f"{settle_s:g}",
        "--sender-cpus", format_cpu_list(config.server_cpus)]
    payload = _client_arg(config.client_args, "--payload-bytes")
    if payload is not None:
        cmd += ["--payload-bytes", payload]
    return cmd


def _number(cell):
    cell = cell.strip().replace(",", "")
    try:
        value = float(cell)
    except ValueError:
        return None
    return None if value != value else value  # NaN (sender CPU not known) -> None


def parse_table(text):
    """The firehose's Markdown table (its stdout) as rows for the record; columns found by their header.

    Each row: connections, messages_per_frame, connected, received_per_s, client_cpu_pct,
    sender_cpu_pct (None when not known). ValueError when there is no such table.
    """
    lines = [ln.strip() for ln in text.splitlines() if ln.strip().startswith("|")]
    if len(lines) < 2:
        raise ValueError("no table in the firehose's output")
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    wanted = {"connections": "connections", "msgs/frame": "messages_per_frame", "connected": "connected",
              "msgs/s received": "received_per_s", "client CPU %": "client_cpu_pct",
              "sender CPU %": "sender_cpu_pct"}
    missing = [name for name in ("connections", "msgs/frame", "connected", "msgs/s received") if name not in header]
    if missing:
        raise ValueError(f"the firehose's table has no column {', '.join(missing)}")
    rows = []
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        row = {}
        for name, key in wanted.items():
            if name in header:
                row[key] = _number(cells[header.index(name)])
        for key in ("connections", "messages_per_frame", "connected"):
            row[key] = int(row[key])
        if row["received_per_s"] is None:
            raise ValueError(f"no msgs/s in the firehose's row {line!r}")
        rows.append(row)
    if not rows:
        raise ValueError("the firehose's table has no rows")
    return rows


def _utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def measure(cmd, window_s=WINDOW_S, settle_s=SETTLE_S, timeout_s=600, log=print):
    """Run the self-test `cmd` (firehose_command) once; the run-level record without
    `messages_per_frame` (record_for adds the server's). StepError("client ceiling") when it fails."""
    log(f"[client ceiling] {shlex.join(cmd)}")
    measured_at, started = _utc_now(), time.monotonic()
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired as exc:
        raise StepError("client ceiling", f"the firehose self-test still ran after {timeout_s:g} s; stopped") from exc
    if proc.returncode != 0:
        raise StepError("client ceiling", f"the firehose self-test exited with status {proc.returncode}: "
                        f"{proc.stderr[-2000:]}")
    try:
        rows = parse_table(proc.stdout)
    except ValueError as exc:
        raise StepError("client ceiling", f"{exc}: {proc.stdout[-2000:]}") from exc
    record = {"measured_at": measured_at, "command": shlex.join(cmd), "window_s": window_s, "settle_s": settle_s,
              "wall_s": round(time.monotonic() - started, 1), "rows": rows}
    for row in rows:
        log(f"[client ceiling] {row['connections']} connections, {row['messages_per_frame']} msg/frame: "
            f"{row['received_per_s']:,.0f} msgs/s received")
    return record


def record_for(measurement, mode):
    """The record a server of `mode` carries: the measurement plus the frame size its levels use."""
    return dict(measurement, messages_per_frame=frames_for(mode))


def ceilings(record, levels):
    """{connections: received msgs/s} for `levels` from the rows of the record's frame size; a level
    without a row (or with nothing received) is left out, so the profile's max_rate caps it."""
    mpf = record["messages_per_frame"]
    out = {}
    for row in record["rows"]:
        n = row["connections"]
        if row["messages_per_frame"] == mpf and n in levels and row["received_per_s"] > 0:
            out[n] = row["received_per_s"]
    return out


def client_args(record, levels):
    """The client's `--client-ceilings` flag for `levels` (empty when no level has a ceiling)."""
    found = ceilings(record, levels)
    if not found:
        return []
    return ["--client-ceilings", ",".join(f"{n}:{found[n]:.0f}" for n in sorted(found))]
