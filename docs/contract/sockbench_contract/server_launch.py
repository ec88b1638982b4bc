"""Start a contract server pinned to CPUs, wait for its READY line, stop it.

The server's stdout carries exactly one line, `READY <url> key=value ...`
(docs/protocol.md); its stderr goes to a log file so a failure can be shown.
`taskset` execs the server, so the Popen pid *is* the server's pid, which the
client samples from /proc (never from inside the server).
"""

import os
import selectors
import signal
import subprocess
import time

from sockbench_contract.ready_line import parse_ready_line


class StepError(RuntimeError):
    """A bench step failed; the message names the step and says why."""

    def __init__(self, step, why):
        super().__init__(f"[{step}] {why}")
        self.step = step


class ServerProcess:
    """One running server. Use as a context manager so it is always stopped."""

    def __init__(self, argv, cpus, log_path, ready_timeout_s=30.0):
        self.argv = ["taskset", "-c", ",".join(map(str, cpus))] + list(argv) if cpus else list(argv)
        self.log_path = log_path
        self.ready_timeout_s = ready_timeout_s
        self.proc = None
        self.ready_line = None
        self.url = None
        self.fields = {}
        self._stopped = False

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop(raise_on_error=exc[0] is None)
        return False

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def start(self):
        self._log = open(self.log_path, "wb")
        try:
            self.proc = subprocess.Popen(self.argv, stdout=subprocess.PIPE, stderr=self._log,
                                         stdin=subprocess.DEVNULL)
        except OSError as exc:
            raise StepError("start server", f"cannot run {self.argv[0]}: {exc}") from exc
        try:
            self._wait_ready()
        except BaseException:
            # __exit__ does not run when __enter__ raises: stop it here so a
            # failed start never leaves a server behind.
            self.stop(grace_s=2, raise_on_error=False)
            raise

    def _wait_ready(self):
        deadline = time.monotonic() + self.ready_timeout_s
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        buf = b""
        try:
            while b"\n" not in buf:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise StepError("wait for READY", f"no READY line within {self.ready_timeout_s:g} s"
                                    f" from: {' '.join(self.argv)}{self.log_tail()}")
                if not sel.select(timeout=min(left, 0.5)):
                    if self.proc.poll() is not None:
                        break
                    continue
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    break
                buf += chunk
        finally:
            sel.close()
        if b"\n" not in buf:
            code = self.proc.wait(timeout=5)
            raise StepError("wait for READY", f"server exited with status {code} before READY"
                            f" ({' '.join(self.argv)}){self.log_tail()}")
        line = buf.split(b"\n", 1)[0].decode("utf-8", "replace")
        try:
            self.url, self.fields = parse_ready_line(line)
        except ValueError as exc:
            raise StepError("wait for READY", str(exc)) from exc
        self.ready_line = line

    def stop(self, grace_s=5.0, raise_on_error=True):
        """SIGTERM, wait for exit; the contract says exit 0 within 2 s.

        A server that does not exit is killed so it never outlives the run; a
        non-zero exit or a kill is reported as a failure of the "stop server" step.
        """
        if not self.proc or self._stopped:
            return
        self._stopped = True
        problem = None
        if self.proc.poll() is None:
            started = time.monotonic()
            self.proc.send_signal(signal.SIGTERM)
            try:
                code = self.proc.wait(timeout=grace_s)
                took = time.monotonic() - started
                if code != 0:
                    problem = f"server exited with status {code} after SIGTERM"
                elif took > 2.0:
                    problem = f"server took {took:.1f} s to exit after SIGTERM (contract: 2 s)"
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                problem = f"server did not exit within {grace_s:g} s of SIGTERM; killed"
        else:
            problem = f"server had already exited with status {self.proc.returncode} (crashed during the run?)"
        self.proc.stdout.close()
        self._log.close()
        if problem and raise_on_error:
            raise StepError("stop server", problem + self.log_tail())

    def log_tail(self, lines=15):
        try:
            with open(self.log_path, "rb") as f:
                tail = f.read().decode("utf-8", "replace").splitlines()[-lines:]
        except OSError:
            return ""
        return ("\n--- server stderr (" + self.log_path + ") ---\n" + "\n".join(tail)) if tail else ""
