#!/usr/bin/env node
'use strict';
// How long a dead worker takes to be replaced: start broadcast.js with
// --workers 2 and a private redis-server, kill -9 one worker N times (3 s
// apart, so 5 deaths never fall within 10 s: no crash loop), and time from
// each kill to (a) the replacement's pid in --status-file (it listens) and
// (b) a framed websocket session opened on that new pid, seen from outside.
// The server (primary, workers, standby) is pinned to CPU 0, as the kit runs
// servers; run this tool on the other CPU.
//
//   taskset -c 1 node server-node/tools/restart-time.js [N]   (default 6)

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startServer } = require('../tests/support/server-process');
const { RedisServer } = require('../tests/support/redis-server');
const { SockjsFramedClient } = require('../tests/support/sockjs-framed');
const { ownersOf } = require('../tests/support/socket-owners');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function readStatus(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

async function main() {
  const kills = Number(process.argv[2] || 6);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'restart-time-'));
  const statusFile = path.join(dir, 'status.json');
  const redis = await RedisServer.start();
  const server = await startServer(['--workers', '2', '--broker', redis.url, '--status-file', statusFile],
    { runtime: ['taskset', '-c', '0', process.execPath] });
  const port = Number(new URL(server.url).port);
  const rows = [];
  try {
    await sleep(1000); // the standby is forked after READY
    for (let k = 0; k < kills; k += 1) {
      const before = readStatus(statusFile).worker_pids;
      const victim = before[k % 2];
      const killedAt = performance.now();
      process.kill(victim, 'SIGKILL');
      let listedMs = null;
      let newPid = null;
      while (listedMs === null) {
        const now = readStatus(statusFile);
        if (now && now.worker_pids.length === 2 && !now.worker_pids.includes(victim)) {
          listedMs = performance.now() - killedAt;
          newPid = now.worker_pids.find((pid) => !before.includes(pid));
        }
        await sleep(1);
      }
      let acceptedMs = null;
      const clients = [];
      while (acceptedMs === null) {
        const client = await SockjsFramedClient.connect(`${server.wsUrl}/broadcast`);
        clients.push(client);
        const owner = ownersOf(port, [client.ws.localPort()], [newPid]).get(client.ws.localPort());
        if (owner.includes(newPid)) acceptedMs = performance.now() - killedAt;
      }
      for (const client of clients) client.ws.destroy();
      rows.push({ victim, newPid, listedMs, acceptedMs });
      process.stdout.write(`kill ${k + 1}: worker pid ${victim} -> ${newPid}: listening after ${listedMs.toFixed(0)} ms, ` +
        `a session on it after ${acceptedMs.toFixed(0)} ms\n`);
      await sleep(3000);
    }
    const accepted = rows.map((r) => r.acceptedMs).sort((a, b) => a - b);
    process.stdout.write(`kill -9 -> new worker accepts a session: min ${accepted[0].toFixed(0)} ms, ` +
      `median ${accepted[Math.floor(accepted.length / 2)].toFixed(0)} ms, max ${accepted.at(-1).toFixed(0)} ms ` +
      `(${rows.length} kills)\n`);
  } finally {
    await server.stop();
    await redis.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
