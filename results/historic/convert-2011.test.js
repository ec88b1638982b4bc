'use strict';
// The committed 2011 files (results/historic/2011/) against the converter
// that made them: they match results/historic/schema.json's promises (sent
// and received series index for index, received = sent × N, the same mean
// RTT), each level's saturation follows sockbench's rule, and, when the
// original files are at hand, a fresh conversion is byte-identical.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { convertServer, saturationOf, toJson, SERVERS, OK_MEAN_MS } = require('./convert-2011');

const COMMITTED_DIR = path.join(__dirname, '2011');
// Where the original data sits in this workspace; SOCKJS_BENCH_2011_DIR overrides.
const SOURCE_DIR = process.env.SOCKJS_BENCH_2011_DIR || path.join(__dirname, '..', '..', '..', 'shared', 'data', 'sockjs-bench-2011');

const committed = SERVERS.map((server) => ({
  server,
  doc: JSON.parse(fs.readFileSync(path.join(COMMITTED_DIR, `2011-${server.key}.json`), 'utf8')),
}));

test('every 2011 server has a file whose received series is the sent series times the level', () => {
  for (const { server, doc } of committed) {
    assert.equal(doc.run_id, `2011-${server.key}`);
    assert.equal(doc.method.statistic, 'mean');
    for (const level of doc.levels) {
      assert.equal(level.sent.length, level.received.length, `${server.key} N=${level.concurrency}`);
      level.sent.forEach(([sent, rtt], i) => {
        const [received, rttReceived] = level.received[i];
        assert.equal(rttReceived, rtt);
        assert.ok(Math.abs(received - sent * level.concurrency) <= 0.01 * received + 1,
          `${server.key} N=${level.concurrency} point ${i}: ${received} != ${sent} × ${level.concurrency}`);
      });
    }
  }
});

test('each level\'s saturation is the highest received rate with mean RTT under 200 ms', () => {
  for (const { doc } of committed) {
    for (const level of doc.levels) {
      const ok = level.received.filter(([, rtt]) => rtt < OK_MEAN_MS);
      if (ok.length === 0) {
        assert.equal(level.saturation, null);
        continue;
      }
      assert.equal(level.saturation.received_per_s, Math.max(...ok.map(([r]) => r)));
      assert.ok(level.saturation.rtt_mean_ms < OK_MEAN_MS);
    }
  }
  assert.deepEqual(saturationOf([[1, 5], [2, 250], [3, 150]], [[10, 5], [20, 250], [30, 150]]),
    { received_per_s: 30, sent_per_s: 3, rtt_mean_ms: 150 });
  assert.equal(saturationOf([[1, 300]], [[10, 300]]), null);
});

test('the 2011 ranking the site shows: sockjs-tornado on PyPy about 3.5× sockjs-node', () => {
  const at = (key, n) => committed.find((c) => c.server.key === key).doc.levels.find((l) => l.concurrency === n).saturation.received_per_s;
  for (const n of [25, 100, 500, 1000]) {
    const ratio = at('pypy', n) / at('node', n);
    assert.ok(ratio > 2.8 && ratio < 4.2, `N=${n}: PyPy/node = ${ratio.toFixed(2)}`);
  }
});

test('a fresh conversion of the original files is byte-identical to the committed ones', (t) => {
  if (!fs.existsSync(path.join(SOURCE_DIR, 'node_sent.json'))) {
    t.skip(`original 2011 files not found at ${SOURCE_DIR} (set SOCKJS_BENCH_2011_DIR)`);
    return;
  }
  for (const { server } of committed) {
    const fresh = `${toJson(convertServer(SOURCE_DIR, server))}\n`;
    assert.equal(fresh, fs.readFileSync(path.join(COMMITTED_DIR, `2011-${server.key}.json`), 'utf8'), server.key);
  }
});

test('a source file with mismatched levels is refused with the file named', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convert-2011-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'node_sent.json'), JSON.stringify([[25, [[1, 2]]]]));
  fs.writeFileSync(path.join(dir, 'node_recv.json'), JSON.stringify([[50, [[25, 2]]]]));
  assert.throws(() => convertServer(dir, SERVERS[0]), /node: level 25 differs/);
});
