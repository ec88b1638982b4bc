#!/usr/bin/env node
'use strict';
// Fan-out micro-benchmark: how many messages per second the /broadcast path
// delivers, without any network - the Node counterpart of
// server-python/tools/fanout.py.
//
// K framed websocket sessions of the real /broadcast app (the real sockjs-node
// server, Session and WebSocketReceiver, faye-websocket and websocket-driver
// building RFC 6455 frames, and src/broadcasters.js in the mode under test)
// get M messages, B per event-loop turn. The websocket upgrade goes through
// sockjs-node's own request handler, but each session's "socket" is an
// in-memory stream that only counts the bytes it is given. So the number is
// the cost of the broadcast path itself (encode, frame, write into the
// socket's stream), not of the kernel.
//
//   node server-node/tools/fanout.js --sessions 1000 --messages 2000 --per-iteration 1,10
//
// prints one Markdown row per (K, B, mode): delivered messages/s = M * K /
// wall time, median of --repeat timed runs after one untimed warm-up, with
// min - max. Before timing it checks that fast and naive mode deliver the
// same messages, in the same order, to every session.

const path = require('node:path');
const { Duplex } = require('node:stream');
const { parseArgs } = require('node:util');
const { randomUUID, randomBytes } = require('node:crypto');

const SERVER_NODE = path.join(__dirname, '..');
const { createApps } = require(path.join(SERVER_NODE, 'src', 'apps'));
const { createLogger } = require(path.join(SERVER_NODE, 'src', 'log'));
const { assertSupportedSockjs } = require(path.join(SERVER_NODE, 'src', 'sockjs-internals'));

/** A socket that counts what is written to it (and keeps it, for the check). */
class CountingSocket extends Duplex {
  constructor(keep) {
    super();
    this.bytes = 0;
    this.writes = 0;
    this.kept = keep ? [] : null;
    // What sockjs-node and faye-websocket read from a net.Socket.
    this.remoteAddress = '127.0.0.1';
    this.remotePort = 40000;
  }

  _write(chunk, encoding, callback) {
    this.bytes += chunk.length;
    this.writes += 1;
    if (this.kept) this.kept.push(chunk);
    callback();
  }

  _read() {}
  address() { return { address: '127.0.0.1', family: 'IPv4', port: 8080 }; }
  setTimeout() { return this; }
  setNoDelay() { return this; }
  setKeepAlive() { return this; }
}

/** The /broadcast app in `mode`, and K framed websocket sessions on counting sockets. */
async function openSessions(mode, count, keep) {
  const logger = createLogger('error');
  const apps = createApps({
    heartbeatMs: 3600 * 1000, mode, maxSessionBufferBytes: 2 ** 40, logger,
  });
  const app = apps.find((a) => a.prefix === '/broadcast');
  const upgrade = app.server.listener().getHandler();
  const sockets = [];
  for (let i = 0; i < count; i += 1) {
    const socket = new CountingSocket(keep);
    const req = {
      method: 'GET',
      url: `/broadcast/000/${randomUUID()}/websocket`,
      httpVersion: '1.1',
      headers: {
        host: '127.0.0.1:8080', upgrade: 'websocket', connection: 'Upgrade',
        'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'),
      },
      connection: socket,
      socket,
    };
    upgrade(req, socket, Buffer.alloc(0));
    sockets.push(socket);
  }
  // faye-websocket opens on a later tick, sockjs-node emits 'connection' on
  // the tick after that.
  for (let i = 0; i < 100 && app.sessions.size < count; i += 1) await nextTurn();
  if (app.sessions.size !== count) throw new Error(`only ${app.sessions.size} of ${count} sessions opened`);
  return { app, sockets };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function payloads(count) {
  return Array.from({ length: count }, (_, i) => `{"t":${i * 7919},"seq":${i},"pad":"0123456789abcdef"}`);
}

/** Seconds for one run, and the sockets. */
async function runOnce({ mode, sessions, messages, perIteration, keep = false }) {
  const { app, sockets } = await openSessions(mode, sessions, keep);
  const sender = app.sessions.values().next().value;
  const texts = payloads(messages);
  const start = process.hrtime.bigint();
  for (let first = 0; first < messages; first += perIteration) {
    const last = Math.min(first + perIteration, messages);
    // What sockjs-node does for each message it parsed from the sender.
    for (let i = first; i < last; i += 1) sender.emit('data', texts[i]);
    await nextTurn(); // end of the loop turn: fast mode flushes
  }
  await nextTurn();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  for (const conn of [...app.sessions.values()]) conn.close();
  for (const socket of sockets) socket.destroy();
  return { seconds, sockets };
}

