"""How many flushes the servers relayed during a sweep, counted at the private Redis.

Why here: neither server counts or exposes its relay flushes (server-python's
RedisRelay and server-node's relay keep only the count of messages they could
NOT relay). But every relayed flush is exactly one `PUBLISH` (docs/protocol.md
section 6.1: fast mode publishes once per flush, naive once per message), and
the private redis-server is the runner's own, with nothing else publishing to
it. So Redis's `INFO commandstats` line `cmdstat_publish:calls=N,usec=U,...`
read just before and just after the measured client run gives the flushes
(N) and the time Redis itself spent in them (U: receiving each publish and
writing it to every subscribed worker).

A measure.py probe (bench/measure.py `probes=`): `sweep_finished()` adds
`runs[].relay` (results/schema.json run_host.relay); nothing without a
private broker.
"""

from sockbench_contract.private_redis import redis_info


def publish_stats(port):
    """(calls, usec) of PUBLISH since the Redis on 127.0.0.1:`port` started; (0, 0) before the first one.
    OSError/ValueError when it does not answer."""
    line = redis_info(port, section="commandstats").get("cmdstat_publish")
    if line is None:
        return 0, 0
    fields = dict(item.split("=", 1) for item in line.split(",") if "=" in item)
    return int(fields["calls"]), int(fields["usec"])


class RelayCounter:
    """The PUBLISH calls and Redis's time in them over one measured sweep."""

    def __init__(self):
        self.port = None
        self._before = None

    def ready(self, processes, redis):
        self.port = redis.port if redis is not None else None

    def sweep_started(self):
        if self.port is not None:
            self._before = publish_stats(self.port)

    def sweep_finished(self):
        if self.port is None or self._before is None:
            return {}
        calls, usec = publish_stats(self.port)
        publishes, redis_usec = calls - self._before[0], usec - self._before[1]
        return {"relay": {"publishes": publishes, "redis_publish_usec": redis_usec,
                          "source": "redis INFO commandstats cmdstat_publish, before and after the client run"}}
