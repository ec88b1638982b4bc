"""Which server the suite starts, and how: ``SOCKBENCH_SERVER_CMD`` (default:
this interpreter running ``-m sockbench_server``) plus the case's flags and
``--port 0``, through the one launcher (sockbench_contract.server_launch)
that the bench uses too, so both read the READY line the same way."""
from __future__ import annotations

import os
import shlex
import sys
from typing import Dict, List, Optional, Sequence

from sockbench_contract import server_launch

READY_TIMEOUT = float(os.environ.get("SOCKBENCH_READY_TIMEOUT", "20"))


def server_command() -> List[str]:
    cmd = os.environ.get("SOCKBENCH_SERVER_CMD")
    if cmd:
        return shlex.split(cmd)
    return [sys.executable, "-m", "sockbench_server"]


class ServerProcess(server_launch.ServerProcess):
    """One server process, started at once; ``url`` and ``fields`` come from its READY line."""

    def __init__(self, extra_args: Sequence[str] = (), env: Optional[Dict[str, str]] = None,
                 command: Optional[Sequence[str]] = None):
        base = list(command) if command is not None else server_command()
        super().__init__(base + list(extra_args) + ["--port", "0"], ready_timeout_s=READY_TIMEOUT, env=env)
        self.start()

    def stop(self, grace_s: float = 5.0, raise_on_error: bool = False) -> Optional[int]:
        """The exit status; never raises by default: the cases check the status themselves."""
        return super().stop(grace_s, raise_on_error)
