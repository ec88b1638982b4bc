"""A real, private redis-server (Debian's, installed by `make setup-redis`)
on a free loopback port, for the scale-out tests: started, crashed (SIGKILL),
frozen (SIGSTOP) and thawed, restarted on the same port, always stopped."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

START_TIMEOUT_S = 5.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ping(port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    def __init__(self) -> None:
        if shutil.which("redis-server") is None:
            raise RuntimeError("redis-server not found: run `make setup-redis` "
                               "(Debian package redis-server)")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="sockbench-redis-test-")
        self.proc: "subprocess.Popen[bytes] | None" = None
        self.run()

    @property
    def url(self) -> str:
        return "redis://127.0.0.1:%d/0" % self.port

    def run(self) -> None:
        """Start (or restart) on self.port; returns once it answers PING."""
        self.proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", self.dir,
             "--logfile", os.path.join(self.dir, "redis.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            if ping(self.port):
                return
            time.sleep(0.05)
        self.crash()
        raise RuntimeError("redis-server on port %d did not answer PING within %.0f s"
                           % (self.port, START_TIMEOUT_S))

    def crash(self) -> None:
        """SIGKILL, as a crash: no goodbye to its clients."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def freeze(self) -> None:
        """SIGSTOP: Redis stays connected but answers nothing (a stalled broker)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        """SIGCONT after freeze(): Redis answers what it was sent meanwhile."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        self.crash()
        shutil.rmtree(self.dir, ignore_errors=True)
