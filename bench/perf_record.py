"""perf on this machine: whether it can sample one core system-wide (else one line saying what is
missing and how to fix it), and the recorder the kernel profile (kernel_profile.py) hooks into a
bench repetition as a probe of measure.measure_once.

Standard library only.
"""

import os
import shutil
import subprocess
import tempfile
import time

#: Samples per second per core: 999, not 1000, so the sampling never beats in step with a
#: 1000 Hz (or 250 Hz) kernel tick and always lands on the same part of its work.
FREQUENCY_HZ = 999
#: How to get perf, said wherever it is missing.
INSTALL_HINT = "`make profile-kernel` installs it (Debian package linux-perf), or run `sudo apt-get install linux-perf`"
#: Seconds perf may take past its window to write its file (it also reads every sampled binary's build id).
WRITE_TIMEOUT_S = 120.0


def _read_int(path):
    try:
        with open(path, encoding="ascii") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def _last_words(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "(no message)"


def perf_problem(cpu, perf="perf"):
    """Why `perf record -C cpu` cannot give a kernel-view profile here, in one line; None when it can.
    cpu: a CPU number this process may use."""
    if shutil.which(perf) is None:
        return f"perf is not installed: {INSTALL_HINT}"
    root = os.geteuid() == 0
    # A trial recording is the only sure test (capabilities, a perf built for another kernel, no event).
    with tempfile.TemporaryDirectory(prefix="perf-trial-") as scratch:
        proc = subprocess.run([perf, "record", "-C", str(cpu), "-F", str(FREQUENCY_HZ), "-g",
                               "-o", os.path.join(scratch, "trial.data"), "--", "sleep", "0.1"],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        paranoid = _read_int("/proc/sys/kernel/perf_event_paranoid")
        if not root and paranoid is not None and paranoid > 0:
            return (f"perf cannot sample CPU {cpu} system-wide: kernel.perf_event_paranoid is {paranoid} and this is "
                    "not root; run as root, or `sudo sysctl kernel.perf_event_paranoid=0`")
        return f"perf cannot record on CPU {cpu}: {_last_words(proc.stderr)}"
    kptr = _read_int("/proc/sys/kernel/kptr_restrict")
    if not root and kptr not in (None, 0):
        return (f"perf cannot name kernel symbols: kernel.kptr_restrict is {kptr} and this is not root; run as "
                "root, or `sudo sysctl kernel.kptr_restrict=0`")
    return None


class PerfRecorder:
    """`perf record -C cpu -F FREQUENCY_HZ -g` over a client run's measured window: a probe of
    measure.measure_once (ready, sweep_started, sweep_finished), and a context manager that stops
    perf whatever happened.

    data_path: perf's output file. cpu: the server's core, recorded system-wide (every task on it).
    perf_cpus: taskset CPU list perf itself runs on (the client's, so perf's own reading and
    writing stays off the server's core). delay_s: seconds after the client starts before the
    window opens (> 0); seconds: the window (> 0). log_path: perf's own messages.
    After ready(): server_pids, server_exe (the server's executable, from /proc).
    """

    def __init__(self, data_path, cpu, perf_cpus, delay_s, seconds, log_path, perf="perf"):
        self.data_path, self.cpu, self.perf_cpus = data_path, cpu, perf_cpus
        self.delay_s, self.seconds, self.log_path, self.perf = delay_s, seconds, log_path, perf
        self.server_pids, self.server_exe = [], None
        self.proc = self.returncode = self._window_end = None
        #: Seconds the window ran past the client's run (0 when it ended inside it).
        self.past_client_s = 0.0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(WRITE_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return False

    def ready(self, processes, redis):
        self.server_pids = [pid for pid, _ in processes]
        self.server_exe = os.readlink(f"/proc/{processes[0][0]}/exe")

    def sweep_started(self):
        # -D: perf starts now and enables its events delay_s later, when the point's window is on.
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                ["taskset", "-c", self.perf_cpus, self.perf, "record", "-C", str(self.cpu), "-F", str(FREQUENCY_HZ),
                 "-g", "-D", str(round(self.delay_s * 1000)), "-o", self.data_path,
                 "--", "sleep", f"{self.delay_s + self.seconds:g}"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        self._window_end = time.monotonic() + self.delay_s + self.seconds

    def sweep_finished(self):
        self.past_client_s = max(0.0, self._window_end - time.monotonic())
        try:
            self.returncode = self.proc.wait(WRITE_TIMEOUT_S + self.past_client_s)
        except subprocess.TimeoutExpired:
            pass  # stopped by __exit__; problem() says so
        return {}

    def problem(self):
        """Why the recording cannot be read, in one line; None when perf wrote it."""
        if self.returncode is None:
            return "perf record never finished"
        if self.returncode != 0 or not os.path.exists(self.data_path):
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                return f"perf record failed (status {self.returncode}): {_last_words(f.read())}"
        return None
