"""One run's settings, typed: what bench/run_bench.py's command line asked for, checked once.

The command line (argparse, in run_bench.py) is parsed once and turned into a
RunConfig here; every module of the run (run_bench, measure, byo_server) reads
that frozen object, so a setting has one name, one unit and one checked range,
and no module guesses a default for a setting it was not given.

`from_cli` refuses what cannot run with a ValueError whose text is the usage
error run_bench.py prints (exit 2, with the usage); the checks keep the order
in which the command line has always reported them.
"""

import dataclasses
import shlex
from typing import Optional, Tuple

from byo_server import UrlTarget, check_server_pid, check_service_url
from churn import parse_pct
from compression import server_refusal as compression_server_refusal
from client_fleet import check_agents
from cpus import available_cpus, default_client_cpus, parse_cpu_list
from matrix import select, single
from profiles import default_repeat
from scaleout import PRIVATE, check_broker, check_proxy, check_workers, wants_private_broker


class OneLineRefusal(ValueError):
    """A setting refused in one line, exit 2, without the usage text (CHURN=: the one line is the contract,
    docs/sessions.md "Churn"); run_bench.py prints it as `bench: <text>`."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class RunConfig:
    """The settings of one `run_bench.py` invocation (built by `from_cli`; never changed after)."""

    #: What is measured, in plan order: registry.ServerEntry items, or exactly one
    #: byo_server.UrlTarget with --url. Never empty.
    variants: tuple
    #: True with --url: a server the user runs (bench/byo_server.py); the runner neither
    #: starts nor stops it, and the server knobs below go unused.
    byo_server: bool
    #: The client's sweep profile by name (smoke, quick, standard, ...); checked against
    #: the client's `--list-profiles` when the run starts.
    profile: str
    #: Independent repetitions per server, >= 1 (--repeat; default bench/profiles.py
    #: DEFAULT_REPEAT: 3 for standard, 1 otherwise).
    repeat: int
    #: Concurrency levels, connections, each >= 1, in the order given; None = the profile's.
    levels: Optional[Tuple[int, ...]]
    #: server-python's JSON library (--json): json|simplejson|ujson|orjson, passed to the
    #: servers that have the codec knob; a server refuses a name it does not know at start.
    codec: str
    #: The client's transport: "sockjs" (framed) or "raw" (plain websocket).
    transport: str
    #: TRANSPORTS=: the SockJS transport of each session, as given (bench/transports.py); run_bench
    #: replaces it with the client's canonical form before anything starts.
    transports: str
    #: COMPRESSION=: "none" or "permessage-deflate" (bench/compression.py), checked against the
    #: servers' registry entries before anything starts.
    compression: str
    #: The started server's listen address (host name or IP).
    host: str
    #: The started server's port, 0-65535 (0 = any free port, read from READY).
    port: int
    #: The started server's SockJS heartbeat interval, seconds, > 0.
    heartbeat_s: float
    #: CPUs the server (and its workers) are pinned to, sorted, non-empty.
    server_cpus: Tuple[int, ...]
    #: CPUs the client (and its agents) are pinned to, sorted, non-empty; default every
    #: available core but the server's (all of them when none is left: they then share).
    client_cpus: Tuple[int, ...]
    #: Server worker processes, 1-64 (scaleout.MAX_WORKERS); > 1 needs a broker.
    workers: int
    #: Whether --workers was given (WORKERS= other than 1): the sessions profile then runs every
    #: level on that many workers instead of picking per level (bench/sessions.py).
    workers_given: bool
    #: The broker the server processes join: a redis://HOST[:PORT][/DB] URL, "private"
    #: (a fresh redis-server per repetition), or None (private when workers > 1, else none).
    broker: Optional[str]
    #: The proxy the workers run behind (--proxy, PROXY=): "haproxy" runs `workers` one-worker
    #: processes, each with the broker, behind it on `port` (docs/contract/sockbench_contract/
    #: proxy_front.py); None = the server's own --workers. With a proxy, workers >= 2.
    proxy: Optional[str]
    #: CPUs a private redis-server is pinned to, sorted; None = not pinned. Only with a
    #: private broker.
    broker_cpus: Optional[Tuple[int, ...]]
    #: Client processes holding the connections, 1-64: 1 = one client process; N > 1 = a
    #: coordinator and N agents (bench/client_fleet.py).
    agents: int
    #: Whether --agents was given (AGENTS= other than 1), as workers_given.
    agents_given: bool
    #: `--sessions N` for servers with the `sessions` knob: the sessions the server's processes
    #: together are to hold (the largest level of the group being run), so a server whose
    #: open-files limit is too low refuses at start; None = not passed (every profile but sessions).
    sessions: Optional[int]
    #: Percent of each level's sessions that close and reconnect once per second during its broadcast
    #: ramp (--churn, CHURN=5%), 0 < churn_pct <= bench/churn.py max_pct(); None = no churn. Needs
    #: the all-copies verdict (checked against the profile when the client has listed it).
    churn_pct: Optional[float]
    #: SLOW_CLIENTS= (--slow-clients PCT%:KIB, bench/slow_clients.py) as given; run_bench replaces it
    #: with the client's canonical form before anything starts. None = no slow readers.
    slow_clients: Optional[str]
    #: The fleet's Redis bus, redis://HOST[:PORT][/DB]; None = a private redis-server per
    #: repetition. Used only with agents > 1.
    bus: Optional[str]
    #: The java executable (name on PATH or path).
    java: str
    #: Extra JVM options, one argv item each (--java-opts, shell-split once).
    java_opts: Tuple[str, ...]
    #: The client's runnable jar (path).
    client_jar: str
    #: Extra client flags appended to every measured client run, one argv item each
    #: (--client-args, shell-split once).
    client_args: Tuple[str, ...]
    #: Folder the merged result files go to (created when missing; scratch/ below it holds
    #: each repetition's raw result until the merge).
    out_dir: str
    #: Run the unrecorded warm-up pass (the client's `warmup` profile) before each sweep.
    server_warmup: bool
    #: Check the knobs, print the plan and the time estimate, run nothing.
    dry_run: bool
    #: --check-usage: stop once the command line is checked (usage errors, one-line refusals), exit 0;
    #: make runs it before it installs the servers.
    check_usage: bool
    #: How long a started server may take to print READY, seconds, > 0.
    ready_timeout_s: float
    #: How long one client run may take before it is stopped as hung, seconds, > 0.
    client_timeout_s: float

    @property
    def levels_arg(self):
        """The client's `--levels` value for `levels`: (25, 100) -> "25,100"."""
        return ",".join(str(n) for n in self.levels)


