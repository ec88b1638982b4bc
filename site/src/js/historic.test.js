'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { asResultShape } = require('./historic');

const doc = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'results', 'historic', '2011', '2011-node.json'), 'utf8'));

test('a 2011 file becomes levels of points with sent, received and mean RTT only', () => {
  const shape = asResultShape(doc);
  assert.equal(shape.parameters.ok_mean_ms, doc.method.ok_mean_ms);
  assert.equal(shape.levels.length, doc.levels.length);
  const level = shape.levels[0];
  const source = doc.levels[0];
  assert.equal(level.points.length, source.sent.length);
  assert.deepEqual(level.points.map((p) => [p.sent_per_s, p.rtt_ms.mean]), source.sent);
  assert.deepEqual(level.points.map((p) => [p.received_per_s, p.rtt_ms.mean]), source.received);
  // Nothing 2011 did not publish is filled in.
  assert.ok(level.points.every((p) => p.rtt_ms.p99 === null && p.server_cpu_pct === null && p.server_rss_bytes === null));
  assert.ok(level.points.every((p) => p.state === (p.rtt_ms.mean < 200 ? 'ok' : 'saturated')));
  assert.deepEqual(level.saturation, { ...source.saturation, client_bound: false });
});
