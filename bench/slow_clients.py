"""SLOW_CLIENTS=PCT%:KIB: that share of each level's sessions reads at most KIB KiB/s each, so the
server must buffer for them or cut them off (docs/slow-readers.md).

The client owns the grammar, the ranges and what the slow readers may not be combined with
(client-java `SlowReaders` and `RunCommand.slowReadersRefusal`): the runner keeps no copy. It asks
the jar (`--check-slow-clients`) before any server starts, with the run's transports, profile,
levels, churn and agents, so a bad value is one line and exit 2 rather than a failure minutes into
a run, and passes the canonical form the jar answers to every measured client run (not to the
warm-up pass, whose job is the server's JIT). The result records it (`parameters.slow_clients`)
and the file name says it (results_io.slow_clients_tag).
"""

import subprocess


def canonical(java_prefix, spec, *, transport, transports, profile, levels_arg=None, churn_pct=None, agents=1):
    """(canonical spec, None) for SLOW_CLIENTS=`spec` with the run's other settings, or (None, reason)
    when the client refuses it (the reason is the client's one line).

    java_prefix: the argv that runs the client jar (measure.java_command)."""
    cmd = [*java_prefix, "--check-slow-clients", "--slow-clients", spec, "--transport", transport,
           "--transports", transports, "--profile", profile]
    if levels_arg:
        cmd += ["--levels", levels_arg]
    if churn_pct:
        cmd += ["--churn", f"{churn_pct:g}"]
    if agents > 1:
        cmd += ["--agents", str(agents)]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    if proc.returncode == 0:
        return proc.stdout.strip(), None
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    return None, f"SLOW_CLIENTS={spec}: " + (lines[0] if lines else f"the client exited {proc.returncode}")


def client_args(spec):
    """The client flags for SLOW_CLIENTS=`spec` (none without slow readers)."""
    return ["--slow-clients", spec] if spec else []

