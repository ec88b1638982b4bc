"""One repetition: a fresh server process, warmed up, swept once by the client.

Steps, each named in errors (`[step] why`): start the server pinned to its
cores and wait for READY; an unrecorded warm-up pass; the measured client run
pinned to the other cores, with /proc read just before and after it; stop the
server (SIGTERM, exit 0 within 2 s). Every repetition of every server is warmed
the same way, so repetitions differ only by what the machine does.

Scale-out (`--workers N`, `--broker`): a private redis-server is started
before the server and stopped after it, fresh for each repetition
(docs/contract/sockbench_contract/private_redis.py); the serving processes
(supervisor or primary plus the READY line's `worker_pids`) and the private
redis-server are sampled from /proc during the client run
(bench/process_sampler.py), because the client samples one pid only.

Behind a proxy (`--proxy haproxy`, PROXY=): the server command becomes
docs/contract/sockbench_contract/proxy_front.py's, which runs `workers` one-worker
processes with the broker behind haproxy and names them all in its READY line
(`worker_pids`, `proxy_pid`); haproxy inherits the server's CPU set, and its CPU
and RSS are sampled and summed with the workers' (role "proxy"): the proxy is
part of what serves the sessions.

Probes (`probes=`, e.g. bench/run_scaleout.py's CPU quota and relay counter)
look at a repetition from outside without changing it: `ready(processes,
redis)` once READY is printed (before the warm-up), `sweep_started()` just
before the measured client run, `sweep_finished()` just after it (the server
and its broker still running) returning fields for this repetition's
`runs[]` entry (results/schema.json run_host).
"""

import datetime
import os
import resource
import shlex
import subprocess
import tempfile
import contextlib
import time

from churn import client_args as churn_args
from cpus import format_cpu_list
import loopback_drops
from client_fleet import ClientFleet
from process_sampler import GroupSampler
from scaleout import wants_private_broker
from servers import server_command
import slow_clients
import transports
import compression
from server_quiet import wait_until_quiet
from sockbench_contract.private_redis import PrivateRedis
from sockbench_contract.proxy_front import front_command
from sockbench_contract.procfs import clock_ticks_per_s, host_report, read_loadavg, read_pid_ticks, read_proc_stat
from sockbench_contract.server_launch import ServerProcess, StepError

# Stands in for the private broker's URL when the knobs are checked before
# anything runs (the real port is known only once its redis-server is up).
PRIVATE_BROKER_PLACEHOLDER = "redis://127.0.0.1:6379/0"

# A short unrecorded sweep before the measured one, for every server alike:
# PyPy's JIT (and the client's own JVM JIT) compile the broadcast path on the
# first few thousand messages, which otherwise shows up as inflated latency in
# the first points of the first level. Its output is thrown away. Its sweep is
# the client's `warmup` profile (client-java Profile.java, `--list-profiles`),
# beside the measured ones in the one profile table.
WARMUP_PROFILE = "warmup"


def _utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def variant_argv(config, variant, broker_url=None):
    """The server's argv for one variant of the run `config` (run_config.RunConfig); StepError when
    the server lacks a knob.

    broker_url: the private broker's URL once it runs; None = config.broker as
    given (or a placeholder for a private one, for checking the knobs).
    """
    if broker_url is None and wants_private_broker(config.workers, config.broker):
        broker_url = PRIVATE_BROKER_PLACEHOLDER
    broker = broker_url or config.broker
    try:
        argv = server_command(variant, config.host, config.port, config.heartbeat_s,
                              codec=config.codec if variant.has_codec else None, naive=variant.naive,
                              workers=config.workers, broker=broker,
                              sessions=config.sessions if variant.has_sessions else None,
                              compression=config.compression)
        if config.proxy is None:
            return argv
        # The knobs are checked above with every worker; each backend is the one-process command.
        one = server_command(variant, config.host, config.port, config.heartbeat_s,
                             codec=config.codec if variant.has_codec else None, naive=variant.naive,
                             sessions=config.sessions if variant.has_sessions else None,
                             compression=config.compression)
        return front_command(config.proxy, config.workers, broker, one)
    except ValueError as exc:
        raise StepError("start server", f"{variant.name}: {exc}") from exc


def java_command(config):
    """The argv prefix that runs the client jar pinned to the client's CPUs."""
    return ["taskset", "-c", format_cpu_list(config.client_cpus), config.java, *config.java_opts,
            "-jar", config.client_jar]


def serving_processes(server):
    """[(pid, role), ...] of a started server: the process itself, plus its workers when it has several.

    role: "server" (one process serves everything), "supervisor" (server-python's
    supervisor or the node:cluster primary: the READY process, which starts the
    workers; node's also accepts and hands off connections; behind a proxy, the
    proxy front), "worker", "proxy" (READY's `proxy_pid`: haproxy, which carries
    every byte between the clients and the workers).
    """
    workers = [int(p) for p in server.fields.get("worker_pids", "").split(",") if p.strip()]
    proxy = [(int(server.fields["proxy_pid"]), "proxy")] if server.fields.get("proxy_pid") else []
    if not workers or workers == [server.pid]:
        return [(server.pid, "server")] + proxy
    return [(server.pid, "supervisor")] + [(pid, "worker") for pid in workers] + proxy


