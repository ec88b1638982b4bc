'use strict';
// Which charts become images and where their files go.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { chartList, fileSafe } = require('./chart-files');

const REFERENCE = path.join(__dirname, '..', '..', '..', 'results', 'reference');
const HISTORIC = path.join(__dirname, '..', '..', '..', 'results', 'historic', '2011');
const read = (dir) => fs.readdirSync(dir).filter((f) => /^\d{4}-.*\.json$/.test(f))
  .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));

const data = {
  runs: read(REFERENCE).map((result) => ({ run_id: result.run_id, result })),
  historic: read(HISTORIC).map((result) => ({ run_id: result.run_id, kind: 'historic', result })),
};

test('the summary charts once per algorithm group, never mixing groups; no memory chart for 2011 (none published)', () => {
  const summary = chartList(data).filter((c) => c.kind === 'summary').map((c) => c.id);
  assert.deepEqual(summary, ['summary-saturation-per-message', 'summary-rss-per-message',
    'summary-saturation-coalesced', 'summary-rss-coalesced', 'summary-saturation-historic-2011']);
});

test('each run, today\'s and 2011\'s, gets its sent and received chart under charts/, with a file-safe name', () => {
  const runs = chartList(data).filter((c) => c.kind === 'run');
  assert.equal(runs.length, 2 * (data.runs.length + data.historic.length));
  for (const chart of runs) {
    assert.match(chart.file, /^charts\/run-[A-Za-z0-9._-]+-(sent|received)$/);
    assert.equal(new URLSearchParams(chart.query).get('run'), chart.runId);
  }
  assert.equal(new Set(runs.map((c) => c.file)).size, runs.length, 'no two charts share a file');
  assert.equal(fileSafe('a b/c:d'), 'a_b_c_d');
});

test('with result sets, each set gets its own summary charts; the default set keeps the plain names and the 2011 chart', () => {
  const RUNTIMES = path.join(__dirname, '..', '..', '..', 'results', 'reference-runtimes');
  const withSets = {
    ...data,
    runs: [...data.runs.map((run) => ({ ...run, set: 'reference' })),
      ...read(RUNTIMES).map((result) => ({ run_id: result.run_id, result, set: 'reference-runtimes' }))],
    sets: [{ name: 'reference' }, { name: 'reference-runtimes' }],
    default_set: 'reference',
  };
  const summary = chartList(withSets).filter((c) => c.kind === 'summary');
  assert.deepEqual(summary.filter((c) => c.set === 'reference').map((c) => c.id), ['summary-saturation-per-message',
    'summary-rss-per-message', 'summary-saturation-coalesced', 'summary-rss-coalesced', 'summary-saturation-historic-2011']);
  const other = summary.filter((c) => c.set === 'reference-runtimes');
  assert.deepEqual(other.map((c) => c.id), ['summary-saturation-per-message-reference-runtimes',
    'summary-rss-per-message-reference-runtimes', 'summary-saturation-coalesced-reference-runtimes', 'summary-rss-coalesced-reference-runtimes']);
  assert.ok(other.every((c) => new URLSearchParams(c.query).get('set') === 'reference-runtimes'));
  assert.equal(new Set(summary.map((c) => c.file)).size, summary.length, 'no two charts share a file');
  assert.equal(chartList(withSets).filter((c) => c.kind === 'run').length, 2 * (withSets.runs.length + data.historic.length));
});

test('sessions runs stay out of the summary charts\' images (their saturation is the fan-out verdict) but keep their run charts', () => {
  const SESSIONS = path.join(__dirname, '..', '..', 'test', 'fixtures', 'sessions');
  const sessions = read(SESSIONS).map((result) => ({ run_id: result.run_id, result }));
  const alone = chartList({ runs: sessions, historic: [] });
  assert.deepEqual(alone.filter((c) => c.kind === 'summary'), []);
  assert.equal(alone.filter((c) => c.kind === 'run').length, 2 * sessions.length);
  const beside = chartList({ ...data, runs: [...data.runs, ...sessions] });
  assert.deepEqual(beside.filter((c) => c.kind === 'summary'), chartList(data).filter((c) => c.kind === 'summary'));
});

test('the Sessions page\'s three charts become images over every sessions run; none without sessions runs', () => {
  const SESSIONS = path.join(__dirname, '..', '..', 'test', 'fixtures', 'sessions');
  const sessions = read(SESSIONS).map((result) => ({ run_id: result.run_id, result }));
  const charts = chartList({ ...data, runs: [...data.runs, ...sessions] }).filter((c) => c.kind === 'sessions');
  assert.deepEqual(charts.map((c) => c.id), ['sessions-memory', 'sessions-saturation', 'sessions-p99-at-5']);
  for (const chart of charts) {
    assert.equal(chart.file, `charts/${chart.id}`);
    assert.equal(new URLSearchParams(chart.query).get('chart'), chart.id);
  }
  assert.deepEqual(chartList(data).filter((c) => c.kind === 'sessions'), []);
});
