'use strict';
// A worker that dies is replaced, not mourned (docs/protocol.md §6.2), with
// real processes and a real redis-server: kill -9 one of 2 workers while 50
// sessions receive broadcasts; the other worker's sessions see no gap over
// 1 s and lose nothing; the replacement accepts connections within 1 s; one
// line on stderr; READY once; the status file follows. And the crash loop:
// 5 deaths within 10 s stop the server with one line and exit 1.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startServer } = require('./support/server-process');
const { SockjsFramedClient } = require('./support/sockjs-framed');
const { RedisServer } = require('./support/redis-server');
const { ownersOf } = require('./support/socket-owners');

const SESSIONS = 50;
const SEND_INTERVAL_MS = 20;
const MAX_GAP_MS = 1000;
const REPLACED_WITHIN_MS = 1000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const isAlive = (pid) => {
  try { process.kill(pid, 0); return true; } catch { return false; }
};

/** The status file's content, or null while it does not exist. */
function readStatus(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err; // a partly written file would land here: the rename must prevent it
  }
}

async function until(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(2);
  }
}

/** Which of `pids` holds the server end of each client's connection. */
function ownerOf(server, clients, pids) {
  const ports = clients.map((client) => client.ws.localPort());
  const owners = ownersOf(Number(new URL(server.url).port), ports, pids);
  return ports.map((port) => owners.get(port)[0]);
}

/** Every message a client receives, with its arrival time, until it closes. */
function record(client) {
  const log = { messages: [], times: [], closed: false };
  (async () => {
    for (;;) {
      let message;
      try {
        message = await client.next(60000);
      } catch {
        log.closed = true;
        return;
      }
      log.messages.push(message);
      log.times.push(performance.now());
    }
  })();
  return log;
}

