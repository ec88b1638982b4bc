'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { latencySeries, interpolateAt, statByKey } = require('./series');

// Minimal shapes exercising the logic (not benchmark data).
const latency = (mean) => ({ count: mean == null ? 0 : 1, mean, p50: mean, p99: mean == null ? null : mean * 2, p999: null });
const result = {
  levels: [
    { concurrency: 10, points: [
      { sent_per_s: 1, received_per_s: 10, rtt_ms: latency(2), client_bound: false },
      { sent_per_s: 2, received_per_s: 20, rtt_ms: latency(null), client_bound: false },
      { sent_per_s: 3, received_per_s: 25, rtt_ms: latency(8), client_bound: true },
    ] },
    { concurrency: 20, points: [] },
  ],
};

test('latencySeries: one series per level, x from the chosen rate, unmeasured points left out', () => {
  const sent = latencySeries(result, 'sent', 'mean');
  assert.deepEqual(sent.map((s) => s.concurrency), [10, 20]);
  assert.deepEqual(sent[0].data, [[1, 2], [3, 8]]);
  assert.deepEqual(sent[0].clientBound, [[3, 8]]);
  assert.deepEqual(sent[0].sources, [result.levels[0].points[0], result.levels[0].points[2]]);
  assert.equal(sent[0].clientBoundSources[0], result.levels[0].points[2]);
  assert.equal(sent[0].pointCount, 3);
  assert.deepEqual(sent[1].data, []);
  assert.deepEqual(latencySeries(result, 'received', 'p99')[0].data, [[10, 4], [25, 16]]);
  assert.deepEqual(latencySeries(result, 'sent', 'p999')[0].data, []);
});

test('latencySeries rejects unknown axes and statistics', () => {
  assert.throws(() => latencySeries(result, 'lost', 'mean'), /unknown rate axis/);
  assert.throws(() => latencySeries(result, 'sent', 'p75'), /unknown RTT statistic/);
  assert.equal(statByKey('p999').name, 'p99.9');
});

test('interpolateAt: linear between neighbours, exact at points, null outside', () => {
  const line = [[0, 0], [10, 100], [20, 300]];
  assert.equal(interpolateAt(line, 5), 50);
  assert.equal(interpolateAt(line, 15), 200);
  assert.equal(interpolateAt(line, 10), 100);
  assert.equal(interpolateAt(line, 20), 300);
  assert.equal(interpolateAt(line, -1), null);
  assert.equal(interpolateAt(line, 21), null);
  assert.equal(interpolateAt([], 1), null);
});

test('interpolateAt: when the curve folds back, the first crossing (lower load) wins', () => {
  // received rate rises, then falls past saturation while RTT keeps growing
  const folded = [[10, 1], [30, 3], [20, 100]];
  assert.equal(interpolateAt(folded, 20), 2);
  assert.equal(interpolateAt(folded, 25), 2.5);
});

test('interpolateAt on a log x axis follows the straight segment drawn in log space', () => {
  const line = [[10, 0], [1000, 100]];
  assert.ok(Math.abs(interpolateAt(line, 100, { logX: true }) - 50) < 1e-9);
  assert.equal(interpolateAt(line, 100), 100 * (90 / 990));
});

test('splitSegments: a segment touching a client-bound point is dashed, the rest solid, broken by null', () => {
  const { splitSegments } = require('./series');
  const data = [[1, 10], [2, 20], [3, 30], [4, 40], [5, 50]];
  assert.deepEqual(splitSegments(data, [false, false, true, false, false]), {
    solid: [[1, 10], [2, 20], null, [4, 40], [5, 50]],
    dashed: [[2, 20], [3, 30], [4, 40]],
  });
  assert.deepEqual(splitSegments(data, [false, false, false, false, false]).dashed, []);
  assert.deepEqual(splitSegments(data, [true, false, false, false, true]), {
    solid: [[2, 20], [3, 30], [4, 40]],
    dashed: [[1, 10], [2, 20], null, [4, 40], [5, 50]],
  });
  assert.deepEqual(splitSegments([[1, 10]], [true]), { solid: [], dashed: [[1, 10]] });
});
