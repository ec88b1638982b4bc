'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { levelFigures, saturationSeries, rssSeries, distinctLabels, hasRepetitions } = require('./summary-figures');
const historic = require('./historic');

// Minimal shapes exercising the logic (not benchmark data).
const saturationAt = (received, clientBound, serverCpuPct = 99) => ({
  target_rate: 1, received_per_s: received, sent_per_s: 1, rtt_mean_ms: 1, client_bound: clientBound, server_cpu_pct: serverCpuPct,
});
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

test('levelFigures: each level says why its saturation figure is a floor, [] when it is the server\'s limit', () => {
  assert.deepEqual(levelFigures(result).map((f) => f.floorReasons), [
    [],
    [], // no figure: nothing to mark, though the level failed to connect
    ['client-bound', 'max rate reached (never overloaded)'],
  ]);
  const idle = { levels: [{ ...result.levels[0], saturation: { ...saturationAt(500, false, 87.4), client_cpu_pct: 82 } }] };
  assert.deepEqual(levelFigures(idle)[0].floorReasons, ['server 87 % busy (< 95 %), client 82 % busy']);
  assert.deepEqual(levelFigures(idle)[0].limitNotes, []);
});

test('levelFigures: a server under 95 % busy beside an idle client is its own limit, labelled, not a floor', () => {
  const own = { levels: [{ ...result.levels[0], saturation: { ...saturationAt(500, false, 87.4), client_cpu_pct: 20 } }] };
  assert.deepEqual(levelFigures(own)[0].floorReasons, []);
  assert.deepEqual(levelFigures(own)[0].limitNotes, ['server\'s own limit at 87 % CPU (client 20 % busy, on schedule)']);
  assert.deepEqual(saturationSeries(own).floors, []);
});

test('levelFigures: a repeated level is a floor when one of its repetitions is, the median\'s own verdict aside', () => {
  const level = result.levels[0];
  const repetition = (clientBound) => ({ ...level, saturation: saturationAt(500, clientBound) });
  const repeated = { levels: [{ ...level, repetitions: 3, runs: [repetition(false), repetition(true), repetition(false)] }] };
  assert.deepEqual(levelFigures(repeated)[0].floorReasons, ['client-bound in 1 of 3']);
  assert.deepEqual(saturationSeries(repeated).floors, [[10, 500]]);
});

test('levelFigures: 2011\'s published runs are drawn as before, never marked for the CPU they did not publish', () => {
  const file = path.join(__dirname, '..', '..', '..', 'results', 'historic', '2011', '2011-node.json');
  const shape = historic.asResultShape(JSON.parse(fs.readFileSync(file, 'utf8')));
  const figures = levelFigures(shape).filter((f) => f.saturation);
  assert.ok(figures.length > 0, 'the 2011 file has saturation figures');
  assert.ok(figures.every((f) => f.saturation.server_cpu_pct == null), 'and no CPU with them');
  assert.deepEqual(figures.map((f) => f.floorReasons), figures.map(() => []));
  assert.deepEqual(saturationSeries(shape).floors, []);
  // The same levels outside the historic shape would be floors: the exemption is what keeps them unmarked.
  assert.ok(levelFigures({ levels: shape.levels }).some((f) => f.floorReasons.includes('server CPU not measured')));
});

test('saturationSeries skips levels without an ok point and marks the floors', () => {
  const series = saturationSeries(result);
  assert.deepEqual(series.data, [[10, 500], [40, 900]]);
  assert.deepEqual(series.floors, [[40, 900]]);
  assert.deepEqual(series.band, [], 'a single run has no band');
  assert.equal(hasRepetitions(result), false);
});

test('with repetitions the line is the median and the band spans min..max', () => {
  const repeated = JSON.parse(JSON.stringify(result));
  repeated.levels[0].repetitions = 3;
  repeated.levels[0].saturation.spread = { min: 400, median: 500, max: 700 };
  repeated.levels[2].repetitions = 3;
  repeated.levels[2].saturation.spread = { min: 850, median: 880, max: 900 };
  const series = saturationSeries(repeated);
  assert.deepEqual(series.data, [[10, 500], [40, 880]]);
  assert.deepEqual(series.band, [[10, 700, 400], [40, 900, 850]]);
  assert.deepEqual(series.floors, [[40, 880]]);
  assert.equal(hasRepetitions(repeated), true);
  assert.equal(levelFigures(repeated)[0].repetitions, 3);
});

test('CPU and steal come from the saturation point, or from the saturation object when it carries them', () => {
  const level = {
    concurrency: 5, connected: 5, end_reason: 'overloaded',
    saturation: saturationAt(500, false, null), // as in a version 1 file: no CPU on the saturation object
    points: [
      { state: 'ok', received_per_s: 300, server_cpu_pct: 50, client_cpu_pct: 20, steal_pct: 0.1, server_rss_bytes: 1048576 },
      { state: 'ok', received_per_s: 500, server_cpu_pct: 97, client_cpu_pct: 40, steal_pct: 0.3, server_rss_bytes: 2 * 1048576 },
      { state: 'saturated', received_per_s: 520, server_cpu_pct: 99, client_cpu_pct: 41, server_rss_bytes: 4 * 1048576 },
    ],
  };
  const [figure] = levelFigures({ levels: [level] });
  assert.deepEqual([figure.serverCpuPct, figure.clientCpuPct, figure.stealPct], [97, 40, 0.3]);
  assert.deepEqual([figure.rssAtStartBytes, figure.peakRssBytes], [1048576, 4 * 1048576]);
  level.saturation = { ...level.saturation, server_cpu_pct: 98.5, client_cpu_pct: 41.5 };
  const [v2] = levelFigures({ levels: [level] });
  assert.deepEqual([v2.serverCpuPct, v2.clientCpuPct], [98.5, 41.5]);
});

test('rssSeries is in MiB: peak and at the level\'s first point', () => {
  const series = rssSeries(result);
  assert.deepEqual(series.data, [[10, 5]]);
  assert.deepEqual(series.atStart, [[10, 3]]);
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