def client_sampled_pid(processes):
    """The one pid the client samples per point (--server-pid): the server, or the first worker.

    With workers a supervisor's CPU says nothing about saturation (python's is
    idle), while one worker's does: each worker is one process's share of the
    load. The group's totals are the runner's (runs[].server_total).
    """
    workers = [pid for pid, role in processes if role == "worker"]
    return workers[0] if workers else processes[0][0]


def server_pids_args(processes):
    """The client's `--server-pids` for every serving process (supervisor or primary, workers): the
    sessions profile's idle record sums their RSS and CPU (memory per session, idle CPU), where the
    per-point figures read the one --server-pid."""
    return ["--server-pids", ",".join(str(pid) for pid, _ in processes)]


def client_command(config, server, spec, out_path, extra=(), server_pid=None):
    cmd = java_command(config) + [
        "--url", f"{server.url}/broadcast",
        "--transport", config.transport,
        "--profile", config.profile,
        "--out", out_path,
        "--server-pid", str(server_pid or server.pid),
        "--server-ready", server.ready_line]
    if config.levels:
        cmd += ["--levels", config.levels_arg]
    if spec.peer:
        cmd.append("--peer")
    cmd += churn_args(config.churn_pct)
    cmd += transports.client_args(config.transports)
    cmd += compression.client_args(config.compression)
    cmd += slow_clients.client_args(config.slow_clients)
    cmd += list(extra)
    cmd += config.client_args
    return cmd


def warm_up_note(profile):
    """What the log says of the warm-up pass of `profile` (the client's `warmup`)."""
    return (f"client profile {profile['name']}: {','.join(map(str, profile['levels']))} clients, "
            f"{profile['start_rate']:g}-{profile['max_rate']:g} msgs/s")


def warm_up(config, url, profile, failed="warm-up pass"):
    """The unrecorded warm-up sweep (`profile`, the client's `warmup`) against the SockJS app at
    `url`; StepError("warm up") naming `failed` when the client exits non-zero."""
    with tempfile.TemporaryDirectory() as scratch:
        # The warm-up runs the run's transports too: the server's HTTP paths need their JIT warm as well.
        cmd = java_command(config) + ["--url", url, "--transport", config.transport,
                                      "--out", os.path.join(scratch, "warmup.json"), "--profile", profile["name"],
                                      *transports.client_args(config.transports),
                                      *compression.client_args(config.compression)]
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    if proc.returncode != 0:
        raise StepError("warm up", f"{failed} failed (status {proc.returncode}): {proc.stderr[-2000:]}")


