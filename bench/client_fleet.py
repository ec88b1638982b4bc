"""The client as a coordinator plus N agents (AGENTS=N, --agents N): the agent
processes and their Redis bus for one repetition.

With N > 1 the runner starts N `sockbench-client.jar agent` processes pinned to
the client's CPUs (as the one client process would be), each joining a fresh
run id on the bus, and passes `--agents N --bus URL --run-id ID` to the client,
which then coordinates them (client-java/README.md "Several processes and
hosts"). The bus is a private redis-server started here
(docs/contract/sockbench_contract/private_redis.py) unless --bus URL names one.
N = 1 is today's single process: nothing starts.

The agents are reaped before the runner reads its children's CPU time, so the
host record's client CPU includes them; their CPU and RSS are also sampled from
/proc and recorded per agent (`runs[].client_agents`).
"""

import os
import subprocess
import time

from process_sampler import GroupSampler
from sockbench_contract.private_redis import PrivateRedis

AGENT_EXIT_TIMEOUT_S = 15.0


def check_agents(n):
    """N agents, 1-64 (1 = one client process, no agents); ValueError otherwise."""
    if not isinstance(n, int) or not 1 <= n <= 64:
        raise ValueError(f"--agents must be 1-64, got {n!r}")
    return n


class ClientFleet:
    """Context manager: the bus and N agents for one client run; a no-op for N = 1.

    java: the argv prefix that runs the client jar pinned to the client CPUs
    (measure.java_command). log_stem: each agent's stderr goes to `<log_stem>-agent-N.log`;
    the runner passes its result file's path without `.json`, so every server and repetition
    of a `make bench` keeps its own agents' logs (the same names for all of them let the next
    run overwrite the logs that said why an agent died).
    """

    def __init__(self, agents, java, log_stem, bus=None, agent_args=(), log=print):
        self.n = check_agents(agents)
        self.java = list(java)
        self.log_stem = log_stem
        self.bus = bus
        self.agent_args = list(agent_args)
        self.log = log
        self.run_id = f"bench-{os.getpid()}-{time.time_ns() // 1_000_000}"
        self.redis = None
        self.procs = []
        self.sampler = None
        self._logs = []

    @property
    def active(self):
        return self.n > 1

    def __enter__(self):
        if not self.active:
            return self
        try:
            if self.bus is None:
                self.redis = PrivateRedis().__enter__()
                self.bus = self.redis.url
                self.log(f"[start agents] private redis-server {self.redis.version} pid {self.redis.pid} on {self.bus} as the client bus")
            for i in range(self.n):
                path = self.log_path(i + 1)
                f = open(path, "w")
                self._logs.append(f)
                argv = self.java + ["agent", "--bus", self.bus, "--run-id", self.run_id, *self.agent_args]
                self.procs.append(subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT))
            self.log(f"[start agents] {self.n} agents (pids {', '.join(str(p.pid) for p in self.procs)}) for run "
                     f"{self.run_id}, logs {self.log_stem}-agent-N.log")
            self._wait_exec()
            self.sampler = GroupSampler([(p.pid, "agent") for p in self.procs])
            self.sampler.start()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def log_path(self, number):
        """Agent `number`'s (from 1) log file."""
        return f"{self.log_stem}-agent-{number}.log"

    def _wait_exec(self, timeout_s=5.0):
        # Popen forks (the child is still called as we are), the child execs taskset, which sets
        # the affinity and execs java under the same pid: sample only after that last exec, so the
        # recorded CPUs are the agent's, not the ones the fork or taskset inherited.
        with open("/proc/self/comm") as f:
            before_exec = {f.read().strip(), "taskset"}
        deadline = time.monotonic() + timeout_s
        for p in self.procs:
            while time.monotonic() < deadline and p.poll() is None:
                try:
                    with open(f"/proc/{p.pid}/comm") as f:
                        if f.read().strip() not in before_exec:
                            break
                except OSError:
                    break
                time.sleep(0.01)

    def coordinator_args(self):
        """What the client needs to coordinate these agents ([] for one process)."""
        if not self.active:
            return []
        return ["--agents", str(self.n), "--bus", self.bus, "--run-id", self.run_id]

    def finish(self):
        """After the client exited: reap the agents (they exit when the run ends) and report them.

        Returns {"count", "bus", "private", "processes": [{pid, cpus, cpu_s, rss_bytes_max, exit}]} or None.
        """
        if not self.active:
            return None
        codes = []
        deadline = time.monotonic() + AGENT_EXIT_TIMEOUT_S
        for p in self.procs:
            try:
                codes.append(p.wait(timeout=max(0.1, deadline - time.monotonic())))
            except subprocess.TimeoutExpired:
                p.kill()
                codes.append(p.wait())
                self.log(f"warning: agent pid {p.pid} did not exit after the run; killed")
        self.sampler.stop()
        report = self.sampler.report()
        processes = []
        for proc, code, sample in zip(self.procs, codes, report["processes"]):
            processes.append({"pid": proc.pid, "cpus": sample["cpus"], "cpu_s": sample["cpu_s"],
                              "rss_bytes_max": sample["rss_bytes_max"], "exit": code})
        rss = ", ".join(f"{(p['rss_bytes_max'] or 0) / 2**20:.0f}" for p in processes)
        self.log(f"[agents] {self.n} agents done; RSS max per agent (MiB): {rss}")
        return {"count": self.n, "bus": self.bus, "private": self.redis is not None, "processes": processes}

    def __exit__(self, *exc):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        if self.sampler:
            self.sampler.stop()
        for f in self._logs:
            f.close()
        if self.redis:
            self.redis.__exit__(None, None, None)
            self.redis = None
        return False

