'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { levelFigures, saturationSeries, rssSeries, distinctLabels } = require('./summary-figures');

// Minimal shapes exercising the logic (not benchmark data).
const saturationAt = (received, clientBound) => ({ target_rate: 1, received_per_s: received, sent_per_s: 1, rtt_mean_ms: 1, client_bound: clientBound });
const result = {
  levels: [
    { concurrency: 10, connected: 10, end_reason: 'overloaded', saturation: saturationAt(500, false),
      points: [{ server_rss_bytes: 3 * 1048576 }, { server_rss_bytes: 5 * 1048576 }, { server_rss_bytes: null }] },
    { concurrency: 20, connected: 18, end_reason: 'connect_failed', saturation: null, points: [{ server_rss_bytes: null }] },
    { concurrency: 40, connected: 40, end_reason: 'max_rate', saturation: saturationAt(900, true), points: [] },
  ],
};

test('levelFigures: saturation as written, peak RSS over the level, null when unmeasured', () => {
  const figures = levelFigures(result);
  assert.deepEqual(figures.map((f) => f.peakRssBytes), [5 * 1048576, null, null]);
  assert.deepEqual(figures.map((f) => f.endReason), ['overloaded', 'connect_failed', 'max_rate']);
  assert.equal(figures[1].saturation, null);
});

test('saturationSeries skips levels without an ok point and marks client-bound ones', () => {
  assert.deepEqual(saturationSeries(result), { data: [[10, 500], [40, 900]], clientBound: [[40, 900]] });
});

test('rssSeries is in MiB', () => {
  assert.deepEqual(rssSeries(result), [[10, 5]]);
});

test('distinctLabels adds host and time only where labels collide', () => {
  const runs = [
    { label: 'A', hostname: 'h1', started_at: '2026-11-22T10:00:00Z' },
    { label: 'A', hostname: 'h2', started_at: '2026-11-22T11:00:00Z' },
    { label: 'B', hostname: 'h1', started_at: '2026-11-22T12:00:00Z' },
  ];
  assert.deepEqual(distinctLabels(runs), ['A (h1, 2026-11-22 10:00)', 'A (h2, 2026-11-22 11:00)', 'B']);
});
