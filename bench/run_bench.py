"""Benchmark one server, or the like-for-like matrix, REPEAT times each.

Each repetition is an independent measurement on a fresh server process
(bench/measure.py); repetitions of several servers are interleaved (A B C,
A B C, ...: bench/matrix.py) and merged into one result file per server
(bench/merge.py) whose per-level saturation is the median with its
{min, median, max} spread. Before starting it prints the estimated total time,
and before each run the ETA across everything left (bench/estimate.py).

A failing run names its step (`[step] why`) on stderr; the other servers go
on, the failed one gets no result file, and the exit status is 1. The server
is stopped whatever happens (SIGTERM/SIGINT become an exception, so `finally`
runs). Result file paths go to stdout, one per line.

Scale-out (`--workers N`, `--broker URL|private`; docs/scaling-out.md):
the server runs N worker processes pinned together to --server-cpu (they
inherit its affinity); with N > 1 and no --broker, or --broker private, each
repetition gets a fresh private redis-server (not pinned unless --broker-cpu).

Sessions (`--profile sessions`, docs/sessions.md): each group of levels that
needs the same number of processes (ceil(N / 19000) workers and agents,
bench/sessions.py) is its own server start and client run, merged into one
result per repetition (bench/session_groups.py); what cannot hold its levels is
refused before anything starts.

Usage (the Makefile's bench-* targets call this):
  python3 bench/run_bench.py --server pypy --profile quick
  python3 bench/run_bench.py --server node --profile quick --workers 2 --server-cpu 0,1
  python3 bench/run_bench.py --servers pypy-fast,node-naive --profile standard --repeat 3
  python3 bench/run_bench.py --servers runtimes --profile standard --dry-run
  python3 bench/run_bench.py --url http://127.0.0.1:19500/broadcast --server-pid 4242 --name mine --profile smoke

Servers come from the registry (docs/contract/server-registry.json); `--url` is a
server the user runs themselves (bench/byo_server.py): not started, not
stopped, sampled only with --server-pid.

This file is the run's order of steps only: its command line is
bench/bench_cli.py's, whose options become one checked RunConfig
(bench/run_config.py) that every step reads; the
merged file's runner fields are bench/run_record.py's, the summary
bench/run_summary.py's.
"""

import dataclasses
import datetime
import functools
import os
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# docs/contract holds sockbench_contract (READY parser, launcher, /proc reader, private Redis).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "contract"))

from bench_cli import build_parser, parse_args  # noqa: E402
from byo_server import measure_url_once, record_target  # noqa: E402
import churn  # noqa: E402
import client_ceiling  # noqa: E402
from cpus import format_cpu_list  # noqa: E402
from estimate import (LATER_REPETITION_RATIO, PRIOR_CEILING_PER_S, Eta, ceiling_measure_s,  # noqa: E402
                      format_duration, prior_run_s)
import loopback_drops  # noqa: E402
from matrix import format_level_start_rates, interleave, level_start_rates, registry  # noqa: E402
from measure import WARMUP_PROFILE, java_command, measure_once, variant_argv  # noqa: E402
from merge import merge_repetitions  # noqa: E402
from profiles import load_client_profiles  # noqa: E402
from results_io import load_result, result_file_path, write_result  # noqa: E402
from run_config import OneLineRefusal  # noqa: E402
from run_record import record_entry, record_scaleout  # noqa: E402
from run_summary import summarize  # noqa: E402
from scaleout import wants_private_broker  # noqa: E402
import session_groups  # noqa: E402
from sessions import SESSIONS_PER_PROCESS  # noqa: E402
from sockbench_contract.server_launch import StepError  # noqa: E402
import slow_clients  # noqa: E402
import transports  # noqa: E402
import compression  # noqa: E402

def _log(msg):
    print(msg, file=sys.stderr, flush=True)


def available_variants(variants, reg=None, log=None):
    """The variants whose requirements in the registry `reg` (default: docs/contract/server-registry.json)
    are met; one line for each one skipped, naming what is missing (e.g. CPython 3.13 under pyenv).
    StepError when none is left."""
    reg, log = reg or registry(), log or _log
    out = []
    for v in variants:
        why = reg.missing(v)
        if why:
            log(f"[skip] {v.name}: missing {why}")
        else:
            out.append(v)
    if not out:
        raise StepError("setup", f"none of {', '.join(v.name for v in variants)} can run on this machine (see above)")
    return out


def check_installed(variants, jar, dry_run=False):
    """Stop early, naming what to run, when setup has not produced something we need; a dry run
    only says which servers are not installed yet (it runs none of them)."""
    if not os.path.exists(jar):
        raise StepError("setup", f"client jar {jar} is missing: run `make setup-java`")
    for v in variants:
        exe = v.argv[0]
        if os.path.isabs(exe) and not os.path.exists(exe):
            if dry_run:
                _log(f"[plan] {v.name} is not installed yet ({exe}); `make bench` installs it first")
                continue
            raise StepError("setup", f"{exe} ({v.name}) is missing: run `make install-server SERVER={v.name}`")


