"""`make bench-scaleout`: one server at several worker counts, each worker under an equal CPU quota.

Why: on a machine with fewer cores than workers, scale-out cannot be measured
(workers share a core with each other and with the client, so every
multi-worker figure is a floor). This simulates cores instead: every worker
gets CORE_SHARE of one core through a cgroup CPU quota (bench/cgroup_quota.py),
all of them on the server core (--server-cpu, default 0), the client and the
private redis-server on the other cores, so the workers together never use
more than one core (e.g. 1, 2, 4 workers at 0.25 each). What such a
simulation shows and does not: docs/scaleout-simulation.md.

Order: usage checks (exit 2), the cgroup controller (one line and exit 1 when
there is none or it is not writable), then REPEAT rounds of every worker
count (1 2 4, 1 2 4, ...: interleaved as `make bench` interleaves servers),
each repetition a normal bench/measure.py repetition with two probes: the
quota (workers moved into their groups after READY, read back; throttling
over the sweep) and the relay counter (bench/relay_counter.py). Then one
merged result file per worker count in <out-dir>/<UTC stamp>/, and the
summary (bench/scaleout_summary.py) printed and written beside that folder as
<stamp>.summary.md and <stamp>.summary.json (outside it, so `make compare
DIR=` reads result files only).

Usage (`make bench-scaleout SERVER=pypy-fast WORKERS=1,2,4 CORE_SHARE=0.25`):
  python3 bench/run_scaleout.py --workers-list 1,2,4 --core-share 0.25 --server pypy-fast --profile quick
Every other option is run_bench.py's (--profile, --levels, --repeat, --server-cpu, --client-cpu, ...);
--workers, --broker, --broker-cpu of run_bench.py are this runner's to set.
"""

import argparse
import dataclasses
import datetime
import json
import os
import shlex
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "contract"))

from cgroup_quota import DEFAULT_PERIOD_US, CgroupUnavailable, WorkerQuotas, detect, quota_us  # noqa: E402
from cpus import format_cpu_list, parse_cpu_list  # noqa: E402
from estimate import LATER_REPETITION_RATIO, Eta, format_duration, prior_run_s  # noqa: E402
from matrix import format_level_start_rates, level_start_rates  # noqa: E402
from measure import measure_once, variant_argv  # noqa: E402
from merge import merge_repetitions  # noqa: E402
from relay_counter import RelayCounter  # noqa: E402
from results_io import load_result, result_file_path, write_result  # noqa: E402
from bench_cli import build_parser as bench_parser, refuse_in_one_line  # noqa: E402
from run_bench import (available_variants, check_churn, check_installed, client_profiles_for,  # noqa: E402
                       run_as_command)
from run_config import OneLineRefusal, from_cli  # noqa: E402
from run_record import record_entry, record_scaleout  # noqa: E402
from run_summary import summarize as summarize_server  # noqa: E402
from scaleout import check_workers  # noqa: E402
from scaleout_summary import summarize, to_markdown  # noqa: E402
import session_groups  # noqa: E402
from sessions import SESSIONS_PER_PROCESS, processes_for  # noqa: E402
from servers import ROOT  # noqa: E402
from sockbench_contract.server_launch import StepError  # noqa: E402

DEFAULT_OUT = os.path.join(ROOT, "results", "scaleout")
# Shares that add up to one core may carry float error (4 x 0.25 is exact, 3 x 0.333 is not).
ONE_CORE = 1.0 + 1e-9


def build_parser():
    # No abbreviations: `--workers 2` must not pass for `--workers-list 2` (it is refused below).
    p = argparse.ArgumentParser(prog="run_scaleout.py", description=__doc__.split("\n\n")[0], allow_abbrev=False)
    p.add_argument("--workers-list", required=True, metavar="LIST",
                   help="worker counts to measure, comma list of 1-64, e.g. 1,2,4 (1 = one process, no broker: the "
                        "baseline of the efficiency)")
    p.add_argument("--core-share", required=True, type=float, metavar="FRACTION",
                   help="each worker's CPU quota, as a fraction of one core, in (0, 1]; (largest worker count) x "
                        "FRACTION must be <= 1 core")
    p.add_argument("--period-us", type=int, default=DEFAULT_PERIOD_US,
                   help=f"the CFS period, microseconds, 1000-1000000 (default {DEFAULT_PERIOD_US}); a throttled worker "
                        "waits for the next period")
    p.add_argument("--broker-cpu", default="",
                   help="CPU list of the private redis-server (default: the client's CPUs)")
    p.add_argument("--check-usage", action="store_true",
                   help="check the settings (usage errors exit 2) and exit 0: no client, no server, no cgroup")
    p.add_argument("--out-base", default=DEFAULT_OUT,
                   help="folder the run's folder and summary go to (default results/scaleout)")
    return p


