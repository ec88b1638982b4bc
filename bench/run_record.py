"""What the runner adds to a merged result beyond the client's documents: the registry entry the
run was started from, and how the server was scaled out (results/schema.json; a server the user
runs gets byo_server.record_target instead of the entry)."""

from scaleout import PRIVATE, wants_private_broker

#: The schema id of the files the runner writes (results/schema.json): /3 adds server.entry, /4 the
#: sessions profile's fields (levels[].workers and agents among them, which the runner writes), /5 churn's
#: (parameters.churn_pct, points[].churn: the client writes them when the runner passes CHURN=).
RESULT_SCHEMA = "sockbench.result/5"


def record_entry(doc, entry):
    """The registry entry the run was started from (server.entry, schema v3), so `make compare`
    and the site call it by its registry name."""
    doc["schema"] = RESULT_SCHEMA
    doc["server"]["entry"] = entry.name


def record_scaleout(doc, config):
    """Workers, broker and the broker's pinning in the merged document (schema: server.workers,
    server.broker, pinning.broker_cpus); nothing for a plain one-process run."""
    if config.workers == 1 and config.broker is None:
        return
    private = wants_private_broker(config.workers, config.broker)
    doc["server"]["workers"] = config.workers
    versions = sorted({r["broker"]["version"] for r in doc.get("runs", []) if r.get("broker", {}).get("version")})
    doc["server"]["broker"] = {"url": PRIVATE if private else config.broker, "private": private,
                               "version": ",".join(versions) or None}
    if private:
        doc["pinning"]["broker_cpus"] = None if config.broker_cpus is None else list(config.broker_cpus)
    if config.workers > 1:
        doc["label"] += f" · {config.workers} workers"
        doc["warnings"].append(
            f"{config.workers} workers: per-point server_cpu_pct and server_rss_bytes (and server.pid) are the first "
            f"worker's alone; runs[].server_total sums every serving process (supervisor/primary and workers) "
            f"over each sweep")
