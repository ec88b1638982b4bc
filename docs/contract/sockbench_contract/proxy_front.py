"""Several one-worker server processes behind HAProxy, started and stopped as one server (PROXY=haproxy).

  python3 proxy_front.py --proxy haproxy --workers N --broker URL|private -- SERVER-COMMAND...

SERVER-COMMAND is a contract server's one-process command line (docs/protocol.md §1), with the
--host/--port it would listen on alone. This runs N copies of it, each `--workers 1 --broker URL`
on 127.0.0.1 and a port of its own, writes the HAProxy configuration (haproxy_config.py) into a
temporary directory, and runs haproxy on the public HOST:PORT in front of them. To its caller it
keeps the server contract: one READY line on stdout once a request through the proxy is answered,
SIGTERM/SIGINT stop everything (the backends first, so their sessions get the close frame through
the proxy, then haproxy) with status 0, a usage error is one line and status 2, a failure at start
one line and status 1 (a port already in use is named). docs/scaling-out.md ("HTTP transports
through a proxy") is the design; `make serve-* WORKERS=N PROXY=haproxy` and the bench runner
(PROXY=) run it, and the bench samples every pid its READY line names.

Why one-worker processes and not `--workers N`: a server with several workers refuses the HTTP
transports (its kernel or primary spreads connections, so one session's requests would reach
different workers); one process per port, and a proxy routing on the session id, keeps each
session on one process, while `--broker` joins them into one broadcast domain.

Why the group stops when one process dies: behind a hash on the session id a dead backend's
sessions cannot move, and a benchmark must not go on measuring a smaller server. No restart.

READY adds to the first backend's fields: workers=N, broker=<URL>, worker_pids=<the backends>,
proxy=haproxy, proxy_version=<haproxy -v>, proxy_pid=<haproxy's pid>. haproxy inherits this
process's CPU affinity, so pinning this process (taskset, as the runner does) pins the proxy with
the servers: its CPU is the server side's cost.
"""

import argparse
import http.client
import math
import os
import re
import resource
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

if not __package__:
    # Run as a script by the make rules and the runner: make the package importable.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sockbench_contract import haproxy_config  # noqa: E402
from sockbench_contract.private_redis import PrivateRedis  # noqa: E402
from sockbench_contract.ready_line import parse_ready_line  # noqa: E402
from sockbench_contract.server_launch import ServerProcess, StepError  # noqa: E402

#: The proxies PROXY= may name; the one list (make and the runner check against it).
KNOWN_PROXIES = ("haproxy",)
MAX_WORKERS = 64              # docs/protocol.md §6: --workers 1-64
PRIVATE = "private"
#: Flags of SERVER-COMMAND this sets per backend; given there, they would contradict it.
OWN_FLAGS = ("--workers", "--broker", "--status-file")
READY_TIMEOUT_S = 30.0        # each backend; PyPy starts in seconds on a loaded 2-core machine
PROXY_READY_TIMEOUT_S = 10.0  # haproxy, until a request through it is answered
STOP_GRACE_S = 5.0            # then killed (the contract says 2 s; the caller judges the time)
FIXES = {"haproxy": "run `make setup-haproxy` (Debian package haproxy; as root: apt-get install haproxy)"}


class Refusal(ValueError):
    """A usage error: one line, exit status 2, nothing started."""


def check_settings(proxy, workers, broker=None, broker_required=True):
    """The one check of PROXY=, WORKERS= and BROKER= together (make through this file, the runner
    through bench/run_config.py); Refusal naming what to change."""
    if proxy not in KNOWN_PROXIES:
        raise Refusal(f"PROXY={proxy} is not a proxy sockbench runs; known: {', '.join(KNOWN_PROXIES)}")
    if not 2 <= workers <= MAX_WORKERS:
        raise Refusal(f"PROXY={proxy} spreads sessions over WORKERS one-worker processes: WORKERS={workers} "
                      f"{'has nothing to spread' if workers == 1 else 'is out of range'}; give WORKERS=2 to "
                      f"{MAX_WORKERS}, or no PROXY")
    if broker_required and not broker:
        raise Refusal(f"PROXY={proxy} needs a broker joining its {workers} processes: --broker "
                      "redis://HOST[:PORT][/DB] or --broker private")


def front_command(proxy, workers, broker, server_argv, python=None):
    """The argv that runs server_argv (one process's command) `workers` times behind `proxy`, joined
    by `broker` (a redis:// URL, or "private": this file starts one): for Python callers (the bench
    runner, the sockjs-client check); make builds the same line in docs/contract/make.mk."""
    return [python or sys.executable, os.path.abspath(__file__), "--proxy", proxy, "--workers", str(workers),
            "--broker", broker, "--", *server_argv]