@dataclasses.dataclass(frozen=True)
class Plan:
    """The checked settings: `config` (run_config.RunConfig, workers 1) and what this runner adds."""
    config: object
    variant: object
    workers: tuple       # worker counts, in the order given, unique, each 1-64
    share: float         # fraction of one core per worker, (0, 1]
    period_us: int       # CFS period, microseconds
    broker_cpus: tuple   # CPUs of the private redis-server
    out_base: str
    check_only: bool = False   # --check-usage: stop after the checks

    def config_for(self, k):
        """The RunConfig of the repetitions with k workers (a private broker when k > 1)."""
        return dataclasses.replace(self.config, workers=k, broker=None,
                                   broker_cpus=self.broker_cpus if k > 1 else None)


def parse_args(argv):
    """The Plan of the command line; a usage error (exit 2) for what cannot run."""
    own = build_parser()
    ns, rest = own.parse_known_args(argv)
    bench = bench_parser()
    for flag in ("--workers", "--broker", "--servers", "--url", "--agents", "--bus", "--naive", "--proxy"):
        if any(a == flag or a.startswith(flag + "=") for a in rest):
            own.error(f"{flag} is not an option of bench-scaleout (it sets workers and the broker itself; "
                      "name one registry entry with --server, e.g. pypy-fast)")
    if not any(a == "--server" or a.startswith("--server=") for a in rest):
        own.error("--server NAME is required: one registry entry with a workers knob, e.g. pypy-fast (SERVER=)")
    try:
        config = from_cli(bench.parse_args(rest))  # the bench runner's own usage errors exit 2 there
    except OneLineRefusal as exc:
        refuse_in_one_line("bench-scaleout", exc)
    except ValueError as exc:
        own.error(str(exc))
    if config.workers != 1 or config.broker is not None or config.agents != 1 or config.byo_server:
        own.error("--workers, --broker, --agents and --url are not options of bench-scaleout (it sets workers and "
                  "the broker itself)")
    try:
        workers = parse_workers(ns.workers_list)
        quota_us(ns.core_share, ns.period_us)
    except ValueError as exc:
        own.error(str(exc))
    if max(workers) * ns.core_share > ONE_CORE:
        own.error(f"{max(workers)} workers x {ns.core_share:g} of a core = {max(workers) * ns.core_share:g} cores: "
                  "the workers together must fit one core (lower CORE_SHARE or the largest WORKERS)")
    variant = config.variants[0]
    if not variant.has_scaleout:
        own.error(f"server {variant.name!r} has no workers knob (--workers/--broker): bench-scaleout needs one of "
                  "our servers (e.g. pypy-fast, node-fast; `make servers` lists them)")
    broker_cpus = tuple(parse_cpu_list(ns.broker_cpu)) if ns.broker_cpu else config.client_cpus
    plan = Plan(check_only=ns.check_usage, config=config, variant=variant, workers=workers, share=ns.core_share, period_us=ns.period_us,
                broker_cpus=broker_cpus, out_base=ns.out_base)
    for k in workers:
        try:
            variant_argv(plan.config_for(k), variant)
        except StepError as exc:
            own.error(str(exc))
    return plan


def parse_workers(text):
    """"1,2,4" -> (1, 2, 4); ValueError unless a non-empty list of unique whole numbers 1-64."""
    items = [t.strip() for t in (text or "").split(",") if t.strip()]
    if not items or not all(t.isdigit() for t in items):
        raise ValueError(f"WORKERS={text!r}: a comma list of worker counts, e.g. 1,2,4")
    counts = tuple(check_workers(int(t)) for t in items)
    if len(set(counts)) != len(counts):
        raise ValueError(f"WORKERS={text!r}: a worker count is listed twice")
    return counts


def _log(msg):
    print(msg, file=sys.stderr, flush=True)