describe('worker replacement (2 workers, real redis-server)', () => {
  let redis;
  let dir;
  before(async () => {
    redis = await RedisServer.start();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-restart-'));
  });
  after(async () => {
    if (redis) await redis.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`kill -9 of one worker: the other worker's ${SESSIONS} sessions see no gap over ${MAX_GAP_MS} ms and no loss, ` +
    `a new worker accepts within ${REPLACED_WITHIN_MS} ms, one line, READY once`, async () => {
    const statusFile = path.join(dir, 'status-kill.json');
    const server = await startServer(['--workers', '2', '--broker', redis.url, '--status-file', statusFile]);
    const clients = [];
    try {
      const firstPids = server.fields.worker_pids.split(',').map(Number);
      assert.deepEqual(readStatus(statusFile),
        { supervisor_pid: server.child.pid, worker_pids: firstPids, restarts: 0 }, 'status file before READY');
      for (let i = 0; i < SESSIONS; i += 1) clients.push(await SockjsFramedClient.connect(`${server.wsUrl}/broadcast`));
      const owner = ownerOf(server, clients, firstPids);
      const sender = clients[0];
      const survivorPid = owner[0];
      const victimPid = firstPids.find((pid) => pid !== survivorPid);
      const survivors = clients.filter((_, i) => owner[i] === survivorPid);
      const victims = clients.filter((_, i) => owner[i] === victimPid);
      assert.ok(survivors.length >= 10 && victims.length >= 10,
        `sessions spread over both workers: ${survivors.length} / ${victims.length}`);
      const logs = survivors.map(record);

      // A steady broadcast from a survivor's session, before and after the kill.
      let sent = 0;
      const ticker = setInterval(() => { sender.send(`m${sent}`); sent += 1; }, SEND_INTERVAL_MS);
      await sleep(1000);
      const killedAt = performance.now();
      process.kill(victimPid, 'SIGKILL');

      const status = await until(() => {
        const now = readStatus(statusFile);
        return now && now.worker_pids.length === 2 && !now.worker_pids.includes(victimPid) ? now : null;
      }, 5000, 'a replacement in the status file');
      const newPid = status.worker_pids.find((pid) => pid !== survivorPid);
      // Round robin: of two new sessions, one lands on the new worker.
      const fresh = await Promise.all([0, 1].map(() => SockjsFramedClient.connect(`${server.wsUrl}/broadcast`)));
      const acceptedAfterMs = performance.now() - killedAt;
      clients.push(...fresh);
      const freshOwners = ownerOf(server, fresh, [survivorPid, newPid]);
      assert.ok(freshOwners.includes(newPid), `a new session on the new worker ${newPid}: ${freshOwners}`);
      assert.ok(acceptedAfterMs < REPLACED_WITHIN_MS,
        `the new worker accepted a session ${Math.round(acceptedAfterMs)} ms after the kill`);

      await sleep(1500);
      clearInterval(ticker);
      await sleep(500);

      const expected = Array.from({ length: sent }, (_, i) => `m${i}`);
      for (const [i, log] of logs.entries()) {
        assert.deepEqual(log.messages, expected, `survivor ${i}: every message, in order`);
        assert.ok(!log.closed, `survivor ${i}: still open`);
        const gaps = log.times.slice(1).map((t, k) => t - log.times[k]);
        const worst = Math.max(...gaps);
        assert.ok(worst <= MAX_GAP_MS, `survivor ${i}: largest gap ${Math.round(worst)} ms`);
      }
      for (const client of victims) {
        await client.ws.waitClosed(5000); // its sessions are lost: the connections end
      }
      assert.deepEqual(status, { supervisor_pid: server.child.pid, worker_pids: status.worker_pids, restarts: 1 });
      assert.deepEqual(status.worker_pids, firstPids.map((pid) => (pid === victimPid ? newPid : pid)),
        'the replacement takes the dead worker\'s place (index order)');
      const lines = server.stderr.split('\n').filter((line) => line.includes('ended'));
      assert.equal(lines.length, 1, server.stderr);
      assert.match(lines[0], new RegExp(`worker [12]/2 pid ${victimPid} ended \\(signal 9\\); ` +
        'restarting it \\(restarts so far: 1\\)$'));
      assert.equal(server.stdoutLines.length, 1, `READY once: ${JSON.stringify(server.stdoutLines)}`);
    } finally {
      for (const client of clients) client.ws.destroy();
      const exit = await server.stop();
      assert.equal(exit.code, 0);
    }
    assert.equal(readStatus(statusFile), null, 'status file removed at exit');
  });

  it('a crash loop (5 deaths within 10 s) stops the server: one line, every worker gone, exit 1', async () => {
    const statusFile = path.join(dir, 'status-loop.json');
    const server = await startServer(['--workers', '2', '--broker', redis.url, '--status-file', statusFile]);
    const keeper = Number(server.fields.worker_pids.split(',')[0]);
    const killed = [];
    try {
      for (let death = 1; death <= 5; death += 1) {
        const status = await until(() => {
          const now = readStatus(statusFile);
          return now && now.worker_pids.length === 2 && !now.worker_pids.some((pid) => killed.includes(pid)) ? now : null;
        }, 5000, `worker ${death} up`);
        const victim = status.worker_pids.find((pid) => pid !== keeper);
        killed.push(victim);
        process.kill(victim, 'SIGKILL');
      }
      const exit = await Promise.race([server.exited, sleep(5000).then(() => null)]);
      assert.ok(exit !== null, 'the server stopped on its own');
      assert.equal(exit.code, 1);
      const restarts = server.stderr.split('\n').filter((line) => /restarting it/.test(line));
      assert.equal(restarts.length, 4, server.stderr);
      const stops = server.stderr.split('\n').filter((line) => /stopping the server/.test(line));
      assert.equal(stops.length, 1, server.stderr);
      assert.match(stops[0], new RegExp(`5 worker deaths within 10 s \\(last: worker 2/2 pid ${killed[4]}, ` +
        'signal 9\\); stopping the server$'));
      await sleep(200);
      assert.ok(!isAlive(keeper), 'the other worker stopped too');
      assert.equal(readStatus(statusFile), null, 'status file removed');
    } finally {
      await server.stop();
    }
  });

  it('--workers 1 --status-file: the process\'s own pid, written before READY, removed at exit', async () => {
    const statusFile = path.join(dir, 'status-single.json');
    const server = await startServer(['--status-file', statusFile]);
    assert.deepEqual(readStatus(statusFile),
      { supervisor_pid: server.child.pid, worker_pids: [server.child.pid], restarts: 0 });
    assert.equal((await server.stop()).code, 0);
    assert.equal(readStatus(statusFile), null);
  });
});
