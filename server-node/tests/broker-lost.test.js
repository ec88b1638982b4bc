'use strict';
// Redis lost while broadcasting (--workers 2 --broker): the redis-server is
// killed (SIGKILL, a crash) in the middle of a steady broadcast from one
// sender on each worker. Each worker must keep serving its own sessions - all
// of its sender's messages, in order, exactly once - log the loss once,
// reconnect with backoff when Redis is back, and say how many of its messages
// were not relayed; the other worker's sessions get a gap, never a duplicate
// or a reordering; and once Redis is back the relay works again.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { startServer } = require('./support/server-process');
const { SockjsFramedClient } = require('./support/sockjs-framed');
const { RedisServer } = require('./support/redis-server');
const { ownersOf } = require('./support/socket-owners');

const SESSIONS = 8;
const SEND_INTERVAL_MS = 4;
const WARMUP_MESSAGES = 50;
// Messages in flight when Redis dies can go either way (published and
// relayed but the reply lost, or accepted by Redis' socket and never relayed):
// the count may be off by what was in flight, at most this many per worker.
const IN_FLIGHT_SLACK = 3;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects every message a client receives, in order, until stopped. */
function collect(client) {
  const messages = [];
  let running = true;
  const done = (async () => {
    while (running) {
      try {
        messages.push(await client.next(200));
      } catch (err) {
        if (!/no message within/.test(err.message)) throw err;
      }
    }
  })();
  return { messages, stop: () => { running = false; return done; } };
}

const sequenceOf = (messages, tag) => messages.filter((m) => m.startsWith(`${tag}:`)).map((m) => Number(m.slice(tag.length + 1)));
const range = (from, to) => Array.from({ length: to - from }, (_, i) => from + i);

