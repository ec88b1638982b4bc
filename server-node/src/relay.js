'use strict';
// The Redis relay that joins server processes into one broadcast domain
// (--broker). Every process publishes what its own sessions sent and
// subscribes to what the others sent, on one channel per Redis database:
//
//   PUBLISH sockbench:broadcast:<db> <envelope>     (src/relay-envelope.js)
//
// Two connections, because a Redis connection in subscribe mode cannot
// publish. Delivery to the process's own sessions never waits for Redis (the
// broadcaster writes them directly), so when Redis is lost every process keeps
// serving its own sessions; the relay logs the loss once, reconnects with
// capped exponential backoff (ioredis' retryStrategy), and when both
// connections are back logs how many of this process's messages were not
// relayed meanwhile. Nothing is queued or replayed while Redis is away: a
// message either reaches the other processes in order, or is counted as lost.
//
// A Redis that is up but does not keep up (stopped, swapped out, starved of
// CPU) is the other fault: ioredis would queue every publish until the
// process runs out of memory. The relay holds at most `backlogLimit`
// characters of envelopes Redis has not acknowledged (written or not). A
// publish beyond that is not relayed (counted, as in an outage), one warning
// starts the episode, and it ends once Redis has acknowledged everything and
// a hold time has passed: 1 s, doubling up to 60 s while episodes follow each
// other within a minute (two log lines a minute for a Redis that stays slow).
// Same rule and numbers as server-python's relay (docs/protocol.md §6).
//
// Per-sender order across processes: one sender's messages are published by
// one process, in flush order, on one connection; Redis delivers the messages
// of one publisher connection to each subscriber in that order.

const Redis = require('ioredis');
const { batchEnvelope, messageEnvelope, openEnvelope, newOrigin, EnvelopeError } = require('./relay-envelope');

// Reconnect backoff: 100 ms doubling to at most 2 s, each with up to 20 %
// jitter so that N workers do not hit a restarted Redis in lockstep.
const BACKOFF_FIRST_MS = 100;
const BACKOFF_MAX_MS = 2000;
// How long the first connection may take before the process gives up (exit 1).
const CONNECT_TIMEOUT_MS = 3000;

// Envelope characters (= bytes for ASCII) a process may hold for a Redis that
// does not acknowledge them: 8 Mi, a few hundred ms of a fast-mode broadcast.
const BACKLOG_LIMIT = 8 * 1024 * 1024;
// Shedding lasts at least this long, doubling per episode that starts within
// SHED_STREAK_MS of the last one's end, up to SHED_HOLD_MAX_MS.
const SHED_HOLD_FIRST_MS = 1000;
const SHED_HOLD_MAX_MS = 60000;
const SHED_STREAK_MS = 60000;

/** Redis could not be reached when the process started. */
class BrokerUnreachableError extends Error {}

/** The pub/sub channel of one broadcast domain: the database number keeps domains apart (pub/sub ignores SELECT). */
function channelName(broker) {
  return `sockbench:broadcast:${broker.db}`;
}

function backoffMs(attempt) {
  const base = Math.min(BACKOFF_FIRST_MS * 2 ** Math.min(attempt - 1, 10), BACKOFF_MAX_MS);
  return Math.round(base * (1 + 0.2 * Math.random()));
}

class RedisRelay {
  /**
   * @param {object} options
   * @param {import('./broker-url').BrokerAddress} options.broker
   * @param {ReturnType<import('./log').createLogger>} options.logger
   * @param {number} [options.backlogLimit] envelope characters held for Redis (unacknowledged)
   *        before publishes are shed, 1 to 2**40 (default 8 Mi)
   */
  constructor({ broker, logger, backlogLimit = BACKLOG_LIMIT }) {
    if (!(Number.isInteger(backlogLimit) && backlogLimit >= 1 && backlogLimit <= 2 ** 40)) {
      throw new RangeError(`backlogLimit must be an integer 1..2**40 characters, got ${backlogLimit}`);
    }
    this.backlogLimit = backlogLimit;
    /** Envelope characters published and not yet acknowledged by Redis. */
    this.backlog = 0;
    /** Set while shedding: {since, messages, publishes, holdUntil} (ms, counts). */
    this.shedding = null;
    this.shedHoldMs = SHED_HOLD_FIRST_MS;
    this.shedEndedAt = -Infinity;
    this.broker = broker;
    this.channel = channelName(broker);
    this.logger = logger;
    // Until the broadcast app is set up there are no sessions to deliver to.
    this.onRemote = () => {};
    this.origin = newOrigin();
    this.started = false;
    this.stopping = false;
    /** Set while Redis is away: {since: ms, messages: n, publishes: n} not relayed during this outage. */
    this.outage = null;
    /** Messages of this process that never reached Redis, since start. */
    this.notRelayedTotal = 0;
    this.lastError = null;
    this.pub = this._connection('publish');
    this.sub = this._connection('subscribe');
    this.sub.on('message', (channel, envelope) => this._received(envelope));
  }

  _connection(role) {
    const connection = new Redis({
      host: this.broker.host,
      port: this.broker.port,
      lazyConnect: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Fail at once instead of queueing while disconnected: a publish that
      // cannot go out now is counted as not relayed, never replayed late
      // (late would break the order against what the sessions already got).
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      // Before start() succeeded: no retries (start reports the failure and
      // the process exits 1). After: reconnect forever with backoff.
      retryStrategy: (attempt) => (this.started && !this.stopping ? backoffMs(attempt) : null),
      connectionName: `sockbench-${role}-${process.pid}`,
    });
    // ioredis emits 'error' on every failed attempt; one log line per outage
    // is enough (see _lost), the rest is remembered for the messages.
    connection.on('error', (err) => { this.lastError = err; });
    connection.on('close', () => this._lost(role));
    connection.on('ready', () => this._maybeBack());
    return connection;
  }

