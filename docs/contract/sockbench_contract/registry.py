"""The server registry: docs/contract/server-registry.json loaded, checked, and asked.

The registry is the one place that knows every server the bench can start:
its name (what `SERVERS=` and `make serve SERVER=` take), how to launch it,
the make goal that installs it, its knobs, whether it is ours or a peer, its
broadcast algorithm group and the named groups it belongs to. It is a JSON
file so make (through registry_cli.py beside this module), the bench, the
servers' runtime tests and the site's Node build all read the same data; docs/adding-a-server.md describes each
field.

A malformed file is refused as a whole with one RegistryError naming the
entry and the field (unknown key, missing field, wrong type, duplicate name,
undeclared group or requirement), so a typo never silently drops a server.

Standard library only, Python >= 3.9: make runs it with the system python3.
"""

import dataclasses
import fnmatch
import json
import os
import re
import subprocess
import sys

#: The checkout: this file is docs/contract/sockbench_contract/registry.py.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
REGISTRY_PATH = os.path.join(ROOT, "docs", "contract", "server-registry.json")

#: What a server may accept besides the contract flags (docs/protocol.md):
#: --json CODEC, --naive, --workers N, --broker URL, --sessions N (the sessions its
#: processes together are to hold: it refuses to start when its open-files limit is too low),
#: --compression permessage-deflate (RFC 7692 on its websockets; docs/compression.md: an entry
#: without this knob cannot, and says why in its $comment).
KNOBS = ("codec", "naive", "workers", "broker", "sessions", "compression")
#: The --compression values (COMPRESSION=); "none" is every server's behaviour and passes no flag.
COMPRESSIONS = ("none", "permessage-deflate")
#: Broadcast algorithm groups: "fast" coalesces a loop turn's messages into one
#: frame per session and encodes once; "naive" writes one frame per message per
#: recipient (bench/matrix.py explains why comparisons hold it fixed).
MODES = ("fast", "naive")
#: The old spelling of `SERVERS=` for the default group.
ALL = "all"
DEFAULT_GROUP = "default"

_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
_READY_KEY_RE = re.compile(r"^[a-z0-9_.-]+$")  # docs/protocol.md §2
_TOP_KEYS = {"$comment": str, "groups": dict, "requirements": dict, "servers": list}
_TOP_REQUIRED = ("groups", "servers")
_ENTRY_KEYS = {"name": str, "label": str, "argv": list, "install": list, "knobs": list, "mode": str, "peer": bool,
               "groups": list, "requires": list, "runtime_tag": str, "ready": dict, "websocket_only": bool,
               "$comment": str}
_ENTRY_REQUIRED = ("name", "label", "argv", "install", "knobs", "mode", "peer", "groups")
_REQUIREMENT_KEYS = {"check": list, "missing": str, "$comment": str}
#: Seconds an availability check may take before it counts as failed.
CHECK_TIMEOUT_S = 20.0


#: Entries and requirements are built with named fields only, where the interpreter can enforce it
#: (Python 3.10+): an entry has a dozen fields, several of them booleans and tuples, and a positional
#: call of that length cannot be read (on 3.9 the calls below are the same, merely unchecked).
_KEYWORD_ONLY = {"kw_only": True} if sys.version_info >= (3, 10) else {}


class RegistryError(ValueError):
    """The registry file is malformed, or a name asked for is not in it."""


