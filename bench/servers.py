"""How to start a registry entry: its argv with the contract flags and the knobs it accepts.

Every server speaks docs/protocol.md, so the only differences are the launch
(bench/server-registry.json) and which knobs apply (the codec exists only on
our Python server; naive mode and scale-out, `--workers`/`--broker`, on our
Python server and on server-node; the sockjs-tornado peer has none of them).
"""

from registry import ROOT, load  # noqa: F401  (ROOT: the checkout, for callers)


def entry(name):
    """The registry entry called `name` (bench/server-registry.json); RegistryError if there is none."""
    return load().entry(name)


def server_command(spec, host, port, heartbeat_s, codec=None, naive=None, workers=1, broker=None,
                   log_level="warning"):
    """The full argv for one registry entry; refuses knobs the server does not have.

    spec: a registry.ServerEntry. host/port: listen address, port 0-65535 (0 =
    any free port); heartbeat_s: seconds > 0. codec: server-python's JSON
    library (None or "json" = the default). naive: None = the entry's own mode
    (--naive for a naive entry of a server that has a fast path too), True/False
    to force it. workers: worker processes, 1-64 (--workers, passed when > 1);
    broker: a redis:// URL (--broker) or None. Several workers need a broker:
    the caller starts a private one (docs/contract/sockbench_contract/private_redis.py) and
    passes its URL.
    """
    naive = spec.naive if naive is None else naive
    argv = list(spec.argv) + ["--host", host, "--port", str(port),
                              "--heartbeat", f"{heartbeat_s:g}", "--log-level", log_level]
    if codec and codec != "json":
        if not spec.has_codec:
            raise ValueError(f"server {spec.name!r} has no selectable JSON codec (JSON={codec})")
        argv += ["--json", codec]
    elif codec == "json" and spec.has_codec:
        argv += ["--json", "json"]
    if naive:
        if not spec.has_naive:
            raise ValueError(f"server {spec.name!r} has no naive mode (NAIVE=1)")
        argv.append("--naive")
    if workers != 1 or broker:
        if not spec.has_scaleout:
            raise ValueError(f"server {spec.name!r} has no --workers/--broker (WORKERS={workers}"
                             f"{', BROKER=' + broker if broker else ''}): it runs as one process only")
        if workers > 1 and not broker:
            raise ValueError(f"{workers} workers need a broker URL")
        if workers != 1:
            argv += ["--workers", str(workers)]
        if broker:
            argv += ["--broker", broker]
    return argv
