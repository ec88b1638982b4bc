"""The sessions profile in the runner: its checks before anything starts, and one repetition run as
level groups (bench/sessions.py decides the groups; docs/sessions.md explains why).

Each group of levels is its own server start with the group's workers (a private
broker when more than one, as WORKERS=N does), warm-up, and client run with the
group's agents (bench/client_fleet.py), `--levels` the group's levels and
`--server-pids` every serving process (the idle record sums them). A server with
the `sessions` knob also gets `--sessions` = the group's largest level, so it
refuses at start when its open-files limit cannot hold it. The groups' documents
and host records become the repetition's one document and record
(bench/group_merge.py), written where the runner expects the repetition's result.
"""

import dataclasses
import os
import shutil

from group_merge import merge_group_docs, merge_group_records
from measure import measure_once
from results_io import load_result, write_result
from scaleout import wants_private_broker
from sessions import SESSIONS_PROFILE, group_levels, single_process_refusal, too_few_processes
from sessions_text import processes_text
from sockbench_contract.server_launch import StepError

#: Client flags whose value is a per-level list `N:VALUE,...`: a group's client run gets its own levels' items.
PER_LEVEL_FLAGS = ("--level-start-rates", "--client-ceilings")


def applies(config):
    """Whether the run `config` (run_config.RunConfig) is a sessions-profile run the runner groups."""
    return config.profile == SESSIONS_PROFILE


def plan(config, levels):
    """The LevelGroups of a sessions run over `levels`, honouring an explicit WORKERS= / AGENTS=."""
    return group_levels(levels, workers=config.workers if config.workers_given else None,
                        agents=config.agents if config.agents_given else None)


def refusals(config, variants, levels):
    """Every reason the sessions run cannot hold its levels, one line each ([] = it can): an explicit
    WORKERS=/AGENTS= too small for the largest level, a server that cannot run workers (a peer, the
    limit server, a server you run yourself) given a level above one process's share."""
    out = []
    too_few = too_few_processes(levels, workers=config.workers if config.workers_given else None,
                                agents=config.agents if config.agents_given else None)
    if too_few:
        out.append(too_few)
    for v in variants:
        why = single_process_refusal(v, levels, byo=config.byo_server)
        if why:
            out.append(why)
    return out


def plan_line(groups, config):
    """The `[plan]` line that says what the runner chose per group."""
    parts = []
    for g in groups:
        broker = ""
        if wants_private_broker(g.workers, config.broker):
            broker = " (private broker)"
        elif g.workers > 1:
            broker = f" (broker {config.broker})"
        parts.append(f"{','.join(map(str, g.levels))} on {processes_text(g.workers, g.agents)}{broker}")
    return "[plan] sessions profile, one server start and client run per group: " + "; ".join(parts)


def needs_redis(groups, config):
    """Whether some group starts a private redis-server (a broker for its workers, or its agents' bus)."""
    return any(wants_private_broker(g.workers, config.broker) or (g.agents > 1 and config.bus is None)
               for g in groups)


def group_config(config, group, variant):
    """The RunConfig of one group's server start and client run."""
    return dataclasses.replace(config, workers=group.workers, agents=group.agents, levels=tuple(group.levels),
                               sessions=group.largest if getattr(variant, "has_sessions", False) else None)


def args_for_levels(args, levels):
    """`args` with every PER_LEVEL_FLAGS value cut to `levels`' items (the flag dropped when none is left):
    a group's client run sweeps only its own levels."""
    out, i, wanted = [], 0, set(levels)
    args = list(args)
    while i < len(args):
        if args[i] in PER_LEVEL_FLAGS and i + 1 < len(args):
            items = [item for item in args[i + 1].split(",") if int(item.split(":", 1)[0]) in wanted]
            if items:
                out += [args[i], ",".join(items)]
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def measure_groups(groups, config, variant, out_path, log_path, extra_client_args=(), warmup=None, log=print,
                   measure=measure_once):
    """One repetition of `variant` as `groups` (measure.measure_once's signature after `groups`); writes
    the merged document to out_path and returns (merged host record, host warnings)."""
    docs, records, warnings = [], [], []
    scratch = out_path[:-len(".json")] if out_path.endswith(".json") else out_path
    for i, group in enumerate(groups, start=1):
        path = f"{scratch}-group{i}.json"
        log(f"[sessions] group {i}/{len(groups)}: levels {','.join(map(str, group.levels))} on "
            f"{processes_text(group.workers, group.agents)}")
        # Each group's server start keeps its own log (the first keeps the usual name).
        group_log = log_path if i == 1 else log_path.replace(".server.log", f".group{i}.server.log")
        record, group_warnings = measure(group_config(config, group, variant), variant, path, group_log,
                                         args_for_levels(extra_client_args, group.levels), warmup=warmup, log=log,
                                         server_pids=True)
        docs.append(load_result(path))
        records.append(record)
        prefix = f"levels {','.join(map(str, group.levels))}: " if len(groups) > 1 else ""
        warnings += [prefix + w for w in group_warnings]
    try:
        merged = merge_group_docs(groups, docs)
        record = merge_group_records(groups, records)
    except ValueError as exc:
        raise StepError("merge groups", str(exc)) from exc
    write_result(out_path, merged)
    # The group files stay beside the merged one only until it is written: it holds all they said.
    for i in range(1, len(groups) + 1):
        path = f"{scratch}-group{i}.json"
        if os.path.exists(path):
            os.remove(path)
    return record, warnings


def check_redis(groups, config):
    """StepError naming the fix when a group needs a private redis-server and there is none."""
    if needs_redis(groups, config) and not shutil.which("redis-server"):
        raise StepError("setup", "redis-server is missing (levels above the sessions per process need a private "
                        "broker and a client bus): run `make setup-redis`")