def run(config, usage_error):
    """The whole run of `config` (run_config.RunConfig): checks, plan, every repetition, the merged
    files; returns their paths. usage_error(text): reports a setting the client refuses (exits)."""
    if config.byo_server:
        variants = list(config.variants)
        if not os.path.exists(config.client_jar):
            raise StepError("setup", f"client jar {config.client_jar} is missing: run `make setup-java`")
    else:
        variants = available_variants(config.variants)
        check_installed(variants, config.client_jar, dry_run=config.dry_run)
    client, profile, warmup = client_profiles_for(
        config, wants_private_broker(config.workers, config.broker), usage_error)
    check_churn(config, profile)
    config = check_transports(config, usage_error)
    config = check_slow_clients(config, usage_error)
    _refuse(transports.refusal(config.transports, variants, config.workers, config.proxy))
    _refuse(compression.transports_refusal(config.compression, config.transports))
    for v in () if config.byo_server else variants:  # refuse a knob a server lacks before anything runs
        variant_argv(config, v)
    if set(config.client_cpus) & set(config.server_cpus):
        _log(f"warning: server CPUs {format_cpu_list(config.server_cpus)} and client CPUs "
             f"{format_cpu_list(config.client_cpus)} overlap: they compete for CPU (recorded in the result)")
    levels = list(config.levels or profile["levels"])
    groups = None
    if session_groups.applies(config):
        if config.proxy:
            # Not built: each level group picks its own worker count, and a proxy holds two descriptors
            # per session, so 19,000 sessions a process would not fit its open-files limit.
            raise OneLineRefusal(f"PROXY={config.proxy} with the sessions profile is not supported: run the "
                                 "sessions profile without PROXY (websocket sessions need no proxy)")
        # Refused before anything starts: a level no process layout here can hold (docs/sessions.md).
        refused = session_groups.refusals(config, variants, levels)
        if refused:
            raise StepError("plan", "; ".join(refused))
        if not config.byo_server:
            groups = session_groups.plan(config, levels)
            for v in variants:  # the knobs each group's start passes (--workers, --sessions)
                for g in groups:
                    variant_argv(session_groups.group_config(config, g, v), v)
            session_groups.check_redis(groups, config)
            _log(session_groups.plan_line(groups, config))
            backlog_warning = loopback_drops.plan_warning(loopback_drops.read_backlog_limit())
            if backlog_warning and max(levels) > SESSIONS_PER_PROCESS:
                _log(backlog_warning)
    plan = interleave(variants, config.repeat)
    # The client's ceiling replaces the profile's max_rate as each level's upper end (bench/client_ceiling.py).
    no_ceiling = client_ceiling.why_not_measured(config, client.features)
    # The firehose self-test is one client process: it measures the levels one process holds.
    one_process_levels = [n for n in levels if not groups or n <= SESSIONS_PER_PROCESS]
    if not no_ceiling and not one_process_levels:
        no_ceiling = f"every level is above {SESSIONS_PER_PROCESS:,} sessions: held by agents, not one process"
    connections, frame_sizes = client_ceiling.what_to_measure(one_process_levels, [v.mode for v in variants])
    ceiling_s = 0.0 if no_ceiling else ceiling_measure_s(connections, frame_sizes, client_ceiling.WINDOW_S,
                                                         client_ceiling.SETTLE_S)
    # Later repetitions skip the climb when the client takes per-level start rates.
    eta = Eta(prior_run_s(profile, levels, ceiling_per_s=None if no_ceiling else PRIOR_CEILING_PER_S),
              later_ratio=LATER_REPETITION_RATIO if "level-start-rates" in client.features else 1.0)
    _log(f"[plan] {len(variants)} server(s) x {config.repeat} repetition(s) = {len(plan)} runs, profile "
         f"{config.profile}, levels {','.join(map(str, levels))}"
         + (f", churn {churn.pct_text(config.churn_pct)} of the sessions a second" if config.churn_pct else "")
         + (f", websockets compressed ({config.compression})" if config.compression != compression.NONE else "")
         + (f", slow readers {config.slow_clients} (share:KiB/s)" if config.slow_clients else "")
         + ": estimated "
         f"{format_duration(ceiling_s + eta.remaining_s([(v.name, r) for r, v in plan]))} "
         f"(~{format_duration(eta.prior_s)} a run before any is measured"
         + (f", {format_duration(ceiling_s)} for the client-ceiling self-test first)" if ceiling_s else ")"))
    if no_ceiling:
        _log(f"[plan] client ceiling not measured ({no_ceiling}): levels end at the profile's max_rate")
    else:
        _log(f"[plan] client ceiling: firehose self-test at {','.join(map(str, connections))} connections, "
             f"{','.join(map(str, frame_sizes))} message(s) per frame, once before the first server")
    if config.dry_run:
        _log("[plan] order: " + " ".join(f"{v.name}#{r}" for r, v in plan))
        return []
    ceiling = None if no_ceiling else client_ceiling.measure(
        client_ceiling.firehose_command(java_command(config), config, connections, frame_sizes), log=_log)

    os.makedirs(config.out_dir, exist_ok=True)
    when = datetime.datetime.now(datetime.timezone.utc)
    # Each repetition's raw result waits here until its server's repetitions
    # are merged; kept if anything fails, so no measurement is lost.
    scratch = os.path.join(config.out_dir, "scratch", f"repetitions-{when.strftime('%Y%m%dT%H%M%SZ')}")
    os.makedirs(scratch, exist_ok=True)  # results/scratch/ is git-ignored
    done = {v.name: [] for v in variants}   # name -> [(doc path, host record, host warnings)]
    failed = {}
    t0 = time.monotonic()
    try:
        _run_plan(config, plan, client, profile, warmup, scratch, done, failed, eta, t0, ceiling, levels, groups)
    except KeyboardInterrupt:
        if any(done.values()):
            _log(f"raw results of every finished repetition are kept in {scratch}")
        raise

    written = []
    for v in variants:
        if v.name in failed or not done[v.name]:
            continue
        docs = []
        for path, _, warnings in done[v.name]:
            doc = load_result(path)
            doc["warnings"] = list(doc["warnings"]) + list(warnings)
            if ceiling:
                doc["client_ceiling"] = client_ceiling.record_for(ceiling, v.mode)
            docs.append(doc)
        merged = merge_repetitions(docs, [record for _, record, _ in done[v.name]])
        record_scaleout(merged, config, per_point_sums=groups is not None)
        if config.byo_server:
            record_target(merged, v)
            runtime_tag = None
        else:
            record_entry(merged, v)
            runtime_tag = v.runtime_tag
        path = result_file_path(config.out_dir, merged, when, runtime_tag=runtime_tag)
        write_result(path, merged)
        written.append(path)
        _log(summarize(merged, v.name))
    _log(f"\n[done] {len(plan) - sum(1 for _, v in plan if v.name in failed)} of {len(plan)} runs, wall time {format_duration(time.monotonic() - t0)}")
    for path in written:
        print(path, flush=True)
    if failed:
        for name in failed:
            _log(f"bench failed: {name} (the reason is above)")
        if any(done.values()):
            _log(f"raw results of every finished repetition are kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
            _remove_if_empty(os.path.dirname(scratch))
        raise StepError("bench", f"{len(failed)} of {len(variants)} server(s) failed: {', '.join(failed)}")
    shutil.rmtree(scratch, ignore_errors=True)
    _remove_if_empty(os.path.dirname(scratch))
    return written


def _run_plan(config, plan, client, profile, warmup, scratch, done, failed, eta, t0, ceiling=None, levels=(),
              groups=None):
    """Every (repetition, server) of the plan in order; fills `done` and `failed`, teaches `eta`.
    warmup: the warm-up pass's profile, None for no warm-up pass. ceiling: the client-ceiling
    measurement (bench/client_ceiling.py) whose rows cap `levels`, or None (the profile's max_rate caps).
    groups: the sessions profile's level groups (bench/session_groups.py), each repetition run as
    them; None = one server start and client run per repetition."""
    measure = measure_url_once if config.byo_server else measure_once
    if groups:
        measure = functools.partial(session_groups.measure_groups, groups)
    for i, (rep, variant) in enumerate(plan):
        if variant.name in failed:
            continue
        pending = [(v.name, r) for r, v in plan[i:] if v.name not in failed]
        left = eta.remaining_s(pending)
        finish = (datetime.datetime.now() + datetime.timedelta(seconds=left)).strftime("%H:%M")
        _log(f"\n[run {i + 1}/{len(plan)}] {variant.name}, repetition {rep}/{config.repeat}; "
             f"elapsed {format_duration(time.monotonic() - t0)}, about {format_duration(left)} left (done ~{finish})")
        extra = []
        if rep > 1 and done[variant.name] and "level-start-rates" in client.features:
            rates = level_start_rates(load_result(done[variant.name][0][0]), profile)
            if rates:
                extra = ["--level-start-rates", format_level_start_rates(rates)]
        if ceiling:
            extra += client_ceiling.client_args(client_ceiling.record_for(ceiling, variant.mode), levels)
        out_path = os.path.join(scratch, f"{variant.name}-{rep}.json")
        log_path = os.path.join(config.out_dir, f"{variant.name}.server.log")
        started = time.monotonic()
        try:
            record, warnings = measure(config, variant, out_path, log_path, extra, warmup=warmup, log=_log)
        except StepError as exc:
            failed[variant.name] = f"repetition {rep}: {exc}"
            _log(f"bench failed: {variant.name} repetition {rep}: {exc}\n(its remaining repetitions are skipped)")
            continue
        eta.observe(variant.name, time.monotonic() - started, repetition=rep)
        for w in warnings:
            _log(f"warning: {variant.name} repetition {rep}: {w}")
        done[variant.name].append((out_path, record, warnings))


def _remove_if_empty(path):
    try:
        os.rmdir(path)
    except OSError:
        pass  # not empty (earlier runs' kept repetitions) or already gone


def _raise_on_signal(signum, _frame):
    raise KeyboardInterrupt(f"signal {signum}")


def client_profiles_for(config, needs_private_broker, usage_error):
    """(the client's profiles, the run's profile, the warm-up profile or None) for `config`, after
    checking that redis-server is there when the run starts a private broker. A missing redis-server
    or a jar that cannot list its profiles is a StepError naming the fix; an unknown profile name is
    a usage error (`usage_error`, which exits 2)."""
    if needs_private_broker and not shutil.which("redis-server"):
        raise StepError("setup", "redis-server is missing (a private broker is needed): run `make setup-redis`")
    if config.proxy and not shutil.which(config.proxy):
        raise StepError("setup", f"{config.proxy} is missing (PROXY={config.proxy}): run `make setup-{config.proxy}`")
    try:
        client = load_client_profiles(config.java, config.client_jar)
    except ValueError as exc:
        raise StepError("setup", str(exc)) from exc
    try:
        profile = client.get(config.profile)
    except ValueError as exc:
        usage_error(str(exc))
    # The profile list's schema (docs/contract/list-profiles.schema.json) guarantees a warmup profile.
    warmup = client.get(WARMUP_PROFILE) if config.server_warmup else None
    return client, profile, warmup


def check_transports(config, usage_error):
    """`config` with TRANSPORTS= in the client's canonical form; usage_error (exit 2) with the client's
    reason when it refuses the value. Asked of the jar before any server starts (bench/transports.py)."""
    spec, why = transports.canonical(java_command(config), config.transports, config.transport)
    if why:
        usage_error(why)
    return dataclasses.replace(config, transports=spec)


def _refuse(why):
    """OneLineRefusal (exit 2, before any server starts) with `why`, unless it is None (a knob the run's
    servers or transports cannot take: bench/transports.py, bench/compression.py)."""
    if why:
        raise OneLineRefusal(why)


def check_slow_clients(config, usage_error):
    """`config` with SLOW_CLIENTS= in the client's canonical form; usage_error (exit 2) with the client's
    reason when it refuses the value or its combination with the run (bench/slow_clients.py)."""
    if not config.slow_clients:
        return config
    spec, why = slow_clients.canonical(java_command(config), config.slow_clients, transport=config.transport,
                                       transports=config.transports, profile=config.profile,
                                       levels_arg=config.levels_arg if config.levels else None,
                                       churn_pct=config.churn_pct, agents=config.agents)
    if why:
        usage_error(why)
    return dataclasses.replace(config, slow_clients=spec)


def check_churn(config, profile):
    """OneLineRefusal when the run asks for churn but the client would not judge it by every copy (the
    profile, after CLIENT_ARGS=): a churn run is only read through the other sessions' latency."""
    why = churn.refusal(config.churn_pct, profile, config.client_args)
    if why:
        raise OneLineRefusal(why)


def run_as_command(label, body, interrupted="server stopped"):
    """Run body() as a command's main and return its exit status: SIGTERM is taken as Ctrl-C, so that
    every `finally` on the way out runs (the server stopped, cgroups removed); a failed step is one
    line and exit 1, an interruption one line saying what was cleaned up (`interrupted`) and 130."""
    signal.signal(signal.SIGTERM, _raise_on_signal)
    try:
        body()
    except OneLineRefusal as exc:
        print(f"{label}: {exc}", file=sys.stderr)
        return 2
    except StepError as exc:
        print(f"{label} failed: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:
        print(f"{label} interrupted ({exc or 'SIGINT'}); {interrupted}", file=sys.stderr)
        return 130
    return 0


def main(argv=None):
    parser = build_parser()
    config = parse_args(sys.argv[1:] if argv is None else argv, parser)
    if config.check_usage:
        return 0
    return run_as_command("bench", lambda: run(config, usage_error=parser.error))


if __name__ == "__main__":
    sys.exit(main())