/** Messages of the a[...] frames in the server-to-client websocket frames of `socket`. */
function deliveredMessages(socket) {
  let bytes = Buffer.concat(socket.kept);
  bytes = bytes.subarray(bytes.indexOf('\r\n\r\n') + 4); // the 101 response
  const messages = [];
  while (bytes.length > 0) {
    let length = bytes[1] & 0x7f;
    let offset = 2;
    if (length === 126) { length = bytes.readUInt16BE(2); offset = 4; }
    else if (length === 127) { length = Number(bytes.readBigUInt64BE(2)); offset = 10; }
    const text = bytes.subarray(offset, offset + length).toString('utf8');
    if ((bytes[0] & 0x0f) === 1 && text[0] === 'a') messages.push(...JSON.parse(text.slice(1)));
    bytes = bytes.subarray(offset + length);
  }
  return messages;
}

async function checkEquivalence(perIteration) {
  const got = {};
  for (const mode of ['fast', 'naive']) {
    const { sockets } = await runOnce({ mode, sessions: 5, messages: 30, perIteration, keep: true });
    got[mode] = sockets.map(deliveredMessages);
  }
  const expected = payloads(30);
  for (const mode of ['fast', 'naive']) {
    for (const messages of got[mode]) {
      if (JSON.stringify(messages) !== JSON.stringify(expected)) {
        throw new Error(`fanout: ${mode} mode did not deliver every message in order to every session`);
      }
    }
  }
}

function parseCommandLine(argv) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      sessions: { type: 'string', multiple: true },
      messages: { type: 'string' },
      'per-iteration': { type: 'string', multiple: true },
      repeat: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const positive = (name, text, fallback) => {
    if (text === undefined) return fallback;
    if (!/^[1-9][0-9]*$/.test(text)) throw new Error(`--${name}: expected an integer >= 1, got ${JSON.stringify(text)}`);
    return Number(text);
  };
  // `--sessions 100 1000` arrives as one value per flag with parseArgs: accept both forms.
  const list = (name, texts, fallback) =>
    texts === undefined ? fallback : texts.flatMap((t) => t.split(',')).map((t) => positive(name, t));
  return {
    help: Boolean(values.help),
    sessions: list('sessions', values.sessions, [1000]),
    messages: positive('messages', values.messages, 2000),
    perIteration: list('per-iteration', values['per-iteration'], [1, 10]),
    repeat: positive('repeat', values.repeat, 5),
  };
}

const USAGE = `usage: node server-node/tools/fanout.js [--sessions K[,K...]] [--messages M]
                                         [--per-iteration B[,B...]] [--repeat R]

  --sessions K        recipient sessions, >= 1 (default 1000); repeat the flag or comma-separate
  --messages M        messages broadcast per run, >= 1 (default 2000)
  --per-iteration B   messages broadcast per event-loop turn, >= 1 (default 1,10)
  --repeat R          timed runs per row, >= 1 (default 5)
`;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const fmt = (n) => Math.round(n).toLocaleString('en-US');

async function main(argv) {
  let args;
  try {
    args = parseCommandLine(argv);
  } catch (err) {
    process.stderr.write(`fanout.js: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  assertSupportedSockjs();
  for (const b of args.perIteration) await checkEquivalence(b);
  console.log('| runtime | K sessions | M messages | per iteration | mode '
    + '| delivered msgs/s (median) | min - max | fast / naive |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const k of args.sessions) {
    for (const b of args.perIteration) {
      const medians = {};
      for (const mode of ['naive', 'fast']) {
        await runOnce({ mode, sessions: k, messages: args.messages, perIteration: b }); // warm-up (JIT)
        const rates = [];
        for (let r = 0; r < args.repeat; r += 1) {
          const { seconds } = await runOnce({ mode, sessions: k, messages: args.messages, perIteration: b });
          rates.push((args.messages * k) / seconds);
        }
        medians[mode] = median(rates);
        const ratio = mode === 'fast' ? `${(medians.fast / medians.naive).toFixed(1)}x` : '';
        console.log(`| node ${process.versions.node} | ${k} | ${args.messages} | ${b} | ${mode} `
          + `| ${fmt(medians[mode])} | ${fmt(Math.min(...rates))} - ${fmt(Math.max(...rates))} | ${ratio} |`);
      }
    }
  }
}

// Closed sessions leave sockjs-node and faye-websocket timers behind (their
// disconnect and close-handshake delays); nothing is left to wait for.
main(process.argv.slice(2)).then(() => process.exit(0), (err) => {
  process.stderr.write(`fanout.js: ${err.stack || err.message}\n`);
  process.exit(1);
});
