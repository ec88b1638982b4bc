"""How to start each benchmarked server: one launch spec per server kind.

Every server speaks docs/protocol.md, so the only differences are the command
line and which knobs apply (the codec exists only on our Python server; naive
mode and scale-out, `--workers`/`--broker`, on our Python server and on
server-node; the sockjs-tornado peer has none of them).
"""

import dataclasses
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclasses.dataclass(frozen=True)
class ServerSpec:
    kind: str          # name used on the command line and in make targets
    argv: tuple        # command before the contract flags (--host/--port/...)
    has_codec: bool    # accepts --json CODEC
    has_naive: bool    # accepts --naive
    peer: bool         # third-party reference implementation, not our code
    has_scaleout: bool = False  # accepts --workers N and --broker URL (docs/protocol.md §6)


def _venv_python(name):
    return os.path.join(ROOT, f".venv-{name}", "bin", "python")


PEER_APP = os.path.join(ROOT, "bench", "peers", "sockjs_tornado", "broadcast.py")

SPECS = {
    "pypy": ServerSpec("pypy", (_venv_python("pypy"), "-m", "sockbench_server"), True, True, False, True),
    "cpython": ServerSpec("cpython", (_venv_python("cpython"), "-m", "sockbench_server"), True, True, False, True),
    "node": ServerSpec("node", ("node", os.path.join(ROOT, "server-node", "broadcast.js")), False, True, False, True),
    "peer-sockjs-tornado-cpython": ServerSpec(
        "peer-sockjs-tornado-cpython", (_venv_python("peer-cpython"), PEER_APP), False, False, True),
    "peer-sockjs-tornado-pypy": ServerSpec(
        "peer-sockjs-tornado-pypy", (_venv_python("peer-pypy"), PEER_APP), False, False, True),
}


def server_command(spec, host, port, heartbeat_s, codec=None, naive=False, workers=1, broker=None,
                   log_level="warning"):
    """The full argv for one server; refuses knobs the server does not have.

    workers: worker processes, 1-64 (--workers, passed when > 1); broker: a
    redis:// URL (--broker) or None. Several workers need a broker: the
    caller starts a private one (bench/private_redis.py) and passes its URL.
    """
    argv = list(spec.argv) + ["--host", host, "--port", str(port),
                              "--heartbeat", f"{heartbeat_s:g}", "--log-level", log_level]
    if codec and codec != "json":
        if not spec.has_codec:
            raise ValueError(f"server {spec.kind!r} has no selectable JSON codec (JSON={codec})")
        argv += ["--json", codec]
    elif codec == "json" and spec.has_codec:
        argv += ["--json", "json"]
    if naive:
        if not spec.has_naive:
            raise ValueError(f"server {spec.kind!r} has no naive mode (NAIVE=1)")
        argv.append("--naive")
    if workers != 1 or broker:
        if not spec.has_scaleout:
            raise ValueError(f"server {spec.kind!r} has no --workers/--broker (WORKERS={workers}"
                             f"{', BROKER=' + broker if broker else ''}): it runs as one process only")
        if workers > 1 and not broker:
            raise ValueError(f"{workers} workers need a broker URL")
        if workers != 1:
            argv += ["--workers", str(workers)]
        if broker:
            argv += ["--broker", broker]
    return argv