@dataclasses.dataclass(frozen=True, **_KEYWORD_ONLY)
class ServerEntry:
    """One server the bench can start, as docs/contract/server-registry.json describes it."""

    name: str            # what SERVERS= and `make serve SERVER=` take, e.g. "pypy-fast"
    label: str           # one line for people: which server, on what, which algorithm
    argv: tuple          # the launch, {ROOT} expanded, before the contract flags (--host/--port/...)
    install: tuple       # make goals that install it (stamp files or phony targets)
    knobs: frozenset     # subset of KNOBS the launch accepts
    mode: str            # "fast" or "naive": the algorithm group its results are compared in
    peer: bool           # a third-party reference implementation, not our code
    groups: tuple        # named groups it belongs to, e.g. ("default", "runtimes")
    requires: tuple = ()       # names of registry requirements (availability checks)
    runtime_tag: str = None    # the runtime as file and run names say it, when READY's runtime alone
    #                            would not tell this entry from another (e.g. "cpython3.12"); None = READY's
    ready: tuple = ()          # ((READY key, glob pattern), ...) its READY line must match
    websocket_only: bool = False  # serves only the websocket transports of docs/protocol.md (no HTTP
    #                               transports, no /echo over HTTP): the benchmark runs it, the checks that
    #                               need every SockJS transport (the sockjs-client browser check) skip it

    @property
    def has_codec(self):
        return "codec" in self.knobs

    @property
    def has_naive(self):
        return "naive" in self.knobs

    @property
    def has_scaleout(self):
        return "workers" in self.knobs

    @property
    def has_sessions(self):
        return "sessions" in self.knobs

    @property
    def has_compression(self):
        return "compression" in self.knobs

    @property
    def naive(self):
        """Whether the launch gets --naive: a naive entry of a server that also has a fast path.
        A server with one per-message path only (the sockjs-tornado peer) is naive without the flag."""
        return self.mode == "naive" and self.has_naive

    def ready_mismatches(self, fields):
        """What in a READY line's key=value fields contradicts this entry's `ready` patterns
        (a Bun started as Node, a 3.11 venv behind a 3.12 entry); [] when it matches."""
        out = []
        for key, pattern in self.ready:
            value = fields.get(key)
            if value is None or not fnmatch.fnmatchcase(value, pattern):
                out.append(f"READY says {key}={value if value is not None else '(absent)'}, "
                           f"the registry expects {key}={pattern}")
        return out


@dataclasses.dataclass(frozen=True, **_KEYWORD_ONLY)
class Requirement:
    """Something outside the kit an entry needs (e.g. an interpreter under pyenv): a command that
    exits 0 when it is there, and one line saying what is missing and how to get it."""

    name: str
    check: tuple
    missing: str


class Registry:
    """The loaded registry: entries in file order, group descriptions, requirements."""

    def __init__(self, entries, groups, requirements, path):
        self.entries = tuple(entries)
        self.groups = dict(groups)
        self.requirements = dict(requirements)
        self.path = path
        self._by_name = {e.name: e for e in self.entries}
        self._check_results = {}

    def names(self):
        return [e.name for e in self.entries]

    def entry(self, name):
        """The entry called `name`; RegistryError naming the valid names otherwise."""
        try:
            return self._by_name[name]
        except KeyError:
            raise RegistryError(self._unknown_message([name])) from None

    def group(self, name):
        """The entries of one named group, in file order."""
        if name not in self.groups:
            raise RegistryError(self._unknown_message([name]))
        return [e for e in self.entries if name in e.groups]

    def select(self, text):
        """Entries named in a comma list of entry and group names (SERVERS=), in the list's order,
        each once; the default group for an empty list or "all". RegistryError naming every
        unknown name and the valid ones."""
        wanted = [n.strip() for n in (text or "").split(",") if n.strip()]
        if not wanted or wanted == [ALL]:
            wanted = [DEFAULT_GROUP]
        unknown = [n for n in wanted if n not in self._by_name and n not in self.groups]
        if unknown:
            raise RegistryError(self._unknown_message(unknown))
        out = []
        for n in wanted:
            for e in (self.group(n) if n in self.groups else [self._by_name[n]]):
                if e not in out:
                    out.append(e)
        return out

    def single(self, name, naive=False):
        """The entry for `--server NAME [--naive]`: an entry name, or a server's short name (`pypy`,
        `node`) completed by the mode (`pypy-fast`, or `pypy-naive` with naive=True)."""
        if name in self._by_name:
            e = self._by_name[name]
            if naive and e.mode != "naive":
                raise RegistryError(f"{name} is a {e.mode} entry; drop --naive/NAIVE=1 or name a naive entry")
            return e
        full = f"{name}-{'naive' if naive else 'fast'}"
        if full in self._by_name:
            return self._by_name[full]
        raise RegistryError(self._unknown_message([name]))

    def missing(self, entry):
        """None when every requirement of `entry` is met, else the first unmet one's `missing` line."""
        for name in entry.requires:
            if self.check_requirement(name) is None:
                return self.requirements[name].missing
        return None

    def check_requirement(self, name):
        """The requirement check's stdout (stripped) when it passes, None when it fails; run once."""
        if name not in self._check_results:
            req = self.requirements[name]
            try:
                proc = subprocess.run(list(req.check), stdin=subprocess.DEVNULL, capture_output=True,
                                      text=True, timeout=CHECK_TIMEOUT_S)
                ok = proc.returncode == 0
            except (OSError, subprocess.TimeoutExpired):
                ok, proc = False, None
            self._check_results[name] = proc.stdout.strip() if ok else None
        return self._check_results[name]

    def _unknown_message(self, names):
        return (f"unknown server(s) {', '.join(names)}; choose from: {', '.join(self._by_name)}; "
                f"or a group: {', '.join(self.groups)}")


