"""What the command line says about scale-out, in one value the server, the
supervisor of the workers and the READY line all read."""
from __future__ import annotations

import os
from typing import NamedTuple, Optional

from .broker_url import BrokerAddress

#: Most worker processes ``--workers`` accepts (as server-node).
MAX_WORKERS = 64
#: Set by the supervisor in each worker's environment: ``<index>/<workers>``,
#: index 1..workers, or ``standby/<workers>`` for the standby worker (a
#: worker started ahead of need, which waits for the supervisor's ``go
#: <index>`` before it listens: workers.py). Its presence is what makes a
#: process a worker.
WORKER_ENV = "SOCKBENCH_WORKER"
STANDBY = "standby"


class ScaleOut(NamedTuple):
    #: Worker processes serving sessions on the one port (1-64).
    workers: int = 1
    #: The Redis joining the processes into one broadcast domain, or None.
    broker: Optional[BrokerAddress] = None
    #: 1..workers in a worker process, which binds with SO_REUSEPORT and
    #: reports READY to the supervisor; 0 in a process that serves alone.
    worker_index: int = 0
    #: The standby worker, before the supervisor gives it an index
    #: (worker_index is 0 until then).
    standby: bool = False

    @property
    def is_worker(self) -> bool:
        return self.worker_index > 0 or self.standby

    @property
    def tag(self) -> str:
        """Prefix of this process's log lines: which worker said it."""
        if not self.is_worker:
            return ""
        index = STANDBY if self.standby else str(self.worker_index)
        return "worker %s/%d pid %d: " % (index, self.workers, os.getpid())

    @property
    def log_format(self) -> str:
        """The logging format of this process (its lines carry ``tag``)."""
        return "%(asctime)s %(levelname)s " + self.tag.replace("%", "%%") + "%(name)s: %(message)s"


def worker_from_environment() -> Optional[tuple]:
    """(index, workers) when the supervisor started this process (index 0:
    the standby worker), else None; ValueError for a malformed value
    (someone set the variable by hand)."""
    value = os.environ.get(WORKER_ENV)
    if value is None:
        return None
    index_text, sep, workers_text = value.partition("/")
    try:
        index = 0 if index_text == STANDBY else int(index_text)
        workers = int(workers_text)
    except ValueError:
        index = workers = -1
    in_range = 1 <= index <= workers if index_text != STANDBY else 1 <= workers
    if not sep or not in_range or workers > MAX_WORKERS:
        raise ValueError("%s=%r: expected <index>/<workers> or %s/<workers>, "
                         "1 <= index <= workers <= %d"
                         % (WORKER_ENV, value, STANDBY, MAX_WORKERS))
    return index, workers
