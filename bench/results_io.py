"""Reading and writing result files (results/README.md, schemas sockbench.result/1 to /5) for the bench tools."""

import json
import os

import compression

SCHEMA_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "results", "schema.json")


def readable_schemas():
    """The schema ids a result file may carry: the `schema` enum of results/schema.json (its one source)."""
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        return tuple(json.load(f)["properties"]["schema"]["enum"])


def result_paths(folder):
    """The result files of a folder, sorted: its *.json but results/schema.json and the scale-out summaries
    `make bench-scaleout` writes beside its results (`summary.json`, `<stamp>.summary.json`: another kind
    of file, sockbench.scaleout-summary, which results/scaleout-simulated/ keeps in each run's folder)."""
    names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
    return [os.path.join(folder, n) for n in names
            if n != "schema.json" and n != "summary.json" and not n.endswith(".summary.json")]


def load_result(path):
    """Parse one result file; ValueError naming the file if it carries no schema id results/schema.json accepts."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: cannot read JSON: {exc}") from exc
    accepted = readable_schemas()
    if not isinstance(doc, dict) or doc.get("schema") not in accepted:
        raise ValueError(f"{path}: not a result file (schema must be one of {', '.join(accepted)})")
    return doc


def schema_errors(doc):
    """Every violation of results/schema.json, as readable strings (empty list = valid).

    Needs the `jsonschema` package (installed in .venv-bench by `make setup`).
    """
    import jsonschema  # imported here so compare.py works without it

    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
            for e in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))]


def flow_problems(doc):
    """Points where no messages flowed (nothing sent or nothing received): a broken run, not a slow one."""
    problems = []
    if not doc["levels"]:
        problems.append("no levels in the result")
    for level in doc["levels"]:
        n = level["concurrency"]
        if not level["points"]:
            problems.append(f"level {n}: no points")
        for point in level["points"]:
            if point["sent"] == 0 or point["received"] == 0:
                problems.append(f"level {n} rate {point['target_rate']:g}: sent {point['sent']}, "
                                f"received {point['received']}")
    return problems


def scale_out_tag(server):
    """How a run was scaled out, as the file name and `make compare` name it:
    "" for one process, "w<N>" for N > 1 workers (they always share a broker),
    "w1-broker" for one worker that still relays through a broker (the relay's
    cost alone), "w<N>-<proxy>" for N one-worker processes behind a proxy
    (PROXY=haproxy: "w2-haproxy"). Two runs with different tags are different setups."""
    workers = server.get("workers") or 1
    if workers > 1:
        proxy = (server.get("proxy") or {}).get("name")
        return f"w{workers}-{proxy}" if proxy else f"w{workers}"
    return "w1-broker" if server.get("broker") else ""


def result_file_path(out_dir, doc, when, runtime_tag=None):
    """The one place a result file's name is built.

    The runner names every file it keeps: the merged result of a server's
    repetitions, which only the runner writes; the client writes each
    repetition to the scratch path the runner gives it with `--out`, so
    nothing here depends on a name the client would choose.

    <out_dir>/<date>-<server>-<runtime>-<codec>-<mode>[-<scale-out tag>][-<transports>][-deflate][-<slow readers>].json
    from the document's `server` section (`na` where a server has no codec or
    mode; the tag of `scale_out_tag`), its sessions' transports when they
    are not plain websocket (`transports_tag`), `deflate` when its websockets were
    compressed (compression.file_tag) and its slow readers when it had some
    (`slow_clients_tag`), never overwriting an earlier file (-2,
    -3, ... appended). runtime_tag: the registry entry's runtime_tag (e.g.
    "cpython3.12"), which replaces server.runtime so two CPythons never share
    a name; None = server.runtime.
    """
    server = doc["server"]
    parts = [when.strftime("%Y-%m-%d"), server.get("name") or "unknown", runtime_tag or server.get("runtime") or "unknown",
             server.get("codec") or "na", server.get("mode") or "na"]
    if scale_out_tag(server):
        parts.append(scale_out_tag(server))
    if transports_tag(doc):
        parts.append(transports_tag(doc))
    if compression.file_tag(doc):
        parts.append(compression.file_tag(doc))
    if slow_clients_tag(doc):
        parts.append(slow_clients_tag(doc))
    base = os.path.join(out_dir, "-".join(parts))
    path, n = base + ".json", 2
    while os.path.exists(path):
        path, n = f"{base}-{n}.json", n + 1
    return path


def transports_tag(doc):
    """The file-name tag of a run's transports (parameters.transports, schema v6): '' for websocket
    sessions (and older files), the name for one transport (`xhr-streaming`), the canonical mix with
    its punctuation folded (`websocket16-xhr-streaming2-eventsource1-xhr-polling1`)."""
    spec = doc.get("parameters", {}).get("transports", "websocket")
    return "" if spec == "websocket" else spec.replace(":", "").replace(",", "-")


def slow_clients_tag(doc):
    """The file-name tag of a run's slow readers (parameters.slow_clients): '' without them (and in older
    files), `slow10pct-64kib` for 10 % at 64 KiB/s, `slow12.5pct-8kib` for 12.5 % at 8."""
    slow = doc.get("parameters", {}).get("slow_clients")
    return f"slow{slow['pct']:g}pct-{slow['kib_per_s']}kib" if slow else ""


def write_result(path, doc):
    """Write a result document (UTF-8, 2-space indent, trailing newline) via a temporary file, so a
    crash never leaves half a file behind."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)
