"""Open files for ``--sessions N``: every websocket session holds one socket,
so a process expected to hold N sessions needs N descriptors and some to
spare, and the soft RLIMIT_NOFILE (often 1024) is the first wall it hits.

At start the server raises its soft limit as far as it may (:func:`raise_limit`,
also what the measurement tools use to hold many client sockets), then
refuses with one line when the share of one serving process still does not
fit (:func:`refusal`), before it listens: a run that would fail at connect
time with "Too many open files" fails at once and says what to change.
"""
from __future__ import annotations

from typing import Optional

try:
    import resource
except ImportError:  # not on Windows: there is no limit to raise or check
    resource = None  # type: ignore[assignment]

#: Descriptors a serving process needs besides its sessions' sockets: the
#: listening socket, the event loop's epoll and self-pipe, stdio, the Redis
#: connections, log and status files, a connection being accepted.
SPARE = 64
#: Range of ``--sessions`` (sessions of the whole process group).
MIN_EXPECTED_SESSIONS, MAX_EXPECTED_SESSIONS = 1, 10_000_000
#: Most workers a refusal suggests (scaleout.settings.MAX_WORKERS, repeated
#: here so that this module imports nothing heavier).
SUGGESTED_WORKERS_MAX = 64


def share(sessions: int, workers: int) -> int:
    """Sessions one of ``workers`` serving processes holds: ceil(sessions / workers)."""
    return -(-sessions // workers)


def files_needed(sessions: int, workers: int) -> int:
    """Open files one serving process needs for its share of ``sessions``."""
    return share(sessions, workers) + SPARE


def workers_that_fit(sessions: int, limit: int) -> Optional[int]:
    """The fewest workers whose share of ``sessions`` fits ``limit`` open
    files each; None when none up to :data:`SUGGESTED_WORKERS_MAX` does."""
    room = limit - SPARE
    if room <= 0:
        return None
    workers = share(sessions, room)  # smallest w with ceil(sessions / w) <= room
    return workers if workers <= SUGGESTED_WORKERS_MAX else None


def soft_limit() -> Optional[int]:
    """This process's soft RLIMIT_NOFILE; None when the platform has none
    (or it is unlimited)."""
    if resource is None:
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def raise_limit(want: Optional[int] = None) -> Optional[int]:
    """Raise the soft RLIMIT_NOFILE to the hard limit, and beyond it to
    ``want`` when the process may (root raises the hard limit too). Never
    lowers it. Returns the soft limit now (None: the platform has none)."""
    if resource is None:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return None
    target = soft if hard == resource.RLIM_INFINITY else max(soft, hard)
    if want is not None and want > target:
        try:  # above the hard limit: only a privileged process may
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, max(want, target)))
            return want
        except (ValueError, OSError):
            pass
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):  # a hard limit above the kernel's nr_open
            return soft
    return target


def refusal(program: str, sessions: int, workers: int, limit: int) -> Optional[str]:
    """The one line a server prints instead of starting when one serving
    process's share of ``sessions`` does not fit ``limit`` open files; None
    when it fits."""
    needed = files_needed(sessions, workers)
    if needed <= limit:
        return None
    fit = workers_that_fit(sessions, limit)
    advice = "use --workers %d or raise ulimit -n" % fit if fit else "raise ulimit -n"
    return ("%s: %d sessions need %d open files per process but the limit is %d (ulimit -n); %s"
            % (program, sessions, needed, limit, advice))