def load(path=REGISTRY_PATH):
    """Read and check the registry file; RegistryError (naming the file) on any problem."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f, object_pairs_hook=_no_duplicate_keys)
    except OSError as exc:
        raise RegistryError(f"{path}: cannot read: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise RegistryError(f"{path}: not valid JSON: {exc}") from exc
    except RegistryError as exc:
        raise RegistryError(f"{path}: {exc}") from exc
    try:
        return parse(doc, path)
    except RegistryError as exc:
        raise RegistryError(f"{path}: {exc}") from exc


def parse(doc, path="(registry)"):
    """A Registry from the decoded JSON document; RegistryError on the first problem found."""
    _check_keys(doc, _TOP_KEYS, _TOP_REQUIRED, "the top level")
    groups = doc["groups"]
    for name, text in groups.items():
        if not _NAME_RE.match(name) or not isinstance(text, str) or not text:
            raise RegistryError(f"groups.{name}: a group needs a lower-case name and a description")
    if DEFAULT_GROUP not in groups:
        raise RegistryError(f"groups: the {DEFAULT_GROUP!r} group (what `make bench` runs) must be declared")
    requirements = {}
    for name, raw in doc.get("requirements", {}).items():
        where = f"requirements.{name}"
        _check_keys(raw, _REQUIREMENT_KEYS, ("check", "missing"), where)
        if not _NAME_RE.match(name):
            raise RegistryError(f"{where}: names are lower-case letters, digits, '.' and '-'")
        _check_strings(raw["check"], f"{where}.check", non_empty=True)
        requirements[name] = Requirement(name=name, check=tuple(raw["check"]), missing=raw["missing"])
    entries, seen = [], {}
    for i, raw in enumerate(doc["servers"]):
        where = f"servers[{i}]" + (f" ({raw['name']})" if isinstance(raw, dict) and isinstance(raw.get("name"), str) else "")
        entry = _parse_entry(raw, where, groups, requirements)
        if entry.name in seen:
            raise RegistryError(f"{where}: duplicate name {entry.name!r} (also servers[{seen[entry.name]}])")
        if entry.name in groups or entry.name == ALL:
            raise RegistryError(f"{where}: name {entry.name!r} is taken by a group")
        seen[entry.name] = i
        entries.append(entry)
    for name in groups:
        if not any(name in e.groups for e in entries):
            raise RegistryError(f"groups.{name}: no server belongs to it")
    return Registry(entries, groups, requirements, path)


def _parse_entry(raw, where, groups, requirements):
    _check_keys(raw, _ENTRY_KEYS, _ENTRY_REQUIRED, where)
    name = raw["name"]
    if not _NAME_RE.match(name):
        raise RegistryError(f"{where}: name {name!r}: lower-case letters, digits, '.' and '-' only "
                            "(it goes into SERVERS= lists and file names)")
    _check_strings(raw["argv"], f"{where}.argv", non_empty=True)
    _check_strings(raw["install"], f"{where}.install")
    _check_strings(raw["knobs"], f"{where}.knobs")
    bad = [k for k in raw["knobs"] if k not in KNOBS]
    if bad:
        raise RegistryError(f"{where}.knobs: unknown knob(s) {', '.join(bad)} (known: {', '.join(KNOBS)})")
    if ("workers" in raw["knobs"]) != ("broker" in raw["knobs"]):
        raise RegistryError(f"{where}.knobs: 'workers' and 'broker' go together (several workers share a broker)")
    if raw["mode"] not in MODES:
        raise RegistryError(f"{where}.mode: {raw['mode']!r}; one of {', '.join(MODES)}")
    _check_strings(raw["groups"], f"{where}.groups", non_empty=True)
    undeclared = [g for g in raw["groups"] if g not in groups]
    if undeclared:
        raise RegistryError(f"{where}.groups: undeclared group(s) {', '.join(undeclared)} "
                            f"(declared: {', '.join(groups)})")
    requires = raw.get("requires", [])
    _check_strings(requires, f"{where}.requires")
    unknown = [r for r in requires if r not in requirements]
    if unknown:
        raise RegistryError(f"{where}.requires: undeclared requirement(s) {', '.join(unknown)}")
    tag = raw.get("runtime_tag")
    if tag is not None and not _NAME_RE.match(tag):
        raise RegistryError(f"{where}.runtime_tag: {tag!r}: lower-case letters, digits, '.' and '-' only")
    ready = raw.get("ready", {})
    for key, pattern in ready.items():
        if not _READY_KEY_RE.match(key) or not isinstance(pattern, str) or not pattern:
            raise RegistryError(f"{where}.ready.{key}: READY keys match [a-z0-9_.-]+ and map to a non-empty pattern")
    return ServerEntry(
        name=name, label=raw["label"], argv=tuple(expand(a) for a in raw["argv"]),
        install=tuple(expand(g) for g in raw["install"]), knobs=frozenset(raw["knobs"]), mode=raw["mode"],
        peer=raw["peer"], groups=tuple(raw["groups"]), requires=tuple(requires), runtime_tag=tag,
        ready=tuple(sorted(ready.items())), websocket_only=raw.get("websocket_only", False))


def expand(text):
    """`{ROOT}` -> the checkout's absolute path (the one placeholder a launch or install may use)."""
    return text.replace("{ROOT}", ROOT)


