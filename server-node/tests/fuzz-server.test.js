'use strict';
// A real server process fuzzed over real sockets (fast-check, seeded and
// bounded): malformed and random websocket frames on framed and raw sessions,
// random xhr_send bodies, mutated HTTP requests. Every case must END - the
// session answers a probe, or the server closes it (SockJS close frame,
// WebSocket close, TCP close), or an HTTP error comes back - within a few
// seconds, never hang. Afterwards: the server is up and answering, its
// stderr holds nothing but one-line log records (no exception, no stack
// trace), its live heap is back near where it started (measured after full
// garbage collections by tests/support/heap-probe.js), and every session it
// counted is gone (the whole --max-sessions budget can be taken again).
// FUZZ_SEED=<n> replays a run; FUZZ_RUNS=<n> scales the case counts.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const net = require('node:net');
const { randomUUID } = require('node:crypto');
const fc = require('fast-check');
const { startServer } = require('./support/server-process');
const { fetchText } = require('./support/http-client');
const { WireClient } = require('./support/ws-wire');

const SEED = Number(process.env.FUZZ_SEED || 27);
const SCALE = Number(process.env.FUZZ_RUNS || 500) / 500;
const CASES = {
  framed: Math.round(150 * SCALE), raw: Math.round(60 * SCALE), xhr: Math.round(80 * SCALE),
  http: Math.round(200 * SCALE),
};
const MAX_SESSIONS = 200;
const HEADER_TIMEOUT_S = 1;
const CASE_TIMEOUT_MS = 8000;
// Live heap (sessions expired, full GC): after the run vs at start (the
// first round also compiles and caches what every later one reuses), and
// what a second round of as many cases adds (a leak adds per round).
const HEAP_SLACK_BYTES = 4 * 1024 * 1024;
const HEAP_ROUND_SLACK_BYTES = 1024 * 1024;
// RSS is reported, and only bounded loosely: V8 and malloc keep memory they
// grew for the largest payloads (a 20,000-message frame), so RSS after a run
// is a high-water mark. A second round of as many cases may add this much.
const RSS_ROUND_SLACK_BYTES = 32 * 1024 * 1024;

const { residentBytes: rssOf } = require('./support/rss');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const HEAP_PROBE = require.resolve('./support/heap-probe');
// Log records: "<ISO time> <SEVERITY> <text>" on one line. Anything else on
// stderr (a stack trace's lines) or an exception report is a failure.
const LOG_RECORD = /^\d{4}-\d\d-\d\dT[\d:.]+Z (DEBUG|INFO|WARNING|ERROR) /;
const EXCEPTION = /Exception|TypeError|RangeError|ReferenceError|SyntaxError|Uncaught/;
const MiB = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

// --- what the fuzzer sends -------------------------------------------------

/** Mutations of a valid text: a character replaced, inserted or dropped, a cut. */
function mutated(base) {
  return fc.array(fc.tuple(fc.nat(), fc.constantFrom('replace', 'insert', 'drop', 'cut'), fc.string({ unit: 'binary', minLength: 1, maxLength: 3 })),
    { minLength: 1, maxLength: 4 })
    .map((edits) => edits.reduce((text, [at, kind, with_]) => {
      const i = text.length === 0 ? 0 : at % text.length;
      if (kind === 'replace') return text.slice(0, i) + with_ + text.slice(i + 1);
      if (kind === 'insert') return text.slice(0, i) + with_ + text.slice(i);
      if (kind === 'drop') return text.slice(0, i) + text.slice(i + 1);
      return text.slice(0, i);
    }, base));
}

