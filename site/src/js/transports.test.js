'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const transports = require('./transports');

const MIX = 'websocket:16,xhr-streaming:2,eventsource:1,xhr-polling:1';
const result = (spec) => ({ parameters: spec === undefined ? {} : { transports: spec } });
const run = (id, spec) => ({ run_id: id, result: result(spec) });

test('a file without the field (v5 and older, 2011) is plain websocket and names nothing new', () => {
  assert.equal(transports.specOf(result(undefined)), 'websocket');
  assert.equal(transports.specOf({}), 'websocket', 'a 2011 run has no parameters at all');
  assert.equal(transports.isPlain(result(undefined)), true);
  assert.equal(transports.isPlain(result('websocket')), true);
  assert.equal(transports.labelWith('sockjs-node · node 20 · naive', result(undefined)), 'sockjs-node · node 20 · naive');
  assert.equal(transports.labelWith('sockjs-node · node 20 · naive', result('websocket')), 'sockjs-node · node 20 · naive');
});

test('the canonical weights become percentages of the sessions', () => {
  assert.deepEqual(transports.shares(MIX).map((e) => [e.transport, e.weight, e.pct]),
    [['websocket', 16, 80], ['xhr-streaming', 2, 10], ['eventsource', 1, 5], ['xhr-polling', 1, 5]]);
  assert.equal(transports.describe(MIX), 'mix websocket 80 % · xhr-streaming 10 % · eventsource 5 % · xhr-polling 5 %');
  // A third is not 33.333333333333336 %.
  assert.equal(transports.describe('websocket:1,xhr-polling:2'), 'mix websocket 33.3 % · xhr-polling 66.7 %');
  assert.equal(transports.describe('xhr-streaming'), 'xhr-streaming');
  assert.equal(transports.isMix(result(MIX)), true);
  assert.equal(transports.isMix(result('eventsource')), false);
});

test('a label names the transports once: the client\'s raw spec is replaced, a --label gets the name appended', () => {
  assert.equal(transports.labelWith(`sockjs-node · node 20 · naive · ${MIX}`, result(MIX)),
    'sockjs-node · node 20 · naive · mix websocket 80 % · xhr-streaming 10 % · eventsource 5 % · xhr-polling 5 %');
  assert.equal(transports.labelWith('sockjs-node · node 20 · naive · xhr-streaming', result('xhr-streaming')),
    'sockjs-node · node 20 · naive · xhr-streaming');
  assert.equal(transports.labelWith('my label', result('xhr-polling')), 'my label · xhr-polling');
});

test('groups: plain websocket first, then in the runs\' order; the filter defaults to like for like', () => {
  const runs = [run('a', MIX), run('b', undefined), run('c', 'xhr-streaming'), run('d', 'websocket'), run('e', MIX)];
  const groups = transports.groupsOf(runs);
  assert.deepEqual(groups.map((g) => [g.key, g.ids]), [['websocket', ['b', 'd']], [MIX, ['a', 'e']], ['xhr-streaming', ['c']]]);
  assert.equal(groups[1].text, transports.describe(MIX));
  assert.equal(transports.chosenFilter(groups, null), 'websocket', 'no choice in the URL: websocket, as the pages were');
  assert.equal(transports.chosenFilter(groups, 'xhr-streaming'), 'xhr-streaming');
  assert.equal(transports.chosenFilter(groups, transports.ALL), transports.ALL);
  assert.equal(transports.chosenFilter(groups, 'eventsource'), 'websocket', 'a transport the set lacks falls back');
  assert.deepEqual(transports.filterRuns(runs, MIX).map((r) => r.run_id), ['a', 'e']);
  assert.deepEqual(transports.filterRuns(runs, transports.ALL).map((r) => r.run_id), ['a', 'b', 'c', 'd', 'e']);
  // A set of one transport has nothing to filter, whatever the URL says.
  const plain = transports.groupsOf([run('b', undefined), run('d', 'websocket')]);
  assert.equal(transports.chosenFilter(plain, 'xhr-streaming'), transports.ALL);
  // Without websocket runs, the first transport there is.
  assert.equal(transports.chosenFilter(transports.groupsOf([run('c', 'xhr-streaming'), run('a', MIX)]), null), 'xhr-streaming');
});

const entry = (transport, mean, p99) => ({ transport, rtt_ms: { count: 1, mean, p99 } });

test('a level\'s series: one per transport in the schema\'s order, against the point\'s send rate', () => {
  const level = {
    points: [
      { sent_per_s: 100, order: 0, state: 'ok', transports: [entry('xhr-polling', 9, 20), entry('websocket', 1, 2)] },
      { sent_per_s: 200, order: 1, state: 'saturated', transports: [entry('xhr-polling', null, null), entry('websocket', 3, 4)] },
    ],
  };
  const lines = transports.levelSeries(level, 'p99');
  assert.deepEqual(lines.map((l) => [l.transport, l.data]), [['websocket', [[100, 2], [200, 4]]], ['xhr-polling', [[100, 20]]]]);
  assert.equal(lines[0].sources[1].point, level.points[1]);
  assert.equal(transports.indexOf('eventsource'), 2);
  assert.deepEqual(transports.levelSeries({ points: [{ sent_per_s: 1, transports: undefined }] }, 'mean'), [], 'a point without a breakdown adds nothing');
});

test('the table shows the saturation point and the first point measured that was not ok', () => {
  const points = [
    { order: 2, state: 'overloaded', transports: [] },
    { order: 0, state: 'ok', transports: [] },
    { order: 1, state: 'saturated', transports: [] },
  ];
  assert.deepEqual(transports.tablePoints({ points }, points[1]).map((p) => [p.role, p.point.order]), [['saturation', 0], ['ended', 1]]);
  assert.deepEqual(transports.tablePoints({ points }, null).map((p) => [p.role, p.point.order]), [['ended', 1]]);
  const allOk = [{ order: 0, state: 'ok', transports: [] }, { order: 1, state: 'ok', transports: [] }, { order: 2, state: 'ok' }];
  assert.deepEqual(transports.tablePoints({ points: allOk }, null).map((p) => [p.role, p.point.order]), [['last', 1]],
    'no figure and nothing failed: the last point with a breakdown');
  assert.equal(transports.hasBreakdown({ levels: [{ points }] }), true);
  assert.equal(transports.hasBreakdown({ levels: [{ points: [{ state: 'ok' }] }] }), false);
});
