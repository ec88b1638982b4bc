'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { algorithmOf, modeText, idsByGroup, runsByGroup, groupByKey, GROUPS } = require('./algorithm');

const run = (id, mode, extra) => ({ run_id: id, result: { server: { mode } }, ...extra });

test('fast is coalesced; naive, no mode and "na" are one frame per message; 2011 is its own group', () => {
  assert.equal(algorithmOf(run('a', 'fast')), 'coalesced');
  assert.equal(algorithmOf(run('b', 'naive')), 'per-message');
  assert.equal(algorithmOf(run('c', null)), 'per-message', 'sockjs-node 0.3.24 and the peers record no mode');
  assert.equal(algorithmOf(run('d', 'na')), 'per-message');
  assert.equal(algorithmOf(run('e', 'turbo')), 'other');
  assert.equal(algorithmOf({ run_id: 'f', kind: 'historic', result: {} }), 'historic-2011');
});

test('groups keep the runs\' order; every group explains itself', () => {
  const runs = [run('a', 'fast'), run('b', 'naive'), run('c', null), run('d', 'fast')];
  assert.deepEqual([...idsByGroup(runs)], [['coalesced', ['a', 'd']], ['per-message', ['b', 'c']]]);
  // runsByGroup: the groups present in the pages' order (per-message first), each with its runs.
  assert.deepEqual(runsByGroup([...runs, run('e', 'turbo')]).map(({ group, runs: rs }) => [group.key, rs.map((r) => r.run_id)]),
    [['per-message', ['b', 'c']], ['coalesced', ['a', 'd']], ['other', ['e']]]);
  for (const group of GROUPS) assert.ok(group.explanation.length > 100, group.key);
  assert.match(groupByKey('coalesced').explanation, /coalesce/);
  assert.match(groupByKey('per-message').explanation, /sockjs-node/);
  assert.equal(groupByKey('nope').key, 'other');
});

test('modeText names the mode and the algorithm beside it', () => {
  assert.equal(modeText(run('a', 'fast')), 'fast (coalesced)');
  assert.equal(modeText(run('b', 'naive')), 'naive (one frame per message)');
  assert.equal(modeText(run('c', null)), 'no mode (one frame per message)');
});