/** Text payloads: strings, JSON of every shape, huge arrays, deep nesting, mutated frames. */
const textPayload = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.json(),
  fc.jsonValue().map((value) => JSON.stringify([value])),
  fc.array(fc.jsonValue(), { maxLength: 10 }).map((values) => JSON.stringify(values)),
  fc.integer({ min: 1000, max: 20000 }).map((n) => JSON.stringify(Array.from({ length: n }, (_, i) => `m${i}`))),
  fc.integer({ min: 100, max: 50000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  mutated('["hello","world"]'),
  mutated('"hello"'),
);

/** A websocket frame of any kind: text, invalid UTF-8, binary, reserved opcodes and bits, unmasked, bad control frames. */
const anyFrame = fc.oneof(
  { weight: 6, arbitrary: textPayload.map((text) => ({ opcode: 1, payload: Buffer.from(text) })) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ opcode: 1, payload: Buffer.concat([Buffer.from('["'), Buffer.from(bytes), Buffer.from([0xff, 0xfe]), Buffer.from('"]')]) })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ opcode: 2, payload: Buffer.from(bytes) })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(3, 4, 5, 6, 7, 11, 12, 13, 14, 15), fc.uint8Array({ maxLength: 16 }))
    .map(([opcode, bytes]) => ({ opcode, payload: Buffer.from(bytes) })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 7 }).map((rsv) => ({ opcode: 1, rsv, payload: Buffer.from('["x"]') })) },
  { weight: 1, arbitrary: fc.constant({ opcode: 1, masked: false, payload: Buffer.from('["x"]') }) },
  { weight: 1, arbitrary: fc.constant({ opcode: 9, payload: Buffer.alloc(200, 1) }) },
  { weight: 1, arbitrary: fc.constant({ opcode: 1, fin: false, payload: Buffer.from('["frag') }) },
  { weight: 1, arbitrary: fc.constant({ opcode: 0, payload: Buffer.from('ment"]') }) },
);

/** xhr_send bodies: the text payloads, raw bytes (invalid UTF-8 too), nothing at all. */
const sendBody = fc.oneof(
  { weight: 5, arbitrary: textPayload.map((text) => Buffer.from(text)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
);

/** Valid requests to mutate at the byte level. */
function baseRequests(port) {
  const host = `Host: 127.0.0.1:${port}\r\n`;
  const id = randomUUID();
  return [
    `GET /broadcast/info HTTP/1.1\r\n${host}\r\n`,
    `POST /echo/000/${id}/xhr HTTP/1.1\r\n${host}Content-Length: 0\r\n\r\n`,
    `POST /echo/000/${id}/xhr_send HTTP/1.1\r\n${host}Content-Type: text/plain\r\nContent-Length: 9\r\n\r\n["probe"]`,
    `GET /broadcast/000/${id}/jsonp?c=callback HTTP/1.1\r\n${host}\r\n`,
    `POST /broadcast/000/${id}/jsonp_send HTTP/1.1\r\n${host}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 15\r\n\r\nd=%5B%22x%22%5D`,
    `GET /broadcast/000/${id}/websocket HTTP/1.1\r\n${host}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    `GET /broadcast/iframe.html HTTP/1.1\r\n${host}If-None-Match: "x"\r\n\r\n`,
  ];
}

function mutatedRequest(port) {
  const bases = baseRequests(port);
  return fc.tuple(fc.nat(bases.length - 1), fc.array(fc.tuple(fc.nat(), fc.constantFrom('flip', 'insert', 'drop', 'repeat'),
    fc.uint8Array({ minLength: 1, maxLength: 8 })), { minLength: 0, maxLength: 6 }))
    .map(([which, edits]) => edits.reduce((bytes, [at, kind, data]) => {
      const i = bytes.length === 0 ? 0 : at % bytes.length;
      if (kind === 'flip') { const copy = Buffer.from(bytes); copy[i] ^= data[0] || 1; return copy; }
      if (kind === 'insert') return Buffer.concat([bytes.subarray(0, i), Buffer.from(data), bytes.subarray(i)]);
      if (kind === 'drop') return Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + data.length)]);
      return Buffer.concat([bytes.subarray(0, i), bytes.subarray(i, i + 40), bytes.subarray(i)]);
    }, Buffer.from(bases[which], 'latin1')));
}

// --- how a case ends -----------------------------------------------------

/**
 * Send `frames`, then a probe; resolves with how the session ended up.
 * @param {(text: string) => boolean} answered whether a text frame carries the probe back
 */
async function websocketCase(port, path, { framed, frames, probe, answered }) {
  const client = await WireClient.open(port, path);
  try {
    if (framed) await client.until(() => client.texts().includes('o'), CASE_TIMEOUT_MS, 'the open frame');
    for (const frame of frames) client.send(frame);
    client.sendText(probe);
    return await client.until(() => {
      if (client.texts().some(answered)) return 'answered the probe';
      if (client.texts().some((text) => text.startsWith('c['))) return 'SockJS close frame';
      if (client.closeFrame) return 'WebSocket close frame';
      if (client.ended) return 'TCP close';
      return null;
    }, CASE_TIMEOUT_MS, `case ${path} ${JSON.stringify(frames.map((f) => ({ ...f, payload: f.payload.subarray(0, 40).toString('latin1') })))}`);
  } finally {
    client.destroy();
  }
}

/** An xhr session, a fuzzed xhr_send, then a probe through the same session. */
async function xhrCase(base, body) {
  const session = `${base}/echo/000/${randomUUID()}`;
  const opened = await fetchText('POST', `${session}/xhr`, { timeoutMs: CASE_TIMEOUT_MS });
  if (opened.status === 503) return 'HTTP 503 (budget)';
  assert.equal(opened.body, 'o\n');
  const sent = await fetchText('POST', `${session}/xhr_send`, { body, timeoutMs: CASE_TIMEOUT_MS });
  assert.ok([204, 500].includes(sent.status), `xhr_send answered ${sent.status} ${sent.body}`);
  if (sent.status === 500) assert.match(sent.body, /^(Broken JSON encoding\.|Payload expected\.)$/);
  const probe = await fetchText('POST', `${session}/xhr_send`, { body: '["probe"]', timeoutMs: CASE_TIMEOUT_MS });
  assert.equal(probe.status, 204, 'the session still takes messages');
  const poll = await fetchText('POST', `${session}/xhr`, { timeoutMs: CASE_TIMEOUT_MS });
  assert.match(poll.body, /"probe"\]\n$/, 'and delivers them');
  return sent.status === 204 ? 'accepted' : 'HTTP 500';
}

/** Mutated request bytes, then FIN: the server must answer or close. */
function httpCase(port, bytes) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no close within ${CASE_TIMEOUT_MS} ms to ${JSON.stringify(bytes.toString('latin1'))}`));
    }, CASE_TIMEOUT_MS);
    socket.on('error', () => {});
    socket.on('data', (data) => { received = Buffer.concat([received, data]); });
    socket.on('close', () => {
      clearTimeout(timer);
      const head = received.subarray(0, 12).toString('latin1');
      if (received.length > 0 && !/^HTTP\/1\.1 \d{3}/.test(head)) reject(new Error(`not an HTTP answer: ${JSON.stringify(head)}`));
      else resolve(received.length > 0 ? `HTTP ${head.slice(9, 12)}` : 'TCP close');
    });
    socket.end(bytes);
  });
}

