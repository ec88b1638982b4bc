"""Start a sockbench server process the way docs/protocol.md describes and
read its READY line. Server-agnostic: the command comes from
``SOCKBENCH_SERVER_CMD`` (default: this interpreter running
``-m sockbench_server``); ``--port 0`` is always appended."""
from __future__ import annotations

import os
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence

from sockbench_contract.ready_line import KEY_RE, parse_ready_line

READY_TIMEOUT = float(os.environ.get("SOCKBENCH_READY_TIMEOUT", "20"))


class ServerStartError(Exception):
    pass


def server_command() -> List[str]:
    cmd = os.environ.get("SOCKBENCH_SERVER_CMD")
    if cmd:
        return shlex.split(cmd)
    return [sys.executable, "-m", "sockbench_server"]


#: (base url, {key: value}) of a READY line; ValueError if it breaks docs/protocol.md §2.
parse_ready = parse_ready_line


class ServerProcess:
    """One server process; ``url`` and ``fields`` come from its READY line."""

    def __init__(self, extra_args: Sequence[str] = (), env: Optional[Dict[str, str]] = None,
                 command: Optional[Sequence[str]] = None):
        base = list(command) if command is not None else server_command()
        self.argv = base + list(extra_args) + ["--port", "0"]
        self.stderr_file = tempfile.TemporaryFile()
        self.start_time = time.monotonic()
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=self.stderr_file,
                                     env=env)
        self.ready_line = self._read_line(READY_TIMEOUT)
        try:
            self.url, self.fields = parse_ready(self.ready_line)
        except ValueError as e:
            self.kill()
            raise ServerStartError("%s: %s\nstderr:\n%s" % (self.argv, e, self.stderr_text()))

    def _read_line(self, timeout: float) -> str:
        fd = self.proc.stdout.fileno()  # type: ignore[union-attr]
        data = b""
        deadline = time.monotonic() + timeout
        while b"\n" not in data:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise ServerStartError(
                    "no READY line within %.0fs from %s\nstdout so far: %r\nstderr:\n%s"
                    % (timeout, " ".join(self.argv), data, self.stderr_text()))
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 4096)
                if not chunk:
                    self.proc.wait(5)
                    raise ServerStartError(
                        "server exited (status %s) before READY: %s\nstderr:\n%s"
                        % (self.proc.returncode, " ".join(self.argv), self.stderr_text()))
                data += chunk
        line, _, rest = data.partition(b"\n")
        self.extra_stdout = rest
        return line.decode("utf-8")

    @property
    def is_ours(self) -> bool:
        return self.fields.get("server") == "sockbench-tornado"

    def stderr_text(self) -> str:
        self.stderr_file.seek(0)
        return self.stderr_file.read().decode("utf-8", "replace")

    def send_signal(self, sig: int = signal.SIGTERM) -> None:
        self.proc.send_signal(sig)

    def wait(self, timeout: float) -> Optional[int]:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def rest_of_stdout(self) -> bytes:
        """Everything the process wrote to stdout after the READY line
        (call after it exited)."""
        return self.extra_stdout + self.proc.stdout.read()  # type: ignore[union-attr]

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 5.0) -> Optional[int]:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            if self.wait(timeout) is None:
                self.kill()
        return self.proc.returncode

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