def _check_keys(obj, allowed, required, where):
    if not isinstance(obj, dict):
        raise RegistryError(f"{where}: expected an object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - set(allowed))
    if unknown:
        raise RegistryError(f"{where}: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(allowed)})")
    missing = [k for k in required if k not in obj]
    if missing:
        raise RegistryError(f"{where}: missing field(s) {', '.join(missing)}")
    for key, value in obj.items():
        if not isinstance(value, allowed[key]):
            raise RegistryError(f"{where}.{key}: expected {allowed[key].__name__}, got {type(value).__name__}")


def _check_strings(values, where, non_empty=False):
    if not all(isinstance(v, str) and v for v in values):
        raise RegistryError(f"{where}: every item must be a non-empty string")
    if non_empty and not values:
        raise RegistryError(f"{where}: must not be empty")


def _no_duplicate_keys(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise RegistryError(f"duplicate key {key!r} in one object")
        out[key] = value
    return out


# How to start an entry: here, not in bench/, because make (registry_cli.py argv)
# and the bench both build launches and neither may reach into the other.
def server_command(spec, host, port, heartbeat_s, codec=None, naive=None, workers=1, broker=None,
                   log_level="warning", sessions=None, compression=None):
    """The full argv for one registry entry; refuses knobs the server does not have.

    spec: a ServerEntry. host/port: listen address, port 0-65535 (0 =
    any free port); heartbeat_s: seconds > 0. codec: server-python's JSON
    library (None or "json" = the default). naive: None = the entry's own mode
    (--naive for a naive entry of a server that has a fast path too), True/False
    to force it. workers: worker processes, 1-64 (--workers, passed when > 1);
    broker: a redis:// URL (--broker) or None. Several workers need a broker:
    the caller starts a private one (docs/contract/sockbench_contract/private_redis.py) and
    passes its URL. sessions: --sessions N, 1..10,000,000, the sessions the server's processes
    together are to hold (None = not passed); refused for a server without the knob.
    compression: one of COMPRESSIONS (None or "none" = no flag); anything else is refused for a
    server without the knob (docs/compression.md).
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
    if sessions is not None:
        if not spec.has_sessions:
            raise ValueError(f"server {spec.name!r} has no --sessions (SESSIONS={sessions})")
        argv += ["--sessions", str(sessions)]
    if compression not in (None, "none"):
        if compression not in COMPRESSIONS:
            raise ValueError(f"COMPRESSION={compression}: one of {', '.join(COMPRESSIONS)}")
        if not spec.has_compression:
            raise ValueError(f"server {spec.name!r} cannot compress its websockets (COMPRESSION={compression}; "
                             "docs/compression.md)")
        argv += ["--compression", compression]
    return argv
