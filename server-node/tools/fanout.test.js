'use strict';
// tools/fanout.js runs, and its own check passes: fast and naive mode deliver
// every message, in order, to every in-memory session (it exits 1 otherwise).
// A tiny run: this checks behaviour, not speed.

const { it } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const FANOUT_JS = path.join(__dirname, 'fanout.js');

it('fanout.js checks both modes deliver the same messages, then prints one row per (K, B, mode)', () => {
  const result = spawnSync(process.execPath,
    [FANOUT_JS, '--sessions', '3,7', '--messages', '40', '--per-iteration', '1,4', '--repeat', '1'],
    { encoding: 'utf8', timeout: 60000 });
  assert.equal(result.status, 0, result.stderr);
  const rows = result.stdout.trim().split('\n').slice(2);
  assert.equal(rows.length, 2 * 2 * 2, result.stdout);
  for (const row of rows) assert.match(row, /^\| node [\d.]+ \| [37] \| 40 \| [14] \| (fast|naive) \| [\d,]+ \|/);
});

it('fanout.js: a bad flag prints usage and exits 2', () => {
  const result = spawnSync(process.execPath, [FANOUT_JS, '--sessions', '0'], { encoding: 'utf8', timeout: 20000 });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /--sessions/);
  assert.match(result.stderr, /usage: /);
});
