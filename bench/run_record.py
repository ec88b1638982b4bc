"""What the runner adds to a merged result beyond the client's documents: the registry entry the
run was started from, and how the server was scaled out (results/schema.json; a server the user
runs gets byo_server.record_target instead of the entry)."""

from scaleout import PRIVATE, wants_private_broker

#: The schema id of the files the runner writes (results/schema.json): /3 adds server.entry, /4 the
#: sessions profile's fields (levels[].workers and agents among them, which the runner writes), /5 churn's
#: (parameters.churn_pct, points[].churn: the client writes them when the runner passes CHURN=), /6 the
#: transports' (parameters.transports, points[].transports with a mix: TRANSPORTS=).
RESULT_SCHEMA = "sockbench.result/6"


def record_entry(doc, entry):
    """The registry entry the run was started from (server.entry, schema v3), so `make compare`
    and the site call it by its registry name."""
    doc["schema"] = RESULT_SCHEMA
    doc["server"]["entry"] = entry.name


def record_scaleout(doc, config, per_point_sums=False):
    """Workers, broker and the broker's pinning in the merged document (schema: server.workers,
    server.broker, pinning.broker_cpus); nothing for a plain one-process run.

    per_point_sums: the client was given every serving process (`--server-pids`, the sessions
    profile), so its per-point server figures already sum the workers; the warning must then not
    call them the first worker's (bench/group_merge.py's group note says they are summed)."""
    if config.workers == 1 and config.broker is None:
        return
    private = wants_private_broker(config.workers, config.broker)
    doc["server"]["workers"] = config.workers
    versions = sorted({r["broker"]["version"] for r in doc.get("runs", []) if r.get("broker", {}).get("version")})
    doc["server"]["broker"] = {"url": PRIVATE if private else config.broker, "private": private,
                               "version": ",".join(versions) or None}
    if private:
        doc["pinning"]["broker_cpus"] = None if config.broker_cpus is None else list(config.broker_cpus)
    proxies = [r["proxy"] for r in doc.get("runs", []) if r.get("proxy")]
    if config.proxy is not None:
        versions = sorted({p["version"] for p in proxies if p.get("version")})
        doc["server"]["proxy"] = {"name": config.proxy, "version": ",".join(versions) or None}
    if config.workers > 1:
        doc["label"] += f" · {config.workers} workers" + (f" behind {config.proxy}" if config.proxy else "")
        doc["server"]["per_point_scope"] = "all_processes" if per_point_sums else "first_worker"
        per_point = ("per-point server_cpu_pct and server_rss_bytes sum every serving process; server.pid is "
                     "the first worker's" if per_point_sums else
                     "per-point server_cpu_pct and server_rss_bytes (and server.pid) are the first worker's alone")
        doc["warnings"].append(
            f"{config.workers} workers: {per_point}; runs[].server_total sums every serving process "
            f"(supervisor/primary and workers{f', and {config.proxy}' if config.proxy else ''}) over each sweep")
