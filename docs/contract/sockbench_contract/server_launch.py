"""Start a contract server, wait for its READY line, stop it: the one launcher.

The server's stdout carries exactly one line, `READY <url> key=value ...`
(docs/protocol.md §2), parsed by ready_line.py; its stderr goes to a log file
(or a temporary file) so a failure can be shown. With `cpus`, `taskset` execs
the server, so the Popen pid *is* the server's pid, which the bench samples
from /proc (never from inside the server).

The bench measures through it (a failure is a StepError naming the bench
step), and the conformance suite and the servers' own tests start every
server through it (docs/contract/conformance/serverproc.py says which command).
"""

import os
import selectors
import signal
import subprocess
import tempfile
import time

from sockbench_contract.ready_line import parse_ready_line

#: How long stop() keeps reading what the server wrote after READY once it has
#: exited: a worker that outlives it may hold stdout open, so no wait for EOF.
STDOUT_DRAIN_S = 1.0


class StepError(RuntimeError):
    """A step (start server, wait for READY, stop server, ...) failed; the message names the step and says why."""

    def __init__(self, step, why):
        super().__init__(f"[{step}] {why}")
        self.step = step


class ServerProcess:
    """One running server. Use as a context manager so it is always stopped.

    argv: the server's command line, as is. cpus: CPU numbers to pin it to
    (taskset), or empty. log_path: where its stderr goes (kept afterwards);
    None: a temporary file that lives as long as this object. env: the
    server's environment (None: ours). After start(): url, fields, ready_line.
    stderr: a file object the server's stderr goes to instead of a log file (proxy_front.py's
    backends write to its own stderr, so their lines reach whoever reads it); log_tail() is
    then empty. slow_stop_is_error: a clean exit later than the contract's 2 s after SIGTERM
    fails the stop (True), or is only kept in `slow_stop_s` (False: the bench
    runner, whose measured figures stand however long a server then takes to
    say goodbye to tens of thousands of sessions; it reports the breach).
    """

    def __init__(self, argv, cpus=(), log_path=None, ready_timeout_s=30.0, env=None, slow_stop_is_error=True,
                 stderr=None):
        self.argv = ["taskset", "-c", ",".join(map(str, cpus))] + list(argv) if cpus else list(argv)
        self.log_path, self.ready_timeout_s, self.env = log_path, ready_timeout_s, env
        self._stderr = stderr
        self.proc = self.ready_line = self.url = self._log = None
        self.fields = {}
        self._after_ready = b""   # stdout read past the READY line
        self._stopped = False
        self.slow_stop_is_error = slow_stop_is_error
        #: Seconds from SIGTERM to a clean exit past the contract's 2 s; None when in time (or not stopped).
        self.slow_stop_s = None

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
        if self._stderr is None:
            self._log = open(self.log_path, "wb") if self.log_path else tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(self.argv, stdout=subprocess.PIPE, stderr=self._stderr or self._log,
                                         stdin=subprocess.DEVNULL, env=self.env)
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
                                    f" from: {' '.join(self.argv)}; stdout so far: {buf!r}{self.log_tail()}")
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
        line, _, self._after_ready = buf.partition(b"\n")
        line = line.decode("utf-8", "replace")
        try:
            self.url, self.fields = parse_ready_line(line)
        except ValueError as exc:
            raise StepError("wait for READY", f"{exc} ({' '.join(self.argv)}){self.log_tail()}") from exc
        self.ready_line = line

    def send_signal(self, sig=signal.SIGTERM):
        self.proc.send_signal(sig)

    def wait(self, timeout):
        """The exit status, or None if the server still runs after `timeout` seconds."""
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def stop(self, grace_s=5.0, raise_on_error=True):
        """SIGTERM, wait for exit; the contract says exit 0 within 2 s. Returns the exit status.

        A server that does not exit within `grace_s` is killed so it never
        outlives the run. With raise_on_error, a non-zero exit, a slow exit,
        a kill or an earlier crash is a StepError of the "stop server" step.
        """
        if not self.proc:
            return None
        if self._stopped:
            return self.proc.returncode
        self._stopped = True
        problem = None
        if self.proc.poll() is None:
            started = time.monotonic()
            self.proc.send_signal(signal.SIGTERM)
            code = self.wait(grace_s)
            took = time.monotonic() - started
            if code is None:
                self.kill()
                problem = f"server did not exit within {grace_s:g} s of SIGTERM; killed"
            elif code != 0:
                problem = f"server exited with status {code} after SIGTERM"
            elif took > 2.0:
                if self.slow_stop_is_error:
                    problem = f"server took {took:.1f} s to exit after SIGTERM (contract: 2 s)"
                else:
                    self.slow_stop_s = took
        else:
            problem = f"server had already exited with status {self.proc.returncode} (crashed during the run?)"
        self._after_ready += self._drain_stdout()
        self.proc.stdout.close()
        if self.log_path and self._log is not None:
            self._log.close()  # the file stays; a temporary one is the only copy, so it stays open
        if problem and raise_on_error:
            raise StepError("stop server", problem + self.log_tail())
        return self.proc.returncode

    def _drain_stdout(self):
        data = b""
        deadline = time.monotonic() + STDOUT_DRAIN_S
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            while sel.select(timeout=max(0.0, deadline - time.monotonic())):
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                data += chunk
        return data

    def rest_of_stdout(self):
        """What the server wrote to stdout after its READY line; call it once the server has exited."""
        if not self.proc.stdout.closed:
            self._after_ready += self._drain_stdout()
        return self._after_ready

    def stderr_text(self):
        """Everything the server wrote to stderr so far."""
        if self._log is None:
            return ""
        if self.log_path:
            try:
                with open(self.log_path, "rb") as f:
                    return f.read().decode("utf-8", "replace")
            except OSError:
                return ""
        # pread: the server writes through the same open file, so our offset must not move.
        fd = self._log.fileno()
        return os.pread(fd, os.fstat(fd).st_size, 0).decode("utf-8", "replace")

    def log_tail(self, lines=15):
        tail = self.stderr_text().splitlines()[-lines:]
        where = self.log_path or "stderr"
        return ("\n--- server stderr (" + where + ") ---\n" + "\n".join(tail)) if tail else ""
