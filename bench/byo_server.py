"""Bring your own server: one repetition against a SockJS broadcast endpoint the runner did not start.

`make bench-url URL=http://HOST:PORT/prefix [SERVER_PID=] [NAME=] [MODE=]`
runs the same warm-up pass, sweep, rules and result file as the other bench
targets against any server keeping the `/broadcast` contract of
docs/protocol.md (§4-5), in the user's framework, on the user's host. What
the runner cannot do, it says instead of guessing:

- no server start or stop: every repetition sweeps the same server process;
- with SERVER_PID (a process on this machine) the client samples its CPU and
  RSS from /proc as for our servers, and its CPUs are read from the kernel;
- without it, no server CPU or RSS at all: the floor rule decides from the
  client's side alone (bench/floors.py) and the result says so once.
"""

import dataclasses
import datetime
import os
import re
import shlex
import subprocess
import time
from typing import Optional

from churn import client_args as churn_args
from cpus import format_cpu_list
from floors import NOT_SAMPLED_NOTE
from measure import children_cpu_s, java_command, warm_up, warm_up_note
import slow_clients
from sockbench_contract.procfs import (clock_ticks_per_s, host_report, read_loadavg, read_pid_cpus, read_pid_ticks,
                                       read_proc_stat)
from sockbench_contract.server_launch import StepError

#: http(s)://host:port/path, the SockJS service URL itself (its prefix), no query or fragment.
SERVICE_URL_RE = re.compile(r"^https?://[^/\s?#]+:\d+(/[^\s?#]*)?$")
MODES = ("fast", "naive")


@dataclasses.dataclass(frozen=True, kw_only=True)
class UrlTarget:
    """A server benchmarked by URL: what the runner knows of it."""

    name: str                  # NAME=, the result's server.name (default "byo")
    url: str                   # the SockJS service URL (its prefix), no trailing slash
    pid: Optional[int] = None  # SERVER_PID=, a process on this machine; None = not sampled
    mode: Optional[str] = None  # MODE=: "fast" or "naive", the algorithm group; None = not said


def check_service_url(url):
    """The URL without a trailing slash; ValueError saying what a service URL looks like."""
    text = url.strip().rstrip("/")
    if not SERVICE_URL_RE.match(text):
        raise ValueError(f"URL={url!r}: give the SockJS service URL with an explicit port, "
                         "e.g. http://127.0.0.1:8080/broadcast (http[s]://HOST:PORT/prefix)")
    return text


def check_server_pid(pid):
    """pid as given when /proc has that process; ValueError otherwise (it must run on this machine)."""
    if pid is None:
        return None
    if pid < 1 or not os.path.exists(f"/proc/{pid}/stat"):
        raise ValueError(f"SERVER_PID={pid}: no such process on this machine (the server's CPU and RSS are "
                         "read from /proc; leave SERVER_PID out for a server elsewhere)")
    return pid


def _utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def client_command(config, target, out_path, extra=()):
    """The measured client run against the target: the bench's sweep and rules, the target's name."""
    cmd = java_command(config) + [
        "--url", target.url,
        "--transport", config.transport,
        "--profile", config.profile,
        "--out", out_path,
        "--server-name", target.name,
        "--label", label(target)]
    if target.pid is not None:
        cmd += ["--server-pid", str(target.pid)]
    if config.levels:
        cmd += ["--levels", config.levels_arg]
    cmd += churn_args(config.churn_pct)
    cmd += slow_clients.client_args(config.slow_clients)
    cmd += list(extra)
    cmd += config.client_args
    return cmd


def label(target):
    """The legend label: name, URL and the algorithm group when given."""
    return f"{target.name} · {target.url}" + (f" · {target.mode}" if target.mode else "")


def measure_url_once(config, target, out_path, _log_path, extra_client_args=(), warmup=None, log=print):
    """One repetition against the target with the settings of `config` (run_config.RunConfig);
    returns (host record for `runs[]`, host warnings), as measure.measure_once does for a server
    the runner starts (warmup: the same)."""
    load_before = read_loadavg()
    started_at, started = _utc_now(), time.monotonic()
    if target.pid is not None and not os.path.exists(f"/proc/{target.pid}/stat"):
        raise StepError("check server", f"SERVER_PID={target.pid} is gone: the server exited")
    if warmup:
        log(f"[warm up] unrecorded warm-up pass against {target.url} ({warm_up_note(warmup)})")
        warm_up(config, target.url, warmup, failed=f"warm-up pass against {target.url}")
    cmd = client_command(config, target, out_path, extra_client_args)
    log(f"[run client] CPU {format_cpu_list(config.client_cpus)}: {shlex.join(cmd[3:])}")
    stat_before, children_before = read_proc_stat(), children_cpu_s()
    server_before = read_pid_ticks(target.pid) if target.pid is not None else None
    client_started = time.monotonic()
    try:
        code = subprocess.run(cmd, stdin=subprocess.DEVNULL, timeout=config.client_timeout_s).returncode
    except subprocess.TimeoutExpired as exc:
        raise StepError("run client", f"client still running after {config.client_timeout_s:g} s; stopped") from exc
    stat_after, children_after = read_proc_stat(), children_cpu_s()
    server_after = read_pid_ticks(target.pid) if target.pid is not None else None
    if target.pid is not None and server_after is None:
        raise StepError("run client", f"the server (SERVER_PID={target.pid}) exited during the run")
    if code != 0:
        raise StepError("run client", f"client exited with status {code}")
    if not os.path.exists(out_path):
        raise StepError("run client", f"client exited 0 but wrote no {out_path}")
    log(f"[run client] done in {time.monotonic() - client_started:.0f} s")
    hz = clock_ticks_per_s()
    server_ticks = None if None in (server_before, server_after) else server_after - server_before
    client_ticks = round((children_after - children_before) * hz)
    server_cpus = read_pid_cpus(target.pid) if target.pid is not None else []
    host, warnings = host_report(stat_before, stat_after, server_cpus, config.client_cpus, server_ticks,
                                   client_ticks)
    record = {
        "server_pid": target.pid,
        "started_at": started_at,
        "finished_at": _utc_now(),
        "wall_s": round(time.monotonic() - started, 1),
        "load_avg_before": load_before,
        **host,
    }
    return record, warnings


def record_target(doc, target):
    """What the runner knows of a target beyond the client's document: the algorithm group given,
    and, said once, what it could not measure."""
    if target.mode:
        doc["server"]["mode"] = target.mode
    doc["warnings"].append(f"bring your own server ({target.url}): the runner did not start or stop it, so "
                           "every repetition swept the same server process")
    if target.pid is None:
        doc["warnings"].append(NOT_SAMPLED_NOTE)