describe('Redis lost while broadcasting (2 workers)', () => {
  let redis;
  let server;
  const clients = [];
  before(async () => {
    redis = await RedisServer.start();
    server = await startServer(['--workers', '2', '--broker', redis.url]);
  });
  after(async () => {
    for (const client of clients) client.ws.destroy();
    if (server) await server.stop();
    if (redis) await redis.stop();
  });

  it('each worker keeps serving its sessions, logs once, counts what was not relayed, and reconnects', async () => {
    const pids = server.fields.worker_pids.split(',').map(Number);
    for (let i = 0; i < SESSIONS; i += 1) clients.push(await SockjsFramedClient.connect(`${server.wsUrl}/broadcast`));
    const owners = ownersOf(Number(new URL(server.url).port), clients.map((c) => c.ws.localPort()), pids);
    const workerOf = clients.map((c) => owners.get(c.ws.localPort())[0]);
    const onWorker = (k) => clients.map((c, i) => i).filter((i) => workerOf[i] === pids[k]);
    const [sideA, sideB] = [onWorker(0), onWorker(1)];
    assert.ok(sideA.length >= 2 && sideB.length >= 2, `sessions on both workers: ${workerOf}`);
    // Worker index in the log tag follows the order of worker_pids.
    const tagOf = ['worker 1/2', 'worker 2/2'];
    const senders = { A: clients[sideA[0]], B: clients[sideB[0]] };

    const collectors = clients.map(collect);
    const sent = { A: 0, B: 0 };
    const sendOne = () => {
      for (const tag of ['A', 'B']) {
        senders[tag].send(`${tag}:${sent[tag]}`);
        sent[tag] += 1;
      }
    };

    // Warm-up: the relay works - every session has both senders' messages.
    for (let i = 0; i < WARMUP_MESSAGES; i += 1) { sendOne(); await sleep(SEND_INTERVAL_MS); }
    const deadline = Date.now() + 10000;
    while (collectors.some((c) => c.messages.length < 2 * WARMUP_MESSAGES) && Date.now() < deadline) await sleep(20);
    for (const c of collectors) assert.equal(c.messages.length, 2 * WARMUP_MESSAGES, 'warm-up relayed to every session');

    // Crash Redis mid-broadcast; keep sending until both workers said so, and a bit longer.
    const lostPattern = /broker redis:\S+: lost the (publish|subscribe) connection/;
    let crashed = false;
    const sentWhenBothLogged = {};
    const stopAt = Date.now() + 8000;
    while (Date.now() < stopAt) {
      sendOne();
      await sleep(SEND_INTERVAL_MS);
      if (!crashed && sent.A >= WARMUP_MESSAGES + 50) {
        await redis.crash();
        crashed = true;
      }
      if (crashed && sentWhenBothLogged.A === undefined &&
        tagOf.every((tag) => server.stderr.split('\n').some((l) => l.includes(tag) && lostPattern.test(l)))) {
        Object.assign(sentWhenBothLogged, sent);
      }
      if (sentWhenBothLogged.A !== undefined && sent.A >= sentWhenBothLogged.A + 100) break;
    }
    assert.ok(sentWhenBothLogged.A !== undefined, `both workers logged the loss: ${server.stderr}`);
    await sleep(300);

    // Local sessions: every message of their own worker's sender, in order, once.
    for (const [tag, side] of [['A', sideA], ['B', sideB]]) {
      for (const i of side) {
        assert.deepEqual(sequenceOf(collectors[i].messages, tag), range(0, sent[tag]),
          `session ${i}: all of its own worker's sender ${tag}, in order, exactly once`);
      }
    }
    // Remote sessions: a gap, never a duplicate or a reordering; the warm-up complete.
    const relayedCount = {};
    for (const [tag, side] of [['A', sideB], ['B', sideA]]) {
      const counts = side.map((i) => {
        const seq = sequenceOf(collectors[i].messages, tag);
        for (let k = 1; k < seq.length; k += 1) assert.ok(seq[k] > seq[k - 1], `session ${i}, sender ${tag}: increasing ${seq}`);
        assert.deepEqual(seq.slice(0, WARMUP_MESSAGES), range(0, WARMUP_MESSAGES));
        assert.ok(seq.length < sent[tag], `session ${i}: the messages sent while Redis was down did not arrive`);
        return seq.length;
      });
      // Every remote session saw the same relayed messages (one subscription per worker).
      assert.equal(new Set(counts).size, 1, `remote sessions of sender ${tag} agree: ${counts}`);
      relayedCount[tag] = counts[0];
    }
    // One log line per worker for the loss, not one per failed publish or reconnect attempt.
    for (const tag of tagOf) {
      const lines = server.stderr.split('\n').filter((l) => l.includes(tag) && lostPattern.test(l));
      assert.equal(lines.length, 1, `${tag}: one loss line, got ${JSON.stringify(lines)}`);
    }

    // Redis back on the same port: each worker reconnects and reports its count.
    await redis.run();
    const backLines = await server.stderrLines(/reconnected after [0-9.]+ s; \d+ messages/, 2, 15000);
    assert.equal(backLines.length, 2, `both workers reconnected: ${server.stderr}`);
    for (const [k, tag] of [[0, 'A'], [1, 'B']]) {
      const line = backLines.find((l) => l.includes(tagOf[k]));
      assert.ok(line, `${tagOf[k]} reported: ${backLines}`);
      const notRelayed = Number(/; (\d+) messages/.exec(line)[1]);
      // At least everything sent after the worker had logged the loss...
      assert.ok(notRelayed >= sent[tag] - sentWhenBothLogged[tag],
        `${tagOf[k]}: ${notRelayed} not relayed >= ${sent[tag] - sentWhenBothLogged[tag]} sent after the loss was logged`);
      // ...and, up to what was in flight at the crash, exactly what the other side missed.
      const missing = sent[tag] - relayedCount[tag];
      assert.ok(Math.abs(notRelayed - missing) <= IN_FLIGHT_SLACK,
        `${tagOf[k]}: reported ${notRelayed} not relayed, the other worker's sessions missed ${missing}`);
    }

    // And the relay works again.
    const before = collectors.map((c) => c.messages.length);
    senders.A.send('A:after');
    senders.B.send('B:after');
    const until = Date.now() + 5000;
    while (collectors.some((c, i) => c.messages.length < before[i] + 2) && Date.now() < until) await sleep(20);
    for (const [i, c] of collectors.entries()) {
      assert.deepEqual(c.messages.slice(before[i]).sort(), ['A:after', 'B:after'], `session ${i} after the reconnect`);
    }
    await Promise.all(collectors.map((c) => c.stop()));
  });
});
