#!/usr/bin/env node
'use strict';
// Measurement, not a test: what happens to the sockjs-node server's memory when
// one client stops reading while the others keep receiving broadcasts?
// sockjs-node has no cap on what it queues for a session, so everything meant
// for the stalled client piles up in the server process.
//
// Starts broadcast.js (--port 0, through tests/support/server-process.js),
// opens --readers framed websocket sessions that read normally (the first one
// also sends) and one framed session whose socket is paused right after the
// handshake. Broadcasts --rate messages/s of --size bytes for --duration
// seconds, then watches --drain more seconds without traffic. Every second it
// samples the server's resident memory from outside (tests/support/rss.js) and
// prints one Markdown table row. Bounded in time and count; kills the server
// and closes every socket at the end.

const { parseArgs } = require('node:util');
const { randomBytes, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const FayeWebSocket = require('faye-websocket');
const { startServer } = require('../tests/support/server-process');
const { residentBytes } = require('../tests/support/rss');

const USAGE = `usage: node server-node/tools/slow-consumer.js [--duration S] [--drain S] [--rate N]
                                                [--size BYTES] [--readers N] [--heartbeat S]
                                                [--max-session-buffer BYTES] [--naive]

  --duration S    seconds of broadcasting, 1-600 (default 60)
  --drain S       seconds of sampling after broadcasting stops, 0-120 (default 10)
  --rate N        broadcast messages per second, 1-20000 (default 1000)
  --size BYTES    payload size of each message, 16-65536 (default 1024)
  --readers N     sessions that keep reading (the first also sends), 1-50 (default 4)
  --heartbeat S   the server's --heartbeat, seconds, 0.1-3600 (default 25)
  --max-session-buffer BYTES
                  the server's output cap, 1024-2^40 (default 1048576, the server's
                  default); 1099511627776 effectively turns it off, as before the cap existed
  --naive         run the server with --naive (default: fast mode)
`;

const LIMITS = {
  duration: [1, 600, 60], drain: [0, 120, 10], rate: [1, 20000, 1000],
  size: [16, 65536, 1024], readers: [1, 50, 4], heartbeat: [0.1, 3600, 25],
  'max-session-buffer': [1024, 2 ** 40, 1048576],
};

function parseSettings(argv) {
  const options = Object.fromEntries(Object.keys(LIMITS).map((name) => [name, { type: 'string' }]));
  options.help = { type: 'boolean' };
  options.naive = { type: 'boolean' };
  const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  if (values.help) return null;
  const settings = {};
  for (const [name, [min, max, fallback]] of Object.entries(LIMITS)) {
    const value = values[name] === undefined ? fallback : Number(values[name]);
    if (!(Number.isFinite(value) && value >= min && value <= max)) {
      throw new Error(`--${name}: expected a number in [${min}, ${max}], got ${JSON.stringify(values[name])}`);
    }
    settings[name] = value;
  }
  settings.naive = Boolean(values.naive);
  return settings;
}

/** A framed SockJS session that counts the messages it receives. */
function openReader(wsUrl) {
  return new Promise((resolve, reject) => {
    const ws = new FayeWebSocket.Client(`${wsUrl}/broadcast/000/${randomUUID()}/websocket`);
    const reader = { ws, received: 0, closed: false };
    ws.on('message', (event) => {
      if (event.data === 'o') resolve(reader);
      else if (event.data[0] === 'a') reader.received += JSON.parse(event.data.slice(1)).length;
    });
    ws.on('close', () => { reader.closed = true; reject(new Error('reader closed before open')); });
  });
}

/**
 * A framed session whose socket stops being read right after the handshake:
 * the kernel buffers fill, then everything the server writes stays in its memory.
 */
function openStalledSession(baseUrl) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const stalled = { socket };
    let head = '';
    socket.setEncoding('latin1');
    socket.on('error', () => {});
    socket.on('data', function onData(chunk) {
      head += chunk;
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`handshake refused: ${head.split('\r\n')[0]}`));
      socket.pause();
      resolve(stalled);
    });
    socket.write(`GET /broadcast/000/${randomUUID()}/websocket HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`
      + 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n'
      + `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n\r\n`);
  });
}

const TCP_STATES = {
  '01': 'ESTABLISHED', '04': 'FIN_WAIT1', '05': 'FIN_WAIT2', '06': 'TIME_WAIT', '07': 'CLOSE',
  '08': 'CLOSE_WAIT', '09': 'LAST_ACK', '0B': 'CLOSING',
};

