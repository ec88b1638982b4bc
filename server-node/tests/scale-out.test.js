'use strict';
// --workers and --broker against a real redis-server (Debian's, `make
// setup-redis`): two worker processes on one port joined through Redis are one
// broadcast domain - every session, on either worker, gets every message
// exactly once, each sender's in order, the sender included - in both modes;
// the sessions really are spread over both workers (checked from outside, in
// /proc); a lost Redis leaves each worker serving its own sessions, logged
// once, counted, and reconnected; and the refusals.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { startServer, serverArgv } = require('./support/server-process');
const { SockjsFramedClient } = require('./support/sockjs-framed');
const { RawClient } = require('./support/raw-client');
const { WsClient } = require('./support/ws-client');
const { fetchText } = require('./support/http-client');
const { RedisServer } = require('./support/redis-server');
const { ownersOf } = require('./support/socket-owners');

const SESSIONS = 50;
const MESSAGES_PER_SENDER = 10;

const run = (args) => {
  const [program, ...argv] = serverArgv(['--port', '0', ...args]);
  return spawnSync(program, argv, { encoding: 'utf8', timeout: 20000 });
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const isAlive = (pid) => {
  try { process.kill(pid, 0); return true; } catch { return false; }
};

/** Which worker pid holds each client's server end; asserts exactly one each. */
function workerOf(server, clients) {
  const pids = server.fields.worker_pids.split(',').map(Number);
  const ports = clients.map((c) => c.ws.localPort());
  const owners = ownersOf(Number(new URL(server.url).port), ports, [server.child.pid, ...pids]);
  return ports.map((port, i) => {
    const held = owners.get(port);
    assert.equal(held.length, 1, `session ${i}: server end held by exactly one process, got ${JSON.stringify(held)}`);
    assert.ok(pids.includes(held[0]), `session ${i}: held by a worker (${pids}), not the primary (${server.child.pid})`);
    return held[0];
  });
}

describe('scale-out refusals', () => {
  it('--workers 2 without --broker: one line on stderr, exit 2, no READY', () => {
    const result = run(['--workers', '2']);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, /--workers 2 needs --broker/);
  });

  it('an unreachable broker at start: one line on stderr, exit 1, no READY', () => {
    // Port 1 on loopback: nothing listens there (tcpmux needs root and a daemon).
    for (const workers of ['1', '2']) {
      const result = run(['--workers', workers, '--broker', 'redis://127.0.0.1:1/0']);
      assert.equal(result.status, 1, result.stderr);
      assert.equal(result.stdout, '');
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, /cannot reach the broker redis:\/\/127\.0\.0\.1:1\/0: .*ECONNREFUSED/);
    }
  });

  it('a malformed --broker is a usage error naming the flag (exit 2)', () => {
    const result = run(['--broker', 'http://127.0.0.1:6379/0']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--broker: only redis:\/\/ brokers/);
  });
});

