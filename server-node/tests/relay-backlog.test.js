'use strict';
// The relay's bound on what it holds for a Redis that is up but does not
// answer (a real private redis-server stopped with SIGSTOP). Without it
// ioredis queued every publish until the process ran out of memory.
//
// Checks: the unacknowledged backlog stays within the limit plus one
// envelope, what is not relayed is counted, one warning starts the episode
// and one says how many were not relayed once Redis caught up, and relaying
// works again afterwards (another relay on the channel receives a new message).

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { RedisRelay, SHED_HOLD_FIRST_MS } = require('../src/relay');
const { parseBrokerUrl } = require('../src/broker-url');
const { createLogger } = require('../src/log');
const { RedisServer } = require('./support/redis-server');

const LIMIT = 64 * 1024;
const MESSAGE = 'x'.repeat(1000);
const PUBLISHES = 2000; // ~2 MB: 30x the limit

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(predicate, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await sleep(50);
  }
  return predicate();
}

describe('relay backlog while Redis is stalled', () => {
  let redis;
  before(async () => { redis = await RedisServer.start(); });
  after(async () => { if (redis) await redis.stop(); });

  it('stays bounded, counts what was not relayed, logs one line each way, and relays again', async () => {
    const lines = [];
    const logger = createLogger('warning', (line) => lines.push(line));
    const broker = parseBrokerUrl(redis.url);
    const sender = new RedisRelay({ broker, logger, backlogLimit: LIMIT });
    const listener = new RedisRelay({ broker, logger: createLogger('error', () => {}) });
    const received = [];
    listener.setReceiver((kind, body) => received.push(body));
    await sender.start();
    await listener.start();
    try {
      redis.freeze();
      let peak = 0;
      let shed;
      try {
        for (let i = 0; i < PUBLISHES; i++) {
          sender.publishMessage(`${i}:${MESSAGE}`);
          peak = Math.max(peak, sender.backlog);
          if (i % 20 === 0) await new Promise(setImmediate); // let ioredis write what is queued
        }
        shed = sender.notRelayedTotal;
      } finally {
        redis.thaw();
      }
      assert.ok(peak <= LIMIT + MESSAGE.length + 16, `backlog peaked at ${peak}`);
      assert.ok(shed > 0 && shed < PUBLISHES, `not relayed: ${shed}`);
      assert.ok(await waitFor(() => sender.shedding === null, SHED_HOLD_FIRST_MS + 10000), 'caught up');
      assert.equal(sender.backlog, 0);
      sender.publishMessage('after');
      assert.ok(await waitFor(() => received.includes('after'), 10000), 'relayed again after catching up');
      const started = lines.filter((l) => l.includes('not keeping up'));
      const ended = lines.filter((l) => l.includes('caught up after'));
      assert.equal(started.length, 1, lines.join('\n'));
      assert.equal(ended.length, 1, lines.join('\n'));
      assert.match(ended[0], new RegExp(`; ${shed} messages \\(${shed} publishes\\)`));
      assert.ok(!lines.some((l) => l.includes('lost the')), lines.join('\n'));
    } finally {
      sender.stop();
      listener.stop();
    }
  });
});
