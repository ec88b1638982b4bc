"""The relay's bound on what it holds for a Redis that is up but does not
answer (here: a real private redis-server stopped with SIGSTOP). Without the
bound every publish queued in memory until the process ran out of it.

Checks: the unacknowledged backlog stays within the limit plus one envelope,
what is not relayed is counted, one warning starts the episode and one says
how many were not relayed once Redis caught up, and relaying then works
again (another relay on the same channel receives a new message)."""
from __future__ import annotations

import asyncio
import logging
import time

from sockbench_contract.private_redis import PrivateRedis
from sockbench_server.scaleout.broker_url import parse_broker_url
from sockbench_server.scaleout.relay import SHED_HOLD_FIRST_S, RedisRelay

LIMIT = 64 * 1024
MESSAGE = "x" * 1000
PUBLISHES = 2000  # ~2 MB: 30x the limit


async def _wait_for(predicate, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.05)
    return predicate()


async def _scenario(redis: PrivateRedis) -> dict:
    broker = parse_broker_url(redis.url)
    sender, listener = RedisRelay(broker, backlog_limit=LIMIT), RedisRelay(broker)
    received = []
    listener.set_receiver(lambda kind, body: received.append(body))
    await sender.start()
    await listener.start()
    try:
        redis.freeze()
        try:
            peak = 0
            for i in range(PUBLISHES):
                sender.publish_message("%d:%s" % (i, MESSAGE))
                peak = max(peak, sender.backlog)
                if i % 20 == 0:
                    await asyncio.sleep(0)  # let the writer pipeline what is queued
            shed_while_stopped = sender.not_relayed_total
        finally:
            redis.thaw()
        caught_up = await _wait_for(lambda: sender._shedding is None, SHED_HOLD_FIRST_S + 10)
        sender.publish_message("after")
        relayed_after = await _wait_for(lambda: "after" in received, 10)
        return {"peak": peak, "shed": shed_while_stopped, "caught_up": caught_up,
                "relayed_after": relayed_after, "backlog_after": sender.backlog,
                "total": sender.not_relayed_total}
    finally:
        await sender.stop()
        await listener.stop()


def test_a_stalled_redis_gets_a_bounded_backlog_counted_losses_and_relaying_again(caplog):
    caplog.set_level(logging.WARNING, logger="sockbench.broker")
    redis = PrivateRedis().start()
    try:
        got = asyncio.new_event_loop().run_until_complete(_scenario(redis))
    finally:
        redis.stop()
    assert got["peak"] <= LIMIT + len(MESSAGE) + 16, got
    assert 0 < got["shed"] < PUBLISHES, got
    assert got["caught_up"] and got["relayed_after"] and got["backlog_after"] == 0, got
    lines = [r.getMessage() for r in caplog.records if r.name == "sockbench.broker"]
    started = [line for line in lines if "not keeping up" in line]
    ended = [line for line in lines if "caught up after" in line]
    assert len(started) == 1 and len(ended) == 1, lines
    assert "%d messages (%d publishes)" % (got["shed"], got["shed"]) in ended[0], (got, ended)
    assert not any("lost the" in line for line in lines), lines
