'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { quickPicks } = require('./quick-picks');

// Minimal shapes exercising the grouping (not benchmark data).
function run(id, { host = 'h1', runtime = 'pypy', transport = 'sockjs', profile = 'smoke', at = '2026-11-22T10:00:00Z' } = {}) {
  return {
    run_id: id,
    result: {
      machine: { hostname: host, cpu_model: 'CPU', cores: 2 },
      server: { name: 'sockbench-tornado', runtime, codec: 'json', mode: 'fast' },
      client: { transport },
      parameters: { profile },
      started_at: at,
    },
  };
}

test('one machine, one profile, one run per server: just all and none', () => {
  const picks = quickPicks([run('a'), run('b', { runtime: 'cpython' })]);
  assert.deepEqual(picks.map((p) => p.text), ['All runs', 'None']);
  assert.deepEqual(picks[0].ids, ['a', 'b']);
  assert.deepEqual(picks[1].ids, []);
});

test('repeated runs: the latest of each server configuration per machine', () => {
  const runs = [
    run('old-pypy', { at: '2026-11-22T09:00:00Z' }),
    run('new-pypy', { at: '2026-11-22T11:00:00Z' }),
    run('cpython', { runtime: 'cpython' }),
    run('raw-pypy', { transport: 'raw' }),
    run('other-host-pypy', { host: 'h2', at: '2026-11-22T08:00:00Z' }),
    // Older than new-pypy, but on another SockJS transport: its own configuration.
    { ...run('polling-pypy', { at: '2026-11-22T10:30:00Z' }), result: { ...run('x', { at: '2026-11-22T10:30:00Z' }).result,
      parameters: { profile: 'smoke', transports: 'xhr-polling' } } },
  ];
  const picks = Object.fromEntries(quickPicks(runs).map((p) => [p.text, p.ids]));
  assert.deepEqual(picks['Latest run of each server on each machine'], ['new-pypy', 'cpython', 'raw-pypy', 'other-host-pypy', 'polling-pypy']);
  assert.deepEqual(picks['Only h1 (CPU, 2 cores)'], ['old-pypy', 'new-pypy', 'cpython', 'raw-pypy', 'polling-pypy']);
  assert.deepEqual(picks['Only h2 (CPU, 2 cores)'], ['other-host-pypy']);
  assert.equal(Object.keys(picks).some((text) => text.startsWith('Only profile')), false);
});

test('several profiles get one pick each', () => {
  const picks = quickPicks([run('a'), run('b', { profile: 'standard', runtime: 'node' })]);
  assert.deepEqual(picks.slice(2).map((p) => [p.text, p.ids]), [['Only profile smoke', ['a']], ['Only profile standard', ['b']]]);
});

test('each server registry group holding some runs gets a pick (make bench SERVERS=runtimes)', () => {
  const picks = quickPicks([
    { ...run('pypy'), groups: ['default', 'runtimes'] },
    { ...run('py313', { runtime: 'cpython' }), groups: ['runtimes'] },
    { ...run('peer', { runtime: 'node' }), groups: ['default'] },
    run('byo', { runtime: 'go' }),
  ]);
  assert.deepEqual(picks.slice(2).map((p) => [p.text, p.ids]), [
    ['Server group default (make bench SERVERS=default)', ['pypy', 'peer']],
    ['Server group runtimes (make bench SERVERS=runtimes)', ['pypy', 'py313']],
  ]);
  const everyRun = quickPicks([{ ...run('a'), groups: ['default'] }, { ...run('b', { runtime: 'node' }), groups: ['default'] }]);
  assert.equal(everyRun.some((p) => p.text.startsWith('Server group')), false, 'no pick that equals "All runs"');
});

test('runs of different registry entries on one runtime (CPython 3.11, 3.12, 3.13) are different servers, not repeats', () => {
  const runs = [
    { ...run('py311', { runtime: 'cpython', at: '2026-11-25T01:00:00Z' }), entry: 'cpython-fast' },
    { ...run('py312', { runtime: 'cpython', at: '2026-11-25T02:00:00Z' }), entry: 'cpython3.12-fast' },
    { ...run('py313', { runtime: 'cpython', at: '2026-11-25T03:00:00Z' }), entry: 'cpython3.13-fast' },
  ];
  assert.deepEqual(quickPicks(runs).map((p) => p.text), ['All runs', 'None'], 'each is the latest of its own configuration');
  const again = [...runs, { ...run('py313-again', { runtime: 'cpython', at: '2026-11-25T04:00:00Z' }), entry: 'cpython3.13-fast' }];
  assert.deepEqual(quickPicks(again).find((p) => p.text.startsWith('Latest')).ids, ['py311', 'py312', 'py313-again']);
});