def option_value(argv, flag, default=None):
    """The value of `flag` in argv (`--flag value` or `--flag=value`; the last one wins), or default."""
    value = default
    for i, item in enumerate(argv):
        if item == flag and i + 1 < len(argv):
            value = argv[i + 1]
        elif item.startswith(flag + "="):
            value = item[len(flag) + 1:]
    return value


def without_option(argv, flag):
    """argv without `flag` and its value."""
    out, skip = [], False
    for item in argv:
        if skip:
            skip = False
        elif item == flag:
            skip = True
        elif not item.startswith(flag + "="):
            out.append(item)
    return out


def backend_command(server_argv, broker_url, workers):
    """One backend's argv: SERVER-COMMAND on 127.0.0.1, a port the OS picks (READY says which), one
    worker joined to the broker. `--sessions N` (all processes together) becomes each backend's share,
    ceil(N / workers): the hash spreads sessions about evenly, and the server adds its own margin."""
    argv = without_option(without_option(server_argv, "--host"), "--port")
    sessions = option_value(argv, "--sessions")
    if sessions is not None and sessions.isdigit():
        argv = without_option(argv, "--sessions") + ["--sessions", str(math.ceil(int(sessions) / workers))]
    return argv + ["--host", "127.0.0.1", "--port", "0", "--workers", "1", "--broker", broker_url]


