#!/usr/bin/env node
'use strict';
// What one idle session costs the server, measured from outside: start
// broadcast.js, read its RSS (/proc/<pid>/status VmRSS), open N sessions of
// one kind, wait, read the RSS again; the difference over N is the cost per
// session (the figure behind --max-sessions' default, README "Session budget").
//
//   node server-node/tools/session-cost.js [websocket|raw|xhr] [N]   (default: websocket 2000)

const http = require('node:http');
const { randomUUID } = require('node:crypto');
const { startServer } = require('../tests/support/server-process');
const { WsClient } = require('../tests/support/ws-client');

const { residentBytes: rssOf } = require('../tests/support/rss');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function xhrSession(base, agent) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/broadcast/000/${randomUUID()}/xhr`, { method: 'POST', agent }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

async function main() {
  const kind = process.argv[2] || 'websocket';
  const count = Number(process.argv[3] || 2000);
  if (!['websocket', 'raw', 'xhr'].includes(kind) || !(count > 0)) {
    process.stderr.write('usage: session-cost.js [websocket|raw|xhr] [N]\n');
    process.exit(2);
  }
  const server = await startServer(['--max-sessions', String(count + 10)]);
  const clients = [];
  try {
    await sleep(1000);
    const before = rssOf(server.child.pid);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < count; i += 1) {
      if (kind === 'xhr') await xhrSession(server.url, agent);
      else {
        const url = kind === 'raw' ? `${server.wsUrl}/broadcast/websocket` : `${server.wsUrl}/broadcast/000/${randomUUID()}/websocket`;
        clients.push(await WsClient.connect(url));
      }
    }
    await sleep(1000); // xhr sessions live disconnect_delay (5 s): read within it
    const after = rssOf(server.child.pid);
    agent.destroy();
    const perSession = (after - before) / count;
    process.stdout.write(`${kind}: ${count} sessions, RSS ${(before / 2 ** 20).toFixed(1)} -> ` +
      `${(after / 2 ** 20).toFixed(1)} MiB, ${(perSession / 1024).toFixed(1)} KiB per session\n`);
  } finally {
    for (const client of clients) client.destroy();
    await server.stop();
  }
}

main();