describe('scale-out: 2 workers joined by a real redis-server', () => {
  let redis;
  before(async () => { redis = await RedisServer.start(); });
  after(async () => { if (redis) await redis.stop(); });

  for (const mode of ['fast', 'naive']) {
    it(`${mode}: ${SESSIONS} sessions spread over both workers each get every message exactly once, in each sender's order`, async () => {
      const server = await startServer(['--workers', '2', '--broker', redis.url, ...(mode === 'naive' ? ['--naive'] : [])]);
      const clients = [];
      try {
        assert.equal(server.fields.workers, '2');
        assert.equal(server.fields.broker, redis.url);
        assert.equal(server.fields.mode, mode);
        const pids = server.fields.worker_pids.split(',').map(Number);
        assert.equal(pids.length, 2);
        // Every fifth session a raw websocket: relayed frames must reach them one message at a time.
        for (let i = 0; i < SESSIONS; i += 1) {
          clients.push(await (i % 5 === 4 ? RawClient : SockjsFramedClient).connect(`${server.wsUrl}/broadcast`));
        }
        const owner = workerOf(server, clients);
        for (const pid of pids) {
          const held = owner.filter((p) => p === pid).length;
          assert.ok(held >= 10, `worker ${pid} holds ${held} of ${SESSIONS} sessions; expected a spread over both`);
        }

        const total = SESSIONS * MESSAGES_PER_SENDER;
        const received = clients.map((client) => client.take(total, 20000));
        for (let seq = 0; seq < MESSAGES_PER_SENDER; seq += 1) {
          clients.forEach((client, sender) => client.send(`s${sender}:${seq}`));
        }
        const got = await Promise.all(received);
        for (const [recipient, messages] of got.entries()) {
          assert.equal(new Set(messages).size, total, `recipient ${recipient}: no message twice`);
          for (let sender = 0; sender < SESSIONS; sender += 1) {
            const fromSender = messages.filter((m) => m.startsWith(`s${sender}:`));
            const expected = Array.from({ length: MESSAGES_PER_SENDER }, (_, seq) => `s${sender}:${seq}`);
            assert.deepEqual(fromSender, expected, `recipient ${recipient} (worker ${owner[recipient]}), sender ${sender} (worker ${owner[sender]})`);
          }
        }
        // Exactly once: nothing more arrives afterwards.
        const extra = await Promise.allSettled(clients.map((client) => client.next(300)));
        extra.forEach((result, i) => assert.equal(result.status, 'rejected', `recipient ${i} got more: ${result.value}`));
      } finally {
        for (const client of clients) client.ws.destroy();
        await server.stop();
      }
    });
  }

  it('HTTP transports are refused with a SockJS close frame; websocket still works', async () => {
    const server = await startServer(['--workers', '2', '--broker', redis.url]);
    try {
      const frame = 'c[3010,"Only websocket transports: this server runs several worker processes"]';
      const xhr = await fetchText('POST', `${server.url}/broadcast/000/abc/xhr`);
      assert.equal(xhr.status, 200);
      assert.equal(xhr.body, `${frame}\n`);
      const streaming = await fetchText('POST', `${server.url}/broadcast/000/abd/xhr_streaming`);
      assert.equal(streaming.body, `${'h'.repeat(2048)}\n${frame}\n`);
      const eventsource = await fetchText('GET', `${server.url}/echo/000/abe/eventsource`);
      assert.equal(eventsource.body, `\r\ndata: ${frame}\r\n\r\n`);
      const jsonp = await fetchText('GET', `${server.url}/broadcast/000/abf/jsonp?c=cb`);
      assert.equal(jsonp.body, `cb(${JSON.stringify(frame)});\r\n`);
      const send = await fetchText('POST', `${server.url}/broadcast/000/abc/xhr_send`, { body: '["x"]' });
      assert.equal(send.status, 404);
      const info = await fetchText('GET', `${server.url}/broadcast/info`);
      assert.equal(info.status, 200);
      const client = await SockjsFramedClient.connect(`${server.wsUrl}/broadcast`);
      client.send('still here');
      assert.equal(await client.next(), 'still here');
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it('SIGTERM: every session on every worker gets the goodbye; all processes gone within 2 s, exit 0', async () => {
    const server = await startServer(['--workers', '2', '--broker', redis.url]);
    const pids = server.fields.worker_pids.split(',').map(Number);
    const sockets = [];
    for (let i = 0; i < 6; i += 1) {
      const ws = await WsClient.connect(`${server.wsUrl}/broadcast/000/sess${i}/websocket`);
      assert.equal(await ws.next(), 'o');
      sockets.push(ws);
    }
    assert.equal(new Set(workerOf(server, sockets.map((ws) => ({ ws })))).size, 2, 'sessions on both workers');
    const goodbyes = sockets.map((ws) => ws.next(5000));
    const exit = await server.stop('SIGTERM');
    assert.equal(exit.code, 0);
    assert.ok(exit.elapsedMs < 2000, `exited ${exit.elapsedMs} ms after SIGTERM`);
    for (const frame of await Promise.all(goodbyes)) assert.equal(frame, 'c[3000,"Go away!"]');
    await sleep(100);
    for (const pid of pids) assert.ok(!isAlive(pid), `worker ${pid} gone`);
  });
});
