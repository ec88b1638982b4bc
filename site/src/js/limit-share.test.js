'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { share, limitShares, shareText } = require('./limit-share');

// Minimal shapes exercising the rule (made-up figures, not benchmark data): a
// level's figure is a floor when it is client-bound, the limit rule's other
// kinds are floors.js's business.
function level(concurrency, received, { clientBound = false } = {}) {
  const sat = { received_per_s: received, target_rate: received / 10, client_bound: clientBound, server_cpu_pct: 99, client_cpu_pct: 30, rtt_mean_ms: 5 };
  return {
    concurrency, connected: concurrency, end_reason: 'overloaded', saturation: sat,
    points: [{ state: 'ok', target_rate: sat.target_rate, received_per_s: received, client_bound: clientBound, server_cpu_pct: 99, client_cpu_pct: 30 }],
  };
}
function run(id, entry, mode, levels) {
  return { run_id: id, entry, result: { server: { mode, pid: 1 }, levels } };
}
const LIMITS = [{ entry: 'limit-naive', mode: 'naive' }, { entry: 'limit-fast', mode: 'fast' }];

test('each run is read against its own algorithm group\'s limit in the set, at the same level', () => {
  const runs = [
    run('limit-n', 'limit-naive', 'naive', [level(100, 200_000), level(1000, 160_000)]),
    run('limit-f', 'limit-fast', 'fast', [level(100, 10_000_000)]),
    run('py-n', 'pypy-naive', 'naive', [level(100, 76_000), level(1000, 56_000, { clientBound: true })]),
    run('py-f', 'pypy-fast', 'fast', [level(100, 4_000_000)]),
  ];
  const shares = limitShares(runs, LIMITS);
  assert.equal(shareText(shares.shareOf('py-n', 100)), '38 % of limit-naive');
  assert.equal(shareText(shares.shareOf('py-n', 1000)), '≥ 35 % of limit-naive');
  assert.equal(shareText(shares.shareOf('py-f', 100)), '40 % of limit-fast');
  assert.equal(shares.limitOf('limit-n'), 'limit-naive');
  assert.equal(shares.shareOf('limit-n', 100), null, 'the limit is the reference, not a share of itself');
  assert.deepEqual(shares.notes, []);
});

test('no limit run of a group, or no limit figure at a level: no share, and one note saying why', () => {
  const runs = [
    run('limit-n', 'limit-naive', 'naive', [level(100, 200_000)]),
    run('py-n', 'pypy-naive', 'naive', [level(100, 50_000), level(1000, 40_000), level(2000, 30_000)]),
    run('cp-n', 'cpython-naive', 'naive', [level(1000, 20_000)]),
    run('py-f', 'pypy-fast', 'fast', [level(100, 4_000_000)]),
  ];
  const shares = limitShares(runs, LIMITS);
  assert.equal(shares.shareOf('py-n', 1000), null);
  assert.equal(shares.shareOf('py-f', 100), null);
  assert.deepEqual(shares.notes, [
    'One frame per message: limit-naive has no figure at 1000, 2000 clients: no share there.',
    'Coalesced: no share of the limit: this set has no limit-fast run (make bench SERVERS=limit-fast in the same session).',
  ]);
});

test('a set without any limit server run says so once per group; historic runs are never shared', () => {
  const runs = [run('py-n', 'pypy-naive', 'naive', [level(100, 50_000)]), { run_id: 'old', kind: 'historic', result: { levels: [] } }];
  const shares = limitShares(runs, LIMITS);
  assert.deepEqual(shares.notes, ['One frame per message: no share of the limit: this set has no limit-naive run (make bench SERVERS=limit-naive in the same session).']);
  assert.deepEqual(limitShares(runs, []).notes, [], 'a registry without limit servers: nothing to say');
});

test('two limit runs of one group in a set: which is the session\'s limit is unknown, so no share', () => {
  const runs = [
    run('limit-a', 'limit-naive', 'naive', [level(100, 200_000)]),
    run('limit-b', 'limit-naive', 'naive', [level(100, 150_000)]),
    run('py-n', 'pypy-naive', 'naive', [level(100, 50_000)]),
  ];
  const shares = limitShares(runs, LIMITS);
  assert.equal(shares.shareOf('py-n', 100), null);
  assert.match(shares.notes[0], /2 limit-naive runs, so which one is its session's limit is not known/);
});

test('share gives every case of docs/contract/limit-share-cases.json, the table bench/saturation_tables.py runs too', () => {
  const file = require('path').join(__dirname, '..', '..', '..', 'docs', 'contract', 'limit-share-cases.json');
  const { cases } = JSON.parse(require('fs').readFileSync(file, 'utf8'));
  assert.ok(cases.length >= 10);
  for (const c of cases) {
    const s = share(c.figure, c.limit);
    assert.equal(s ? s.text : null, c.text, c.name);
  }
});