def children_cpu_s():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def measure_once(config, variant, out_path, log_path, extra_client_args=(), warmup=None, log=print, probes=(),
                 server_pids=False):
    """Run one repetition of `variant` with the settings of `config` (run_config.RunConfig); returns
    (host record for `runs[]`, host warnings). warmup: the client's warm-up profile (a
    `--list-profiles` entry) swept unrecorded before the measured run; None = no warm-up pass.
    server_pids: also give the client `--server-pids` (every serving process; a client that
    knows the sessions profile's idle record, bench/session_groups.py).

    The client writes its result document to out_path. The client's CPU time
    is what this process's reaped children used during its run (the client is
    the only child reaped then; the server is still running), the server's
    from /proc/PID/stat before and after — summed over every serving process
    when the server runs workers (then also `server_total` and
    `server_processes`; `broker` for a private redis-server).
    """
    workers, broker = config.workers, config.broker
    scaled = workers > 1 or broker is not None
    load_before = read_loadavg()
    started_at, started = _utc_now(), time.monotonic()
    with contextlib.ExitStack() as stack:
        redis = None
        if wants_private_broker(workers, broker):
            redis = stack.enter_context(PrivateRedis(cpus=config.broker_cpus))
            log(f"[start broker] private redis-server {redis.version} pid {redis.pid} on {redis.url}, "
                f"CPU {format_cpu_list(redis.cpus) if redis.cpus else 'not pinned'}")
        argv = variant_argv(config, variant, redis.url if redis else None)
        log(f"[start server] {' '.join(argv)} on CPU {format_cpu_list(config.server_cpus)}")
        # A slow stop does not void the sweep just measured: it is reported below (at 100,000
        # sessions CPython's workers took 2.4 s to close theirs on one core, past the 2 s contract).
        server = stack.enter_context(ServerProcess(argv, cpus=config.server_cpus, log_path=log_path,
                                                   ready_timeout_s=config.ready_timeout_s, slow_stop_is_error=False))
        log(f"[wait for READY] {server.ready_line}")
        mismatches = variant.ready_mismatches(server.fields)
        if mismatches:
            # A result must never carry one runtime's figures under another's name.
            raise StepError("wait for READY", f"{variant.name}: {'; '.join(mismatches)}")
        processes = serving_processes(server)
        for probe in probes:
            probe.ready(processes, redis)
        if warmup:
            log(f"[warm up] unrecorded warm-up pass ({warm_up_note(warmup)})")
            warm_up(config, f"{server.url}/broadcast", warmup)
        # AGENTS=N > 1: N agent processes (fresh per repetition) hold the connections.
        fleet = stack.enter_context(ClientFleet(agents=config.agents, java=java_command(config),
                                                log_stem=os.path.splitext(out_path)[0], bus=config.bus, log=log))
        cmd = client_command(config, server, variant, out_path, extra_client_args,
                             server_pid=client_sampled_pid(processes)) + fleet.coordinator_args()
        if server_pids:
            cmd += server_pids_args(processes)
        log(f"[run client] CPU {format_cpu_list(config.client_cpus)}: {shlex.join(cmd[3:])}")
        group = GroupSampler(processes) if scaled else None
        broker_sampler = GroupSampler([(redis.pid, "broker")]) if redis else None
        dropped_before = loopback_drops.read_dropped()
        stat_before, server_before, children_before = read_proc_stat(), read_pid_ticks(server.pid), children_cpu_s()
        for sampler in (group, broker_sampler):
            if sampler:
                sampler.start()
        for probe in probes:
            probe.sweep_started()
        client_started = time.monotonic()
        try:
            code = subprocess.run(cmd, stdin=subprocess.DEVNULL, timeout=config.client_timeout_s).returncode
        except subprocess.TimeoutExpired as exc:
            raise StepError("run client", f"client still running after {config.client_timeout_s:g} s; stopped") from exc
        finally:
            for sampler in (group, broker_sampler):
                if sampler:
                    sampler.stop()
        fleet_record = fleet.finish()  # reaps the agents first, so children_cpu_s() includes them
        stat_after, server_after, children_after = read_proc_stat(), read_pid_ticks(server.pid), children_cpu_s()
        dropped = loopback_drops.dropped_between(dropped_before, loopback_drops.read_dropped())
        if server.proc.poll() is not None:
            raise StepError("run client", f"the server exited (status {server.proc.returncode}) during the run"
                            + server.log_tail())
        if code != 0:
            raise StepError("run client", f"client exited with status {code}")
        if not os.path.exists(out_path):
            raise StepError("run client", f"client exited 0 but wrote no {out_path}")
        log(f"[run client] done in {time.monotonic() - client_started:.0f} s")
        probe_fields = {}
        for probe in probes:
            probe_fields.update(probe.sweep_finished())
        server_pid = server.pid
        broker_record = None
        if redis:
            b = broker_sampler.report()
            broker_record = {"url": redis.url, "private": True, "version": redis.version,
                             "pid": redis.pid, "cpus": b["processes"][0]["cpus"],
                             "cpu_s": b["total"]["cpu_s"], "rss_bytes_max": b["total"]["rss_bytes_max"]}
        elif broker:
            broker_record = {"url": broker, "private": False}
        # The server may still be closing the sessions the client just closed (19,000 of them take
        # CPython seconds): stop it once it is quiet, so the stop contract judges the stop alone.
        waited, quiet = wait_until_quiet([pid for pid, _ in processes])
        if waited >= 1.0 or not quiet:
            log(f"[stop server] waited {waited:.1f} s for the server to finish closing the client's sessions"
                + ("" if quiet else " (still busy; stopping anyway)"))
    if server.slow_stop_s is None:
        log(f"[stop server] stopped cleanly; server log: {log_path}")
    else:
        log(f"[stop server] stopped, but {server.slow_stop_s:.1f} s after SIGTERM (contract: 2 s); "
            f"the measured figures stand; server log: {log_path}")

    hz = clock_ticks_per_s()
    extra = {}
    if group:
        report = group.report()
        # The server's CPU is every serving process's: the group sum replaces the one pid's.
        server_ticks = round(report["total"]["cpu_s"] * hz)
        extra = {"workers": workers, "server_total": report["total"], "server_processes": report["processes"]}
        if broker_record:
            extra["broker"] = broker_record
        if server.fields.get("proxy_pid"):
            extra["proxy"] = {"name": server.fields.get("proxy"), "version": server.fields.get("proxy_version"),
                              "pid": int(server.fields["proxy_pid"])}
    else:
        server_ticks = None if None in (server_before, server_after) else server_after - server_before
    if fleet_record:
        extra["client_agents"] = fleet_record
    client_ticks = round((children_after - children_before) * hz)
    host, warnings = host_report(stat_before, stat_after, config.server_cpus, config.client_cpus, server_ticks,
                                   client_ticks)
    drop_warning = loopback_drops.drop_warning(dropped, loopback_drops.read_backlog_limit())
    if drop_warning:
        warnings.append(drop_warning)
    if server.slow_stop_s is not None:
        warnings.append(f"the server took {server.slow_stop_s:.1f} s to exit after SIGTERM, past the contract's "
                        "2 s (docs/protocol.md): its goodbye to every session was slow; the sweep's figures stand")
    record = {
        "server_pid": server_pid,
        "started_at": started_at,
        "finished_at": _utc_now(),
        "wall_s": round(time.monotonic() - started, 1),
        "load_avg_before": load_before,
        "loopback_dropped": dropped,
        **host,
        **extra,
        **probe_fields,
    }
    return record, warnings