  /**
   * Connect both connections and subscribe.
   * @throws {BrokerUnreachableError} one line: which broker and why
   */
  async start() {
    try {
      await Promise.all([this.pub.connect(), this.sub.connect()]);
      await this.sub.subscribe(this.channel);
    } catch (err) {
      this.stopping = true;
      this.pub.disconnect();
      this.sub.disconnect();
      const why = (this.lastError || err).message;
      throw new BrokerUnreachableError(`cannot reach the broker ${this.broker.url}: ${why}`);
    }
    this.started = true;
  }

  /**
   * @param {(kind: 'a'|'m', body: string) => void} receiver called for every
   *        envelope another process published: kind 'a' with an `a[...]`
   *        frame, kind 'm' with one message
   */
  setReceiver(receiver) {
    this.onRemote = receiver;
  }

  /** Relay a flushed batch: `frame` is its `a[...]` frame, `count` its number of messages. */
  publishBatch(frame, count) {
    this._publish(batchEnvelope(this.origin, frame), count);
  }

  /** Relay one message (naive mode). */
  publishMessage(message) {
    this._publish(messageEnvelope(this.origin, message), 1);
  }

  _publish(envelope, count) {
    if (this.outage !== null || this.pub.status !== 'ready') {
      this._notRelayed(count);
      return;
    }
    // An envelope alone bigger than the limit still goes when nothing is pending.
    if (this.shedding === null && this.backlog > 0 && this.backlog + envelope.length > this.backlogLimit) {
      this._startShedding();
    }
    if (this.shedding !== null) {
      this.notRelayedTotal += count;
      this.shedding.messages += count;
      this.shedding.publishes += 1;
      return;
    }
    const size = envelope.length;
    this.backlog += size;
    this.pub.publish(this.channel, envelope).then(() => this._acknowledged(size), () => {
      // Rejected when the connection drops with the command in flight: Redis
      // may or may not have relayed it; counted as not relayed.
      this._notRelayed(count);
      this._acknowledged(size);
    });
  }

  _acknowledged(size) {
    this.backlog -= size;
    this._maybeCaughtUp();
  }

  _startShedding() {
    const now = Date.now();
    const streak = now - this.shedEndedAt < SHED_STREAK_MS;
    this.shedHoldMs = streak ? Math.min(this.shedHoldMs * 2, SHED_HOLD_MAX_MS) : SHED_HOLD_FIRST_MS;
    this.shedding = { since: now, messages: 0, publishes: 0, holdUntil: now + this.shedHoldMs };
    this.logger.warning(`broker ${this.broker.url}: Redis is not keeping up (${this.backlog} characters of publishes ` +
      `unacknowledged); not relaying this process's messages for at least ${Math.round(this.shedHoldMs / 1000)} s, ` +
      'until it has caught up');
    setTimeout(() => this._maybeCaughtUp(), this.shedHoldMs).unref();
  }

  _maybeCaughtUp() {
    if (this.shedding === null || this.backlog > 0 || Date.now() < this.shedding.holdUntil) return;
    const { since, messages, publishes } = this.shedding;
    this.shedding = null;
    this.shedEndedAt = Date.now();
    this.logger.warning(`broker ${this.broker.url}: Redis caught up after ${((this.shedEndedAt - since) / 1000).toFixed(1)} s; ` +
      `${messages} messages (${publishes} publishes) from this process were not relayed meanwhile`);
  }

  _notRelayed(count) {
    this.notRelayedTotal += count;
    if (this.outage === null) this._lost('publish');
    this.outage.messages += count;
    this.outage.publishes += 1;
  }

  _received(envelope) {
    let opened;
    try {
      opened = openEnvelope(envelope);
    } catch (err) {
      if (!(err instanceof EnvelopeError)) throw err;
      this.logger.warning(`broker ${this.broker.url}: dropped a message on ${this.channel}: ${err.message}`);
      return;
    }
    // Our own publish, echoed back: our sessions already have it.
    if (opened.origin === this.origin) return;
    this.onRemote(opened.kind, opened.body);
  }

  _lost(role) {
    if (!this.started || this.stopping || this.outage !== null) return;
    this.outage = { since: Date.now(), messages: 0, publishes: 0 };
    if (this.shedding !== null) {
      // The outage's count and its reconnect line take over the episode.
      this.outage.messages = this.shedding.messages;
      this.outage.publishes = this.shedding.publishes;
      this.shedding = null;
      this.shedEndedAt = Date.now();
    }
    const why = this.lastError ? `: ${this.lastError.message}` : '';
    this.logger.warning(`broker ${this.broker.url}: lost the ${role} connection${why}; ` +
      `serving this process's sessions only, reconnecting with backoff`);
  }

  _maybeBack() {
    if (this.outage === null || this.stopping) return;
    if (this.pub.status !== 'ready' || this.sub.status !== 'ready') return;
    const { since, messages, publishes } = this.outage;
    this.outage = null;
    this.logger.warning(`broker ${this.broker.url}: reconnected after ${((Date.now() - since) / 1000).toFixed(1)} s; ` +
      `${messages} messages (${publishes} publishes) from this process were not relayed meanwhile`);
  }

  /** Disconnect; logs the total not relayed if any. */
  stop() {
    if (this.stopping) return;
    this.stopping = true;
    this.pub.disconnect();
    this.sub.disconnect();
    if (this.notRelayedTotal > 0) {
      this.logger.warning(`broker ${this.broker.url}: ${this.notRelayedTotal} messages from this process were not relayed in total`);
    }
  }
}

module.exports = { RedisRelay, BrokerUnreachableError, channelName, backoffMs, SHED_HOLD_FIRST_MS };
