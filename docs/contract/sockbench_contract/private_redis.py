"""A private redis-server: started on a free loopback port, checked to be
ours, stopped afterwards; for the bench, `make serve-*` and the servers' tests.

Why private and per repetition: a repetition starts from a fresh server
process, and the broker is part of the server under test, so it is fresh
too (no subscribers or buffers left from the previous run), and no result
depends on a Redis the user happens to run. Debian's redis-server
(`make setup-redis`), no persistence, its files in a temporary directory,
bound to 127.0.0.1 only. The runner uses PrivateRedis (it needs the
redis-server's pid, sampled from /proc like the server's and reported apart
from it, and its own pinning); `make serve-* WORKERS=N` runs this file as a
wrapper (see main() below), so both start Redis the same way; the servers'
scale-out tests also crash, freeze, thaw and restart it (a broker failing).

"Ours" is checked by the process id Redis reports in INFO, so another Redis
already on the chosen port is never mistaken for the private one.
"""

import os
import random
import signal
import shutil
import socket
import subprocess
import sys
import tempfile
import time

if not __package__:
    # Run as a script by the make rules (`python3 .../private_redis.py SERVER-COMMAND...`): make the package importable.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sockbench_contract.server_launch import StepError  # noqa: E402

PORT_RANGE = (20000, 60000)   # dynamic-ish range, away from 6379 and the servers' 8080
PORT_TRIES = 20
START_TIMEOUT_S = 5.0         # per port tried
STOP_TIMEOUT_S = 2.0


def redis_info(port, timeout_s=0.5, section="server"):
    """{key: value} of `INFO <section>` (e.g. "commandstats": the bench counts relay PUBLISHes) from a
    Redis on 127.0.0.1:port; OSError/ValueError if none answers."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as s:
        name = section.encode("ascii")
        s.sendall(b"*2\r\n$4\r\nINFO\r\n$%d\r\n%s\r\n" % (len(name), name))
        buf = b""
        deadline = time.monotonic() + timeout_s
        while True:  # one RESP bulk string: $<len>\r\n<body>\r\n
            if b"\r\n" in buf:
                head, _, body = buf.partition(b"\r\n")
                if not head.startswith(b"$"):
                    raise ValueError(f"unexpected INFO reply {head[:60]!r}")
                if len(body) >= int(head[1:]):
                    break
            if time.monotonic() > deadline:
                raise ValueError("INFO reply incomplete")
            chunk = s.recv(65536)
            if not chunk:
                raise ValueError("connection closed during INFO")
            buf += chunk
    info = {}
    for line in body[:int(head[1:])].decode("utf-8", "replace").splitlines():
        key, sep, value = line.partition(":")
        if sep and not key.startswith("#"):
            info[key] = value
    return info


class PrivateRedis:
    """One redis-server on 127.0.0.1:<free port>; a context manager.

    cpus: CPU list to pin it to (taskset), or None to leave it unpinned.
    After start: .port, .pid, .url (redis://127.0.0.1:PORT/0), .version.
    """

    def __init__(self, cpus=None, executable="redis-server"):
        self.cpus = list(cpus) if cpus else None
        self.executable = executable
        self.proc = self.port = self.url = self.version = None
        self._exe = self._dir = None

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    def start(self):
        """Start on a free loopback port; returns self. StepError if redis-server is missing or never answers."""
        self._exe = shutil.which(self.executable)
        if self._exe is None:
            raise StepError("start broker", f"{self.executable} not found: run `make setup-redis` "
                            "(Debian package redis-server)")
        self._dir = tempfile.mkdtemp(prefix="sockbench-redis.")
        try:
            for port in random.sample(range(*PORT_RANGE), PORT_TRIES):
                if self._spawn(port):  # else: port taken (it exited) or never answered: try another
                    return self
        except BaseException:
            self.stop()
            raise
        tail = self._log_tail()
        self.stop()
        raise StepError("start broker", f"could not start redis-server on a free loopback port after "
                        f"{PORT_TRIES} tries (last log line: {tail})")

    def restart(self):
        """Start it again on the same port (after crash()): clients reconnect to the URL they had."""
        if not self._spawn(self.port):
            raise StepError("restart broker", f"redis-server did not come back on port {self.port} "
                            f"(last log line: {self._log_tail()})")

    def _spawn(self, port):
        """Run redis-server on `port`; True once it answers as ours, else False and it is gone."""
        argv = [self._exe, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
                "--daemonize", "no", "--dir", self._dir, "--logfile", os.path.join(self._dir, "redis.log")]
        if self.cpus:
            argv = ["taskset", "-c", ",".join(map(str, self.cpus))] + argv  # taskset execs: same pid
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        info = self._wait_ours(port)
        if info is None:
            self._kill()
            return False
        self.port, self.version = port, info.get("redis_version", "unknown")
        self.url = f"redis://127.0.0.1:{port}/0"
        return True

    def _log_tail(self):
        try:
            with open(os.path.join(self._dir, "redis.log"), encoding="utf-8", errors="replace") as f:
                return f.read().strip().splitlines()[-1:]
        except OSError:
            return []

    def _wait_ours(self, port):
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return None
            try:
                info = redis_info(port)
            except (OSError, ValueError):
                time.sleep(0.05)
                continue
            return info if info.get("process_id") == str(self.proc.pid) else None
        return None

    def _kill(self):
        self.crash()
        self.proc = None

    def crash(self):
        """SIGKILL, as a crash: no goodbye to its clients. restart() brings it back."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def freeze(self):
        """SIGSTOP: it stays connected but answers nothing (a stalled broker)."""
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self):
        """SIGCONT after freeze(): it answers what it was sent meanwhile."""
        self.proc.send_signal(signal.SIGCONT)

    def stop(self):
        """SIGTERM (no persistence: it exits in milliseconds), SIGKILL after STOP_TIMEOUT_S; remove its files."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None


USAGE = "usage: private_redis.py SERVER-COMMAND [ARGS...]"


def main(argv):
    """Run SERVER-COMMAND ARGS --broker redis://127.0.0.1:PORT/0 beside a private
    redis-server; forward SIGTERM/SIGINT to the server (as SIGTERM, the
    contract's stop signal); stop Redis once the server has exited; exit with
    the server's status. stdout stays the server's (its READY line)."""
    if not argv or argv[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        with PrivateRedis() as redis:
            print(f"private_redis.py: private redis-server pid {redis.pid} on 127.0.0.1:{redis.port}",
                  file=sys.stderr)
            server = subprocess.Popen(list(argv) + ["--broker", redis.url])
            forward = lambda _sig, _frame: server.send_signal(signal.SIGTERM)  # noqa: E731
            signal.signal(signal.SIGTERM, forward)
            signal.signal(signal.SIGINT, forward)
            return server.wait()
    except StepError as exc:
        print(f"private_redis.py: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