def haproxy_version(executable):
    """`haproxy -v`'s version (e.g. 2.6.12-1+deb12u4); StepError in one line naming the fix when it
    is not there or does not run."""
    found = shutil.which(executable)
    if found is None:
        raise StepError("start proxy", f"{executable} not found: {FIXES['haproxy']}")
    try:
        out = subprocess.run([found, "-v"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise StepError("start proxy", f"{found} does not run ({exc}): {FIXES['haproxy']}") from None
    match = re.search(r"HAProxy version (\S+)", out.stdout)
    if out.returncode != 0 or not match:
        said = (out.stderr or out.stdout).strip().splitlines()[-1:] or ["no output"]
        raise StepError("start proxy", f"{found} -v failed (status {out.returncode}: {said[0]}): "
                        f"{FIXES['haproxy']}")
    return found, match.group(1)


def claim_port(host, port):
    """The public port, checked free (port 0: a free one picked now; haproxy binds it a moment later).
    StepError naming HOST:PORT when something already listens there."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        # SO_REUSEADDR as haproxy sets it: a port left in TIME_WAIT is free for both of us.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host.strip("[]"), port))
            s.listen(1)
        except OSError as exc:
            raise StepError("start proxy", f"cannot listen on {host}:{port} ({exc.strerror}): another process "
                            "holds that port; stop it or choose another PORT=") from None
        return s.getsockname()[1]


def default_maxconn():
    """Connections haproxy may hold: two descriptors each (client and backend side) within the hard
    open-files limit, less a reserve for its own files; haproxy raises its soft limit to fit."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    hard = 1_048_576 if hard == resource.RLIM_INFINITY else hard
    return max(256, (hard - 200) // 2)


class ProxyFront:
    """The group: a private broker (when asked), N backends, haproxy. A context manager.

    After start(): .url, .fields (the READY fields), .ready_line, .backends (ServerProcess each),
    .haproxy (Popen), .redis (PrivateRedis or None).
    """

    def __init__(self, proxy, workers, broker, server_argv, executable="haproxy", log=None):
        self.proxy, self.workers, self.broker = proxy, workers, broker
        self.server_argv = list(server_argv)
        self.executable = executable
        self.log = log or (lambda line: print(f"proxy_front.py: {line}", file=sys.stderr, flush=True))
        self.host = option_value(self.server_argv, "--host", "127.0.0.1")
        self.port = int(option_value(self.server_argv, "--port", "8080"))
        self.heartbeat_s = float(option_value(self.server_argv, "--heartbeat", "25"))
        self.backends, self.haproxy, self.redis = [], None, None
        self.url = self.fields = self.ready_line = None
        self._dir = None
        self._threads = []

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    def start(self):
        """Start everything and wait until a request through the proxy is answered; StepError (and
        nothing left running) otherwise."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self):
        haproxy, version = haproxy_version(self.executable)
        port = claim_port(self.host, self.port)
        self._dir = tempfile.mkdtemp(prefix="sockbench-proxy.")
        broker_url = self.broker
        if self.broker == PRIVATE:
            self.redis = PrivateRedis().start()
            broker_url = self.redis.url
        argv = backend_command(self.server_argv, broker_url, self.workers)
        self.backends = [ServerProcess(argv, ready_timeout_s=READY_TIMEOUT_S, stderr=sys.stderr)
                         for _ in range(self.workers)]
        # All at once: PyPy takes seconds to start, and N of them one after the other would be N
        # times that before READY (the runner's --ready-timeout covers the whole group).
        failures = []

        def start(backend):
            try:
                backend.start()
            except BaseException as exc:  # re-raised below, in this thread
                failures.append(exc)

        self._threads = [threading.Thread(target=start, args=(b,)) for b in self.backends]
        for t in self._threads:
            t.start()
        for t in self._threads:
            t.join()
        if failures:
            raise failures[0]
        addresses = [(f"b{i}", "127.0.0.1", int(b.url.rsplit(":", 1)[1])) for i, b in enumerate(self.backends)]
        config = haproxy_config.write(os.path.join(self._dir, "haproxy.cfg"), self.host, port, addresses,
                                      self.heartbeat_s, default_maxconn())
        log_path = os.path.join(self._dir, "haproxy.log")
        with open(log_path, "wb") as log:
            # -db: stay in the foreground (this process supervises it); stderr: its alerts, if any.
            self.haproxy = subprocess.Popen([haproxy, "-db", "-f", config], stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=log)
        self._wait_proxied(port, log_path)
        for line in _log_lines(log_path):  # its warnings, if any, for whoever reads our stderr
            self.log(f"haproxy: {line}")
        first = dict(self.backends[0].fields)
        for key in ("workers", "broker", "worker_pids"):
            first.pop(key, None)
        host = f"[{self.host.strip('[]')}]" if ":" in self.host.strip("[]") else self.host
        self.url = f"http://{host}:{port}"
        self.fields = {**first, "workers": str(self.workers),
                       "broker": self.backends[0].fields.get("broker", broker_url),
                       "worker_pids": ",".join(str(b.pid) for b in self.backends),
                       "proxy": self.proxy, "proxy_version": version, "proxy_pid": str(self.haproxy.pid)}
        self.ready_line = "READY " + self.url + "".join(f" {k}={v}" for k, v in self.fields.items())
        parse_ready_line(self.ready_line)  # what we print keeps the contract

    def _wait_proxied(self, port, log_path):
        """Until GET /broadcast/info through haproxy answers 200 (docs/protocol.md §4.1): haproxy
        listens and routes to a backend."""
        deadline = time.monotonic() + PROXY_READY_TIMEOUT_S
        target = "127.0.0.1" if self.host.strip("[]") in ("0.0.0.0", "", "::") else self.host.strip("[]")
        while True:
            if self.haproxy.poll() is not None:
                raise StepError("start proxy", f"haproxy exited with status {self.haproxy.returncode} at start: "
                                f"{_last_alert(log_path)}")
            try:
                conn = http.client.HTTPConnection(target, port, timeout=1)
                conn.request("GET", "/broadcast/info")
                status = conn.getresponse().status
                conn.close()
                if status == 200:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise StepError("start proxy", f"no answer through haproxy on port {port} within "
                                f"{PROXY_READY_TIMEOUT_S:g} s: {_last_alert(log_path)}")
            time.sleep(0.05)

    def pids(self):
        """Every process of the group: (pid, role), role "worker" or "proxy"."""
        out = [(b.pid, "worker") for b in self.backends]
        if self.haproxy is not None:
            out.append((self.haproxy.pid, "proxy"))
        return out

    def wait_for_signal_or_death(self, stop_signals=(signal.SIGTERM, signal.SIGINT)):
        """Block (no CPU: pidfds and a signal wake-up fd) until a stop signal arrives (returns None)
        or a process of the group ends (returns a sentence naming it)."""
        read_fd, write_fd = os.pipe()
        os.set_blocking(write_fd, False)
        old = {sig: signal.signal(sig, lambda *_: None) for sig in stop_signals}
        previous_fd = signal.set_wakeup_fd(write_fd)
        sel = selectors.DefaultSelector()
        names = {}
        try:
            sel.register(read_fd, selectors.EVENT_READ, "signal")
            for i, b in enumerate(self.backends):
                fd = os.pidfd_open(b.pid)
                names[fd] = (f"backend {i + 1}/{len(self.backends)} pid {b.pid}", b.proc)
                sel.register(fd, selectors.EVENT_READ, "child")
            fd = os.pidfd_open(self.haproxy.pid)
            names[fd] = (f"haproxy pid {self.haproxy.pid}", self.haproxy)
            sel.register(fd, selectors.EVENT_READ, "child")
            events = [key for key, _ in sel.select()]
            # Ctrl-C reaches the whole process group: haproxy may end in the same instant as the
            # signal arrives here, and that is a stop, not a death.
            if any(key.data == "signal" for key in events):
                return None
            name, proc = names[events[0].fd]
            code = proc.wait()
            cause = f"signal {-code}" if code < 0 else f"exit status {code}"
            return f"{name} ended ({cause})"
        finally:
            signal.set_wakeup_fd(previous_fd)
            for sig, handler in old.items():
                signal.signal(sig, handler)
            for fd in [read_fd, write_fd, *names]:
                os.close(fd)
            sel.close()

    def stop(self):
        """SIGTERM to every backend at once (each closes its sessions, through the proxy), then
        haproxy, then the private broker; anything still running after STOP_GRACE_S is killed.
        Returns a list of problems (empty when everything exited 0)."""
        problems = []
        for t in self._threads:
            t.join()  # a stop during the start (SIGTERM) waits until each backend is up or gone
        self._threads = []
        started = [b for b in self.backends if b.proc is not None]
        for b in started:
            if b.proc.poll() is None:
                b.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_S
        for i, b in enumerate(started):
            code = b.wait(max(0.0, deadline - time.monotonic()))
            if code is None:
                b.kill()
                problems.append(f"backend {i + 1} pid {b.pid} did not exit within {STOP_GRACE_S:g} s; killed")
            elif code != 0:
                problems.append(f"backend {i + 1} pid {b.pid} exited with status {code}")
            b.stop(raise_on_error=False)  # closes its pipes (it has exited)
        if self.haproxy is not None and self.haproxy.poll() is None:
            self.haproxy.terminate()  # a hard stop: its connections end with the backends' already gone
            try:
                self.haproxy.wait(STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                self.haproxy.kill()
                self.haproxy.wait()
        if self.redis is not None:
            self.redis.stop()
            self.redis = None
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
        self.backends = []
        return problems


def _log_lines(log_path):
    try:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            return [line.strip() for line in f if line.strip()]
    except OSError:
        return []


def _last_alert(log_path):
    """haproxy's last ALERT line (why it did not start), or its last line."""
    lines = _log_lines(log_path)
    alerts = [line for line in lines if "ALERT" in line and "Fatal errors" not in line]
    return (alerts or lines or ["(no output)"])[-1]


def parse_args(argv):
    """(options, SERVER-COMMAND); Refusal on a usage error."""
    if "--" not in argv:
        raise Refusal("usage: proxy_front.py --proxy NAME --workers N --broker URL|private -- SERVER-COMMAND...")
    split = argv.index("--")
    own, server_argv = argv[:split], argv[split + 1:]
    parser = argparse.ArgumentParser(prog="proxy_front.py", add_help=False, exit_on_error=False)
    parser.add_argument("--proxy", required=True)
    parser.add_argument("--workers", required=True)
    parser.add_argument("--broker", default=None)
    try:
        ns = parser.parse_args(own)
    except (argparse.ArgumentError, SystemExit) as exc:
        raise Refusal(f"proxy_front.py: {exc}") from None
    if not ns.workers.strip().isdigit():
        raise Refusal(f"WORKERS={ns.workers!r}: a whole number of worker processes")
    ns.workers = int(ns.workers)
    check_settings(ns.proxy, ns.workers, ns.broker)
    if ns.broker != PRIVATE and not re.match(r"^redis://[^/\s]+(/\d+)?$", ns.broker):
        raise Refusal(f"--broker {ns.broker!r}: redis://HOST[:PORT][/DB] or private")
    if not server_argv:
        raise Refusal("no SERVER-COMMAND after --")
    given = [flag for flag in OWN_FLAGS if option_value(server_argv, flag) is not None]
    if given:
        raise Refusal(f"{', '.join(given)} in SERVER-COMMAND: proxy_front.py gives each backend its own "
                      "(--workers 1 --broker URL)")
    port = option_value(server_argv, "--port", "8080")
    if not (port.isdigit() and int(port) <= 65535):
        raise Refusal(f"--port {port!r}: 0-65535")
    return ns, server_argv


def _interrupt(_signum, _frame):
    raise KeyboardInterrupt


def main(argv):
    try:
        ns, server_argv = parse_args(argv)
    except Refusal as exc:
        print(exc, file=sys.stderr)
        return 2
    front = ProxyFront(ns.proxy, ns.workers, ns.broker, server_argv)
    # SIGTERM while starting is a stop too: start() takes the group down on the way out.
    signal.signal(signal.SIGTERM, _interrupt)
    died = None
    try:
        front.start()
        print(front.ready_line, flush=True)
        died = front.wait_for_signal_or_death()
        if died:
            front.log(f"{died}; stopping the group (behind the proxy its sessions cannot move to another process)")
    except StepError as exc:
        print(f"proxy_front.py: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        # A second SIGTERM/SIGINT must not cut the stop short and leave processes behind.
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
        problems = front.stop()
    for problem in problems:
        front.log(problem)
    return 1 if died or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