def from_cli(ns):
    """The RunConfig of the parsed command line `ns` (run_bench.py's argparse Namespace).

    ValueError with the usage error's text when the options cannot go together or a
    value is out of range.
    """
    try:
        churn_pct = parse_pct(ns.churn)
    except ValueError as exc:
        raise OneLineRefusal(str(exc)) from None
    if not 0 <= ns.port <= 65535:
        raise ValueError("--port must be in 0-65535")
    if ns.repeat is not None and ns.repeat < 1:
        raise ValueError("--repeat must be >= 1")
    workers_given, agents_given = ns.workers is not None, ns.agents is not None
    workers, agents = ns.workers or 1, ns.agents or 1
    check_workers(ns.workers if workers_given else workers)
    check_agents(ns.agents if agents_given else agents)
    bus = None if ns.bus is None or ns.bus == PRIVATE else check_broker(ns.bus)
    broker = None if ns.broker is None else check_broker(ns.broker)
    if ns.proxy is not None and ns.url is None:
        try:
            check_proxy(ns.proxy, workers)
        except ValueError as exc:
            raise OneLineRefusal(str(exc)) from None
    if ns.broker_cpu and not wants_private_broker(workers, broker):
        raise ValueError("--broker-cpu pins the private redis-server: it needs --workers > 1 without --broker, "
                         "or --broker private")
    if ns.servers is not None and ns.naive:
        raise ValueError("--naive goes with --server; with --servers name the mode in each entry (e.g. pypy-naive)")
    if ns.url is None and (ns.server_pid is not None or ns.name or ns.mode):
        raise ValueError("--server-pid, --name and --mode go with --url (a server you run yourself)")
    if ns.url is not None:
        # The runner starts nothing, so it has no server flags to pass.
        # (--host/--port/--heartbeat are the started server's and go unused.)
        refused = [flag for flag, given in (("--naive", ns.naive), ("--workers", workers != 1),
                                            ("--broker", broker is not None), ("--json", ns.json != "json"),
                                            ("--broker-cpu", bool(ns.broker_cpu)),
                                            ("--agents", agents != 1), ("--proxy", ns.proxy is not None))
                   if given]
        if refused:
            raise ValueError(f"{', '.join(refused)}: not with --url: the runner neither starts that server (run "
                             "yours with the settings you want; --mode names its algorithm group) nor splits the "
                             "client")
    server_cpus = tuple(parse_cpu_list(ns.server_cpu))
    client_cpus = tuple(parse_cpu_list(ns.client_cpu) if ns.client_cpu
                        else default_client_cpus(server_cpus, available_cpus()))
    broker_cpus = tuple(parse_cpu_list(ns.broker_cpu)) if ns.broker_cpu else None
    if ns.url is not None:
        variants = (UrlTarget(name=ns.name or "byo", url=check_service_url(ns.url),
                              pid=check_server_pid(ns.server_pid), mode=ns.mode),)
    else:
        variants = tuple([single(ns.server, ns.naive)] if ns.server
                         else select("" if ns.servers == "all" else ns.servers))
    # COMPRESSION= a server of the run cannot have: one line, exit 2, before anything is looked for.
    why = compression_server_refusal(ns.compression, variants, ns.url is not None)
    if why:
        raise OneLineRefusal(why)
    for flag, seconds in (("--heartbeat", ns.heartbeat), ("--ready-timeout", ns.ready_timeout),
                          ("--client-timeout", ns.client_timeout)):
        if not seconds > 0:
            raise ValueError(f"{flag} must be > 0 seconds")
    return RunConfig(
        variants=variants, byo_server=ns.url is not None, profile=ns.profile,
        repeat=ns.repeat or default_repeat(ns.profile), levels=parse_levels(ns.levels), codec=ns.json,
        transport=ns.transport, transports=ns.transports, compression=ns.compression, host=ns.host, port=ns.port, heartbeat_s=ns.heartbeat,
        server_cpus=server_cpus, client_cpus=client_cpus, workers=workers, workers_given=workers_given,
        broker=broker, proxy=ns.proxy, broker_cpus=broker_cpus, agents=agents, agents_given=agents_given, sessions=None, bus=bus,
        churn_pct=churn_pct, slow_clients=ns.slow_clients or None,
        out_dir=ns.out_dir, client_jar=ns.client_jar,
        java=ns.java, java_opts=tuple(_split("--java-opts", ns.java_opts)),
        client_args=tuple(_split("--client-args", ns.client_args)), server_warmup=ns.server_warmup,
        dry_run=ns.dry_run, check_usage=ns.check_usage, ready_timeout_s=ns.ready_timeout, client_timeout_s=ns.client_timeout)


def parse_levels(text):
    """"25,100" -> (25, 100); blanks between commas are skipped; None for no levels at all.
    ValueError unless every level is a whole number >= 1."""
    items = [n.strip() for n in (text or "").split(",") if n.strip()]
    if not all(n.isdigit() and int(n) >= 1 for n in items):
        raise ValueError(f"--levels {text!r}: a comma list of concurrency levels, each a whole number >= 1")
    return tuple(int(n) for n in items) or None


def _split(flag, text):
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"{flag} {text!r}: {exc}") from None