/**
 * The stalled connection as the kernel sees it (/proc/net/tcp): the state of
 * the server's end, and the bytes sitting in kernel buffers rather than in the
 * server process (server send queue + stalled client's receive queue).
 */
function stalledConnectionInKernel(serverPort, clientPort) {
  const seen = { serverState: 'gone', kernelBytes: 0 };
  for (const line of fs.readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 5) continue;
    const localPort = parseInt(cols[1].split(':')[1], 16);
    const remotePort = parseInt(cols[2].split(':')[1], 16);
    const [txQueue, rxQueue] = cols[4].split(':').map((hex) => parseInt(hex, 16));
    if (localPort === serverPort && remotePort === clientPort) {
      seen.serverState = TCP_STATES[cols[3]] || cols[3];
      seen.kernelBytes += txQueue;
    }
    if (localPort === clientPort && remotePort === serverPort) seen.kernelBytes += rxQueue;
  }
  return seen;
}

const MiB = 1024 * 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(settings) {
  const server = await startServer(['--heartbeat', String(settings.heartbeat),
    '--max-session-buffer', String(settings['max-session-buffer']), ...(settings.naive ? ['--naive'] : [])]);
  const { wsUrl } = server;
  const readers = [];
  let stalled = null;
  try {
    for (let i = 0; i < settings.readers; i += 1) readers.push(await openReader(wsUrl));
    stalled = await openStalledSession(server.url);
    const sender = readers[0];
    const filler = 'x'.repeat(settings.size);
    // What the server writes per message: a["<payload>"] plus the 4-byte
    // websocket header (2 bytes below 126 B of payload, 10 above 64 KiB).
    const frameBytes = settings.size + 4 + 4;

    console.log(`# ${server.readyLine}`);
    console.log(`# ${settings.readers} reading sessions + 1 stalled session; ${settings.rate} msg/s of ${settings.size} B `
      + `for ${settings.duration} s, then ${settings.drain} s without traffic`);
    console.log('');
    console.log('| t (s) | phase | server RSS (MiB) | messages sent | slowest reader got | '
      + 'broadcast volume per session (MiB) | stalled conn. in kernel buffers (MiB) | server end of stalled conn. |');
    console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |');
    const serverPort = Number(new URL(server.url).port);
    const clientPort = stalled.socket.localPort;

    const rssAtStart = residentBytes(server.child.pid);
    let sent = 0;
    const startedAt = Date.now();
    const pump = setInterval(() => {
      const due = Math.min(settings.rate * settings.duration,
        Math.floor(((Date.now() - startedAt) / 1000) * settings.rate));
      for (; sent < due; sent += 1) sender.ws.send(JSON.stringify([`${sent}:${filler}`.slice(0, settings.size)]));
    }, 10);

    const total = settings.duration + settings.drain;
    for (let second = 0; second <= total; second += 1) {
      await sleep(Math.max(0, startedAt + second * 1000 - Date.now()));
      if (second === settings.duration) clearInterval(pump);
      const rss = residentBytes(server.child.pid);
      const slowest = Math.min(...readers.map((r) => r.received));
      const phase = second <= settings.duration ? 'broadcast' : 'drain';
      const kernel = stalledConnectionInKernel(serverPort, clientPort);
      console.log(`| ${second} | ${phase} | ${(rss / MiB).toFixed(1)} | ${sent} | ${slowest} | `
        + `${((sent * frameBytes) / MiB).toFixed(1)} | ${(kernel.kernelBytes / MiB).toFixed(1)} | ${kernel.serverState} |`);
    }
    clearInterval(pump);
    const rssAtEnd = residentBytes(server.child.pid);
    console.log('');
    console.log(`# RSS ${(rssAtStart / MiB).toFixed(1)} MiB at start, ${(rssAtEnd / MiB).toFixed(1)} MiB at the end`);
  } finally {
    for (const reader of readers) reader.ws.close();
    if (stalled) stalled.socket.destroy();
    await server.stop('SIGTERM', 5000);
    process.stderr.write(server.stderr);  // its log, after the table
  }
}

let settings;
try {
  settings = parseSettings(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`slow-consumer.js: ${err.message}\n\n${USAGE}`);
  process.exit(2);
}
if (settings === null) {
  process.stdout.write(USAGE);
} else {
  measure(settings).then(() => process.exit(0), (err) => {
    process.stderr.write(`slow-consumer.js: ${err.stack || err}\n`);
    process.exit(1);
  });
}