describe(`fuzzing a real server over real sockets (fast-check, seed ${SEED})`, () => {
  let server;
  let pid;
  let port;
  const outcomes = {};
  const count = (kind, outcome) => {
    outcomes[kind] ??= {};
    outcomes[kind][outcome] = (outcomes[kind][outcome] || 0) + 1;
  };
  before(async () => {
    // The heap probe rides in through NODE_OPTIONS, which only this child sees.
    const saved = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = `${saved || ''} --require ${HEAP_PROBE}`.trim();
    try {
      server = await startServer(['--max-sessions', String(MAX_SESSIONS), '--header-timeout', String(HEADER_TIMEOUT_S)]);
    } finally {
      if (saved === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = saved;
    }
    pid = server.child.pid;
    port = Number(new URL(server.url).port);
  });
  after(async () => {
    if (server) await server.stop();
  });

  /** Live heap of the server after full GCs, bytes (null if the probe is not loaded, e.g. another runtime). */
  async function liveHeap() {
    const before = server.stderr.split('\n').filter((line) => line.startsWith('heap-probe ')).length;
    process.kill(pid, 'SIGUSR2');
    const lines = await server.stderrLines(/^heap-probe used=\d+$/, before + 1, 3000);
    return lines.length > before ? Number(lines.at(-1).split('=')[1]) : null;
  }

  it(`${CASES.framed} framed + ${CASES.raw} raw websocket, ${CASES.xhr} xhr_send and ${CASES.http} mutated HTTP cases ` +
    'each end (probe answered, close, or HTTP error); no exception; live heap back near baseline; every session freed', async () => {
    const runAll = async (runs, seed) => {
      await fc.assert(fc.asyncProperty(fc.constantFrom('/echo', '/broadcast'), fc.array(anyFrame, { minLength: 1, maxLength: 3 }),
        async (app, frames) => {
          // (fast mode may batch the probe with earlier messages: a["x","probe"])
          count('framed', await websocketCase(port, `${app}/000/${randomUUID()}/websocket`, {
            framed: true, frames, probe: '["probe"]',
            answered: (text) => text.startsWith('a[') && text.endsWith('"probe"]'),
          }));
        }), { seed, numRuns: runs.framed });
      await fc.assert(fc.asyncProperty(fc.constantFrom('/echo', '/broadcast'), fc.array(anyFrame, { minLength: 1, maxLength: 3 }),
        async (app, frames) => {
          count('raw', await websocketCase(port, `${app}/websocket`, {
            framed: false, frames, probe: 'probe', answered: (text) => text === 'probe',
          }));
        }), { seed: seed + 1, numRuns: runs.raw });
      await fc.assert(fc.asyncProperty(sendBody, async (body) => {
        count('xhr', await xhrCase(server.url, body));
      }), { seed: seed + 2, numRuns: runs.xhr });
      await fc.assert(fc.asyncProperty(mutatedRequest(port), async (bytes) => {
        count('http', await httpCase(port, bytes));
      }), { seed: seed + 3, numRuns: runs.http });
    };

    const fresh = { rss: rssOf(pid), heap: await liveHeap() };
    await runAll(CASES, SEED + 1000);
    await sleep(6000); // every xhr session expires (disconnect_delay 5 s)
    const first = { rss: rssOf(pid), heap: await liveHeap(), outcomes: JSON.stringify(outcomes) };
    for (const kind of Object.keys(outcomes)) delete outcomes[kind];
    await runAll(CASES, SEED);
    await sleep(6000);
    const second = { rss: rssOf(pid), heap: await liveHeap() };
    const heap = (m) => (m.heap === null ? 'n/a' : MiB(m.heap));
    process.stdout.write(`# fuzz outcomes, seed ${SEED + 1000}: ${first.outcomes}\n` +
      `# fuzz outcomes, seed ${SEED}: ${JSON.stringify(outcomes)}\n` +
      `# server RSS: fresh ${MiB(fresh.rss)}, after round 1 ${MiB(first.rss)}, after round 2 ${MiB(second.rss)}; ` +
      `live heap: ${heap(fresh)}, ${heap(first)}, ${heap(second)}\n`);

    if (fresh.heap !== null) {
      assert.ok(second.heap <= fresh.heap + HEAP_SLACK_BYTES, `live heap ${heap(second)} vs ${heap(fresh)} at start`);
      assert.ok(second.heap <= first.heap + HEAP_ROUND_SLACK_BYTES, `live heap ${heap(second)} vs ${heap(first)} after round 1`);
    }
    assert.ok(second.rss <= first.rss + RSS_ROUND_SLACK_BYTES, `RSS ${MiB(second.rss)} after round 2 vs ${MiB(first.rss)}`);
    const info = await fetchText('GET', `${server.url}/broadcast/info`);
    assert.equal(info.status, 200, 'still serving');
    const unexpected = server.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('heap-probe ') &&
      (!LOG_RECORD.test(line) || EXCEPTION.test(line)));
    assert.deepEqual(unexpected, [], 'stderr holds one-line log records only, no exception');

    // Every session the fuzz made is gone: the whole budget can be taken again.
    const held = [];
    try {
      for (let i = 0; i < MAX_SESSIONS; i += 1) held.push(await WireClient.open(port, `/echo/000/${randomUUID()}/websocket`));
      await assert.rejects(WireClient.open(port, `/echo/000/${randomUUID()}/websocket`), /no upgrade: HTTP\/1\.1 503/);
    } finally {
      for (const client of held) client.destroy();
    }
  });
});