class QuotaProbe:
    """The measure.py probe around one repetition's WorkerQuotas: admit after READY, report over the sweep."""

    def __init__(self, quotas):
        self.quotas = quotas

    def ready(self, processes, redis):
        try:
            self.quotas.admit(processes)
        except (OSError, ValueError) as exc:
            raise StepError("cpu quota", str(exc)) from exc
        for group in self.quotas.report()["groups"]:
            if group["pids"]:
                quota = ("no quota of its own (bounded by the run group's)" if group["quota_us"] is None
                         else f"{group['quota_us']} us per {group['period_us']} us")
                _log(f"[cpu quota] {self.quotas.group_path(group['group'])}: pids {','.join(map(str, group['pids']))}, "
                     f"{quota} (read back)")

    def sweep_started(self):
        self.quotas.mark()

    def sweep_finished(self):
        return {"cpu_quota": self.quotas.report()}


def run(plan, controller, usage_error):
    """Every repetition of every worker count, then the merged files and the summary; returns the
    summary's paths. StepError when everything failed (the other worker counts go on after one fails)."""
    config, variant = plan.config, plan.variant
    available_variants([variant])
    check_installed([variant], config.client_jar, dry_run=config.dry_run)
    client, profile, warmup = client_profiles_for(config, max(plan.workers) > 1, usage_error)
    check_churn(config, profile)
    levels = list(config.levels or profile["levels"])
    sessions_run = session_groups.applies(config)
    if sessions_run and max(levels) > SESSIONS_PER_PROCESS:
        # One client process holds every level here (no agents): refused before anything starts.
        raise StepError("plan", f"level {max(levels):,} needs {processes_for(max(levels))} client processes "
                        f"({SESSIONS_PER_PROCESS:,} sessions per process, ulimit -n) but make bench-scaleout runs "
                        f"one; use LEVELS= up to {SESSIONS_PER_PROCESS:,}, or make bench SERVERS={variant.name} "
                        "PROFILE=sessions, which runs larger levels across workers and agents")
    steps = [(rep, k) for rep in range(1, config.repeat + 1) for k in plan.workers]
    eta = Eta(prior_run_s(profile, levels),
              later_ratio=LATER_REPETITION_RATIO if "level-start-rates" in client.features else 1.0)
    _log(f"[plan] {variant.name} with {','.join(map(str, plan.workers))} workers x {config.repeat} repetition(s) = "
         f"{len(steps)} runs, each worker {plan.share:g} of a core (cgroup v{controller.version}, "
         f"{quota_us(plan.share, plan.period_us)} us per {plan.period_us} us) on CPU {format_cpu_list(config.server_cpus)}; "
         f"client on {format_cpu_list(config.client_cpus)}, broker on {format_cpu_list(plan.broker_cpus)}; profile "
         f"{config.profile}, levels {','.join(map(str, levels))}: estimated "
         f"{format_duration(eta.remaining_s([(f'w{k}', r) for r, k in steps]))}")
    if config.dry_run:
        _log("[plan] order: " + " ".join(f"w{k}#{r}" for r, k in steps))
        return []

    when = datetime.datetime.now(datetime.timezone.utc)
    stamp = when.strftime("%Y%m%dT%H%M%SZ")
    out_dir = os.path.join(plan.out_base, stamp)
    scratch = os.path.join(out_dir, "scratch")
    os.makedirs(scratch, exist_ok=True)
    done, failed = {k: [] for k in plan.workers}, {}
    t0 = time.monotonic()
    for i, (rep, k) in enumerate(steps):
        if k in failed:
            continue
        left = eta.remaining_s([(f"w{kk}", r) for r, kk in steps[i:] if kk not in failed])
        _log(f"\n[run {i + 1}/{len(steps)}] {variant.name}, {k} worker(s), repetition {rep}/{config.repeat}; "
             f"elapsed {format_duration(time.monotonic() - t0)}, about {format_duration(left)} left")
        extra = []
        if rep > 1 and done[k] and "level-start-rates" in client.features:
            rates = level_start_rates(load_result(done[k][0][0]), profile)
            if rates:
                extra = ["--level-start-rates", format_level_start_rates(rates)]
        out_path = os.path.join(scratch, f"w{k}-{rep}.json")
        started = time.monotonic()
        try:
            quotas = WorkerQuotas(controller, k, plan.share, plan.period_us, log=_log)
            with quotas:
                k_config = plan.config_for(k)
                if sessions_run and variant.has_sessions:  # the server refuses at start if it cannot hold them
                    k_config = dataclasses.replace(k_config, sessions=max(levels))
                record, warnings = measure_once(k_config, variant, out_path,
                                                os.path.join(out_dir, f"w{k}.server.log"), extra, warmup=warmup,
                                                log=_log, probes=[QuotaProbe(quotas), RelayCounter()],
                                                server_pids=sessions_run)
        except (StepError, OSError) as exc:
            failed[k] = f"repetition {rep}: {exc}"
            _log(f"bench-scaleout failed: {k} worker(s), repetition {rep}: {exc}\n(its remaining repetitions are skipped)")
            continue
        eta.observe(f"w{k}", time.monotonic() - started, repetition=rep)
        for w in warnings:
            _log(f"warning: {k} worker(s) repetition {rep}: {w}")
        done[k].append((out_path, record, warnings))

    docs, files = {}, {}
    for k in plan.workers:
        if k in failed or not done[k]:
            continue
        docs[k] = merged = merge_scaleout(plan, k, done[k], controller)
        files[str(k)] = path = result_file_path(out_dir, merged, when, runtime_tag=variant.runtime_tag)
        write_result(path, merged)
        _log(summarize_server(merged, f"{variant.name}, {k} worker(s)"))
        print(path, flush=True)
    if not failed:
        shutil.rmtree(scratch, ignore_errors=True)
    else:
        _log(f"raw results of every finished repetition are kept in {scratch}")
    if not docs:
        raise StepError("bench-scaleout", f"every worker count failed: {'; '.join(f'{k}: {w}' for k, w in failed.items())}")
    settings = {"server": variant.name, "core_share": plan.share, "period_us": plan.period_us,
                "quota_us": quota_us(plan.share, plan.period_us), "cgroup_version": controller.version,
                "profile": config.profile, "repeat": config.repeat, "command": shlex.join(["python3", os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)] + sys.argv[1:]),
                "files": {k: os.path.relpath(p, ROOT) for k, p in files.items()}}
    summary = summarize(docs, settings)
    md_path, json_path = os.path.join(plan.out_base, f"{stamp}.summary.md"), os.path.join(plan.out_base, f"{stamp}.summary.json")
    with open(md_path, "w", encoding="utf-8") as f:
        f.write(to_markdown(summary))
    with open(json_path, "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    _log("\n" + to_markdown(summary))
    _log(f"[done] wall time {format_duration(time.monotonic() - t0)}; summary: {md_path} and {json_path}")
    if failed:
        raise StepError("bench-scaleout", f"{len(failed)} of {len(plan.workers)} worker counts failed: "
                        + "; ".join(f"{k}: {w}" for k, w in failed.items()))
    return [md_path, json_path]


def merge_scaleout(plan, k, done, controller):
    """One merged result document of the repetitions with k workers, with the quota recorded."""
    docs = []
    for path, _, warnings in done:
        doc = load_result(path)
        doc["warnings"] = list(doc["warnings"]) + list(warnings)
        docs.append(doc)
    merged = merge_repetitions(docs, [record for _, record, _ in done])
    config = plan.config_for(k)
    record_scaleout(merged, config, per_point_sums=session_groups.applies(config))
    record_entry(merged, plan.variant)
    quota = quota_us(plan.share, plan.period_us)
    merged["server"]["cpu_quota"] = {"core_share": plan.share, "period_us": plan.period_us, "quota_us": quota,
                                     "cgroup_version": controller.version, "cgroup_root": controller.root,
                                     "workers_total_quota_us": k * quota}
    merged["label"] += f" · {plan.share:g} core each (cgroup quota)"
    merged["warnings"].append(
        f"simulated cores: each of the {k} worker(s) ran under a cgroup CPU quota of {quota} us per {plan.period_us} us "
        f"({plan.share:g} of a core) on CPU {format_cpu_list(config.server_cpus)}; cache, memory bandwidth and the "
        "kernel are shared, and a throttled worker waits for the next period (docs/scaleout-simulation.md)")
    return merged


def main(argv=None):
    plan = parse_args(sys.argv[1:] if argv is None else argv)
    if plan.check_only:
        return 0
    try:
        controller = detect()
    except CgroupUnavailable as exc:
        print(f"bench-scaleout: {exc}", file=sys.stderr)
        return 1
    return run_as_command("bench-scaleout", lambda: run(plan, controller, usage_error=build_parser().error),
                          interrupted="server stopped, cgroups removed")


if __name__ == "__main__":
    sys.exit(main())
