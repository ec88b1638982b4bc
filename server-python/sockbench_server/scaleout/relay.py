"""The Redis relay of one server process (``--broker``), on redis-py's asyncio
API (its hiredis C parser where installed: CPython; on PyPy the pure-Python
parser, which PyPy's JIT runs faster than hiredis through cpyext).

Every process publishes what its own sessions sent and subscribes to what the
others sent, on ``sockbench:broadcast:<db>`` (docs/protocol.md section 6.1).
Two connections: one in subscribe mode, one publishing. Publishes go through
ONE writer task on ONE connection, pipelined: whatever was queued while the
previous pipeline was in flight goes out as the next one. That keeps each
sender's order (one process, one connection, FIFO) without one round trip per
publish.

Faults (the contract): local sessions never wait for Redis (the broadcaster
writes them directly and only hands envelopes here). When Redis is lost, the
relay logs one warning, counts every message it cannot relay (nothing is
queued for later: late would reorder against what sessions already got),
reconnects with capped exponential backoff, and logs the count once both
connections are back.

A Redis that is up but does not keep up (stopped, swapped out, starved of
CPU) is the other fault: without a bound the queue grows with every publish
until the process runs out of memory. The relay holds at most
``backlog_limit`` characters of envelopes Redis has not acknowledged (queued
plus in flight). A publish beyond that is not relayed (counted, as in an
outage: relaying it later would be late), one warning starts the episode,
and it ends once Redis has acknowledged everything and a hold time has passed
- 1 s, doubling up to 60 s while episodes follow each other within a minute,
so a Redis that stays too slow costs two log lines a minute, not a flood.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import random
import time
from typing import Awaitable, Callable, Optional

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .broker_url import BrokerAddress
from .envelope import EnvelopeError, batch_envelope, message_envelope, new_origin, open_envelope

log = logging.getLogger("sockbench.broker")

#: Reconnect backoff: 100 ms doubling to at most 2 s, up to 20 % jitter so
#: that N workers do not hit a restarted Redis in lockstep.
BACKOFF_FIRST_S = 0.1
BACKOFF_MAX_S = 2.0
#: How long the first connection may take before the process gives up (exit 1).
CONNECT_TIMEOUT_S = 3.0
#: Envelope characters (>= bytes on the wire / 4, = bytes for ASCII) a process
#: may hold for a Redis that does not acknowledge them; 8 Mi: a few hundred ms
#: of a fast-mode broadcast at 10 M msgs/s, far below --max-total-buffer's default.
BACKLOG_LIMIT = 8 * 1024 * 1024
#: Shedding lasts at least this long (s), doubling per episode that starts
#: within SHED_STREAK_S of the last one's end, up to SHED_HOLD_MAX_S.
SHED_HOLD_FIRST_S = 1.0
SHED_HOLD_MAX_S = 60.0
SHED_STREAK_S = 60.0

_LOST = (RedisConnectionError, RedisTimeoutError, OSError, EOFError)

#: Receiver of what other processes published: kind "a" with an ``a[...]``
#: frame, kind "m" with one message.
Receiver = Callable[[str, str], None]


class BrokerUnreachableError(RuntimeError):
    """Redis could not be reached at start; the message is the one line to print."""


def channel_name(broker: BrokerAddress) -> str:
    """The pub/sub channel of one domain (the DB number keeps domains apart)."""
    return f"sockbench:broadcast:{broker.db}"


def backoff_s(attempt: int) -> float:
    """Delay before reconnect attempt ``attempt`` (1, 2, ...), seconds."""
    base = min(BACKOFF_FIRST_S * 2 ** min(attempt - 1, 10), BACKOFF_MAX_S)
    return base * (1 + 0.2 * random.random())


class RedisRelay:
    """``backlog_limit``: envelope characters held for Redis (queued + in
    flight) before publishes are shed, 1 to 2**40 (default BACKLOG_LIMIT)."""

    def __init__(self, broker: BrokerAddress, backlog_limit: int = BACKLOG_LIMIT) -> None:
        if not 1 <= backlog_limit <= 2 ** 40:
            raise ValueError(f"backlog_limit must be 1..2**40 characters, got {backlog_limit}")
        self.broker = broker
        self.channel = channel_name(broker)
        self.origin = new_origin()
        self._receiver: Receiver = lambda kind, body: None
        self._pub: Optional[aioredis.Redis] = None
        self._sub: Optional[aioredis.Redis] = None
        self._pubsub = None
        self._queue: collections.deque = collections.deque()  # (envelope, message count)
        self.backlog_limit = backlog_limit
        #: Envelope characters queued or in flight (not yet acknowledged by Redis).
        self.backlog = 0
        #: Set while shedding: [since (monotonic s), messages, publishes, hold until].
        self._shedding: Optional[list] = None
        self._shed_hold_s = SHED_HOLD_FIRST_S
        self._shed_ended_at = -float("inf")
        self._wake = asyncio.Event()
        self._tasks: list = []
        self._stopping = False
        #: Set while Redis is away: [since (monotonic s), messages, publishes].
        self._outage: Optional[list] = None
        self._pub_ok = False
        self._sub_ok = False
        #: Messages of this process that never reached Redis, since start.
        self.not_relayed_total = 0

    def set_receiver(self, receiver: Receiver) -> None:
        self._receiver = receiver

    def _client(self) -> aioredis.Redis:
        # No retries inside redis-py (its default retries a failed command up
        # to 3 times, which would deliver a publish late, after Redis came
        # back): the relay decides - count it, back off, reconnect.
        return aioredis.Redis(host=self.broker.host, port=self.broker.port,
                              socket_connect_timeout=CONNECT_TIMEOUT_S, retry_on_timeout=False,
                              retry=Retry(NoBackoff(), 0),
                              decode_responses=False, health_check_interval=0)

    async def start(self) -> None:
        """Connect both sides and subscribe; raises BrokerUnreachableError (one line)."""
        try:
            await self._connect_pub()
            await self._connect_sub()
        except (RedisError, OSError) as exc:
            await self._close_clients()
            raise BrokerUnreachableError(f"cannot reach the broker {self.broker.url}: {exc}") from None
        loop = asyncio.get_event_loop()
        self._tasks = [loop.create_task(self._writer()), loop.create_task(self._reader())]

    async def _connect_pub(self) -> None:
        old, self._pub = self._pub, self._client()
        await _close_quietly(old)
        await self._pub.ping()
        self._pub_ok = True

    async def _connect_sub(self) -> None:
        old_pubsub, old = self._pubsub, self._sub
        await _close_quietly(old_pubsub)
        await _close_quietly(old)
        self._sub = self._client()
        self._pubsub = self._sub.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel)
        self._sub_ok = True

    # -- publishing ------------------------------------------------------

    def publish_batch(self, frame: str, count: int) -> None:
        """Relay a flushed batch: ``frame`` is its ``a[...]`` frame, ``count`` its messages."""
        self._enqueue(batch_envelope(self.origin, frame), count)

    def publish_message(self, message: str) -> None:
        """Relay one message (naive mode)."""
        self._enqueue(message_envelope(self.origin, message), 1)

    def _enqueue(self, envelope: str, count: int) -> None:
        if self._outage is not None or not self._pub_ok:
            self._not_relayed(count, 1)
            return
        # An envelope alone bigger than the limit still goes when nothing is pending.
        if self._shedding is None and self.backlog and self.backlog + len(envelope) > self.backlog_limit:
            self._start_shedding()
        if self._shedding is not None:
            self.not_relayed_total += count
            self._shedding[1] += count
            self._shedding[2] += 1
            return
        self.backlog += len(envelope)
        self._queue.append((envelope, count))
        self._wake.set()

    def _acknowledged(self, batch: list) -> None:
        """Redis answered (or the connection failed) for ``batch``: it no longer counts."""
        self.backlog -= sum(len(envelope) for envelope, _ in batch)
        self._maybe_caught_up()

    # -- shedding while Redis is slow -------------------------------------

    def _start_shedding(self) -> None:
        now = time.monotonic()
        streak = now - self._shed_ended_at < SHED_STREAK_S
        self._shed_hold_s = min(self._shed_hold_s * 2, SHED_HOLD_MAX_S) if streak else SHED_HOLD_FIRST_S
        self._shedding = [now, 0, 0, now + self._shed_hold_s]
        log.warning("broker %s: Redis is not keeping up (%d characters of publishes unacknowledged); "
                    "not relaying this process's messages for at least %.0f s, until it has caught up",
                    self.broker.url, self.backlog, self._shed_hold_s)
        asyncio.get_event_loop().call_later(self._shed_hold_s, self._maybe_caught_up)

    def _maybe_caught_up(self) -> None:
        if self._shedding is None or self.backlog > 0 or time.monotonic() < self._shedding[3]:
            return
        since, messages, publishes, _ = self._shedding
        self._shedding = None
        self._shed_ended_at = time.monotonic()
        log.warning("broker %s: Redis caught up after %.1f s; %d messages (%d publishes) from this "
                    "process were not relayed meanwhile", self.broker.url, self._shed_ended_at - since,
                    messages, publishes)

    async def _reconnect(self, connect: Callable[[], Awaitable[None]], attempt: int) -> int:
        """Reconnect attempt ``attempt`` (1, 2, ...) of one side, after its
        backoff: the next attempt's number if it failed, 0 once connected."""
        await asyncio.sleep(backoff_s(attempt))
        try:
            await connect()
        except _LOST:
            return attempt
        self._maybe_back()
        return 0

    async def _writer(self) -> None:
        attempt = 0
        while not self._stopping:
            if not self._pub_ok:
                self._drop_queue()
                attempt = await self._reconnect(self._connect_pub, attempt + 1)
                continue
            await self._wake.wait()
            self._wake.clear()
            if not self._pub_ok or not self._queue:
                continue
            batch = list(self._queue)
            self._queue.clear()
            pipe = self._pub.pipeline(transaction=False)
            for envelope, _ in batch:
                pipe.publish(self.channel, envelope)
            try:
                await pipe.execute()
            except _LOST as exc:
                # In flight when the connection went: may or may not have been
                # relayed; counted as not relayed (the contract's caveat).
                self._lost("publish", exc)
                self._not_relayed(sum(count for _, count in batch), len(batch))
            finally:
                self._acknowledged(batch)

    def _drop_queue(self) -> None:
        """What was queued when Redis went away is not relayed (never late)."""
        if self._queue:
            queued = list(self._queue)
            self._queue.clear()
            self._not_relayed(sum(count for _, count in queued), len(queued))
            self._acknowledged(queued)

    def _not_relayed(self, messages: int, publishes: int) -> None:
        self.not_relayed_total += messages
        if self._outage is None:
            self._lost("publish", None)
        self._outage[1] += messages
        self._outage[2] += publishes

    # -- receiving -------------------------------------------------------

    async def _reader(self) -> None:
        attempt = 0
        while not self._stopping:
            if not self._sub_ok:
                attempt = await self._reconnect(self._connect_sub, attempt + 1)
                continue
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except _LOST as exc:
                self._lost("subscribe", exc)
                continue
            if message is None or message.get("type") != "message":
                continue
            self._received(message["data"])

    def _received(self, data: bytes) -> None:
        try:
            origin, kind, body = open_envelope(data.decode("utf-8"))
        except (UnicodeDecodeError, EnvelopeError) as exc:
            log.warning("broker %s: dropped a message on %s: %s", self.broker.url, self.channel, exc)
            return
        if origin == self.origin:
            return  # our own publish, echoed back: our sessions already have it
        try:
            self._receiver(kind, body)
        except Exception:  # a bug in delivery must not end the subscription
            log.exception("broker %s: delivering a relayed message failed", self.broker.url)

    # -- outage bookkeeping ----------------------------------------------

    def _lost(self, role: str, exc: Optional[BaseException]) -> None:
        if self._stopping:
            return
        # The publish connection starts over whichever side noticed: one
        # that has not failed yet is most likely dead too (Redis went away)
        # and would only find out on the next publish. The subscription is
        # redone only when it failed itself (redoing it could miss messages).
        self._pub_ok = False
        if role == "subscribe":
            self._sub_ok = False
        self._wake.set()
        if self._outage is not None:
            return
        self._outage = [time.monotonic(), 0, 0]
        if self._shedding is not None:
            # The outage's count and its reconnect line take over the episode.
            self._outage[1:3] = self._shedding[1:3]
            self._shedding = None
            self._shed_ended_at = time.monotonic()
        why = f": {exc}" if exc else ""
        log.warning("broker %s: lost the %s connection%s; serving this process's sessions only, "
                    "reconnecting with backoff", self.broker.url, role, why)

    def _maybe_back(self) -> None:
        if self._outage is None or not (self._pub_ok and self._sub_ok):
            return
        since, messages, publishes = self._outage
        self._outage = None
        log.warning("broker %s: reconnected after %.1f s; %d messages (%d publishes) from this "
                    "process were not relayed meanwhile", self.broker.url, time.monotonic() - since,
                    messages, publishes)

    async def _close_clients(self) -> None:
        for client in (self._pubsub, self._pub, self._sub):
            await _close_quietly(client)

    async def stop(self) -> None:
        """Stop the tasks and disconnect; logs the total not relayed, if any."""
        if self._stopping:
            return
        self._stopping = True
        self._wake.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._close_clients()
        if self.not_relayed_total:
            log.warning("broker %s: %d messages from this process were not relayed in total",
                        self.broker.url, self.not_relayed_total)


async def _close_quietly(client: object) -> None:
    """Close a redis-py client or pubsub that may already be broken."""
    if client is None:
        return
    try:
        await client.aclose()  # type: ignore[attr-defined]
    except (RedisError, OSError):
        pass
