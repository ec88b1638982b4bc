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

test('distinctLabels adds only what tells colliding runs apart', () => {
  const run = (label, transport, profile, hostname, startedAt) => ({
    label, run_id: `${label}-${startedAt}`,
    result: { client: { transport }, parameters: { profile }, machine: { hostname }, started_at: startedAt },
  });
  const runs = [
    run('A', 'sockjs', 'smoke', 'h1', '2026-11-22T10:00:00Z'),
    run('A', 'raw', 'smoke', 'h1', '2026-11-22T10:05:00Z'),
    run('B', 'sockjs', 'smoke', 'h1', '2026-11-22T10:00:00Z'),
    run('B', 'sockjs', 'quick', 'h1', '2026-11-22T11:00:00Z'),
    run('B', 'sockjs', 'quick', 'h2', '2026-11-22T12:00:00Z'),
    run('C', 'sockjs', 'smoke', 'h1', '2026-11-22T12:00:00Z'),
  ];
  assert.deepEqual(distinctLabels(runs), [
    'A (SockJS framed)',
    'A (raw websocket)',
    'B (profile smoke, h1)',
    'B (profile quick, h1)',
    'B (profile quick, h2)',
    'C',
  ]);
});

test('distinctLabels falls back to the run id when nothing else differs', () => {
  const same = { client: { transport: 'sockjs' }, parameters: { profile: 'smoke' }, machine: { hostname: 'h' }, started_at: '2026-11-22T10:00:00Z' };
  assert.deepEqual(distinctLabels([{ label: 'A', run_id: 'x', result: same }, { label: 'A', run_id: 'y', result: same }]),
    ['A (x)', 'A (y)']);
});
