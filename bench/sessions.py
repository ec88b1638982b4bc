"""The sessions profile's plan: how many server workers and client agents each level needs, and which
runs cannot hold their levels at all (docs/sessions.md).

A process may hold at most 20,000 open files on this machine (`ulimit -Hn`), and
every websocket session costs one on each side. So one process holds at most
SESSIONS_PER_PROCESS sessions, the rest of its files being left for its listening
socket, logs, the JVM's jars and a broker or bus connection. A level of N
sessions then needs k = ceil(N / SESSIONS_PER_PROCESS) server workers and as many
client agents. Consecutive levels with the same needs form a group, and each
group is its own server start and client run (bench/session_groups.py); the
groups' documents are merged into one result (bench/group_merge.py).

Everything here is decided before anything starts: a run that cannot hold its
largest level is refused with one line saying why and what would work.

Pure arithmetic plus one getrlimit call; no I/O beyond that.
"""

import dataclasses
import math
import resource
from typing import Tuple

#: Sessions one process (a server worker, a client agent) is given: the open-files limit here is
#: 20,000 per process, and 1,000 files stay free for everything that is not a session.
SESSIONS_PER_PROCESS = 19000

#: The client profile this plan applies to (client-java Profile.java, `--list-profiles`).
SESSIONS_PROFILE = "sessions"


@dataclasses.dataclass(frozen=True)
class LevelGroup:
    """Consecutive levels run on one server start (`workers` processes) and one client run (`agents`)."""

    levels: Tuple[int, ...]
    workers: int
    agents: int

    @property
    def largest(self):
        return max(self.levels)


def processes_for(sessions):
    """Processes needed to hold `sessions` sessions at SESSIONS_PER_PROCESS each (at least 1)."""
    return max(1, math.ceil(sessions / SESSIONS_PER_PROCESS))


def open_files_limit():
    """This process's hard RLIMIT_NOFILE (what `ulimit -Hn` says; a child may raise its soft limit to
    it), or None when unlimited."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if hard == resource.RLIM_INFINITY else hard


def group_levels(levels, workers=None, agents=None):
    """[LevelGroup, ...] for `levels` in the order given: each level's workers and agents are the
    given count (an explicit WORKERS= / AGENTS=) or processes_for(level); consecutive levels with
    the same pair share a group. Levels are never reordered: the client sweeps them in the order
    given and the merged result keeps it."""
    groups = []
    for n in levels:
        need = (workers or processes_for(n), agents or processes_for(n))
        if groups and (groups[-1].workers, groups[-1].agents) == need:
            groups[-1] = dataclasses.replace(groups[-1], levels=groups[-1].levels + (n,))
        else:
            groups.append(LevelGroup(levels=(n,), workers=need[0], agents=need[1]))
    return groups


def too_few_processes(levels, workers=None, agents=None, limit=None):
    """The one-line refusal when an explicit WORKERS= or AGENTS= cannot hold the largest level, else None.
    limit: the open-files limit to name (default: open_files_limit())."""
    largest = max(levels)
    need = processes_for(largest)
    short = [(name, given) for name, given in (("WORKERS", workers), ("AGENTS", agents))
             if given is not None and given < need]
    if not short:
        return None
    limit = open_files_limit() if limit is None else limit
    limit_text = f"{limit:,}" if limit else "unlimited"
    given = " and ".join(f"{name}={n}" for name, n in short)
    fix = " ".join(f"{name}={need}" for name, _ in short)
    return (f"level {largest:,} needs {need} processes on each side ({SESSIONS_PER_PROCESS:,} sessions per process: "
            f"the open-files limit is {limit_text} per process, ulimit -n) but {given} was given; "
            f"use {fix} or more, or leave them out so the runner picks per level")


def single_process_refusal(variant, levels, byo=False):
    """The one-line refusal when `variant` cannot run workers but a level needs more than one process,
    else None. byo: a server the user runs (make bench-url): the runner cannot start it with workers."""
    largest = max(levels)
    if largest <= SESSIONS_PER_PROCESS:
        return None
    if byo:
        why = "it is a server you run yourself (make bench-url): the runner cannot start it with workers"
    elif getattr(variant, "peer", False):
        why = "it is a peer, run as the original library serves: one process, no workers"
    elif not getattr(variant, "has_scaleout", False):
        why = "it has no --workers (one process only)"
    else:
        return None
    return (f"{variant.name}: level {largest:,} needs {processes_for(largest)} server processes "
            f"({SESSIONS_PER_PROCESS:,} sessions per process) but {why}; run it with LEVELS= up to "
            f"{SESSIONS_PER_PROCESS:,}")
