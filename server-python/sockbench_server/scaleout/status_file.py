"""``--status-file PATH`` (docs/protocol.md section 6.2): which worker pids
accept connections right now, for tools that need more than the READY line
(which names the first workers only, and is printed once)."""
from __future__ import annotations

import json
import os
import tempfile
from typing import Sequence


def write_status(path: str, supervisor_pid: int, worker_pids: Sequence[int], restarts: int) -> None:
    """Replace ``path`` atomically: a reader sees the old content or the new
    one, never a part (a temporary file in the same directory, renamed over
    it). Raises OSError."""
    text = json.dumps({"supervisor_pid": supervisor_pid, "worker_pids": list(worker_pids),
                       "restarts": restarts}) + "\n"
    directory = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=".status-", dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def remove_status(path: str) -> None:
    """The server is exiting: no pid in the file is serving any more."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
