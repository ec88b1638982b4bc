"""What the command line says about scale-out, in one value the server, the
supervisor of the workers and the READY line all read."""
from __future__ import annotations

import os
from typing import NamedTuple, Optional

from .broker_url import BrokerAddress

#: Most worker processes ``--workers`` accepts (as server-node).
MAX_WORKERS = 64
#: Set by the supervisor in each worker's environment: ``<index>/<workers>``,
#: index 1..workers. Its presence is what makes a process a worker.
WORKER_ENV = "SOCKBENCH_WORKER"


class ScaleOut(NamedTuple):
    #: Worker processes serving sessions on the one port (1-64).
    workers: int = 1
    #: The Redis joining the processes into one broadcast domain, or None.
    broker: Optional[BrokerAddress] = None
    #: 1..workers in a worker process, which binds with SO_REUSEPORT and
    #: reports READY to the supervisor; 0 in a process that serves alone.
    worker_index: int = 0

    @property
    def is_worker(self) -> bool:
        return self.worker_index > 0

    @property
    def tag(self) -> str:
        """Prefix of this process's log lines: which worker said it."""
        if not self.is_worker:
            return ""
        return "worker %d/%d pid %d: " % (self.worker_index, self.workers, os.getpid())


def worker_from_environment() -> Optional[tuple]:
    """(index, workers) when the supervisor started this process, else None;
    ValueError for a malformed value (someone set the variable by hand)."""
    value = os.environ.get(WORKER_ENV)
    if value is None:
        return None
    index_text, sep, workers_text = value.partition("/")
    index, workers = int(index_text), int(workers_text)
    if not sep or not 1 <= index <= workers <= MAX_WORKERS:
        raise ValueError("%s=%r: expected <index>/<workers>, 1 <= index <= workers <= %d"
                         % (WORKER_ENV, value, MAX_WORKERS))
    return index, workers
