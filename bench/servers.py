"""How to start each benchmarked server: one launch spec per server kind.

Every server speaks docs/protocol.md, so the only differences are the command
line and which knobs apply (the codec exists only on our Python server; naive
mode on our Python server and on server-node).
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


def _venv_python(name):
    return os.path.join(ROOT, f".venv-{name}", "bin", "python")


PEER_APP = os.path.join(ROOT, "bench", "peers", "sockjs_tornado", "broadcast.py")

SPECS = {
    "pypy": ServerSpec("pypy", (_venv_python("pypy"), "-m", "sockbench_server"), True, True, False),
    "cpython": ServerSpec("cpython", (_venv_python("cpython"), "-m", "sockbench_server"), True, True, False),
    "node": ServerSpec("node", ("node", os.path.join(ROOT, "server-node", "broadcast.js")), False, True, False),
    "peer-sockjs-tornado-cpython": ServerSpec(
        "peer-sockjs-tornado-cpython", (_venv_python("peer-cpython"), PEER_APP), False, False, True),
    "peer-sockjs-tornado-pypy": ServerSpec(
        "peer-sockjs-tornado-pypy", (_venv_python("peer-pypy"), PEER_APP), False, False, True),
}


def server_command(spec, host, port, heartbeat_s, codec=None, naive=False, log_level="warning"):
    """The full argv for one server; refuses knobs the server does not have."""
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
    return argv
