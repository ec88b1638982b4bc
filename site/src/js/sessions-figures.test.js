'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {
  FIXED_RATE, isSessionsResult, pointAtRate, spreadOf, levelFigures, chartSeries, spreadText, processesText, failuresText,
  absentText, noPointAtFixedRateText, churnPct, churnText,
} = require('./sessions-figures');
const floors = require('./floors');

const FIXTURES = path.join(__dirname, '..', '..', 'test', 'fixtures');
const SESSIONS_FIXTURES = path.join(FIXTURES, 'sessions');
const read = (dir, file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
// Real sessions runs (bench/run_bench.py --profile sessions), and the throughput fixtures beside them.
const sessionsRuns = fs.readdirSync(SESSIONS_FIXTURES).filter((f) => f.endsWith('.json')).map((f) => read(SESSIONS_FIXTURES, f));
const throughputRuns = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.json') && !f.startsWith('invalid-')).map((f) => read(FIXTURES, f));
const copy = (value) => JSON.parse(JSON.stringify(value));

test('a sessions run is told by its profile or by all_copies; the throughput fixtures are not', () => {
  assert.ok(sessionsRuns.length > 0);
  for (const result of sessionsRuns) assert.equal(isSessionsResult(result), true, result.run_id);
  for (const result of throughputRuns) assert.equal(isSessionsResult(result), false, result.run_id);
  assert.equal(isSessionsResult({ parameters: { profile: 'custom', all_copies: true } }), true);
  assert.equal(isSessionsResult({ parameters: { profile: 'custom', all_copies: false } }), false);
});

test('memory per session is idle.server_bytes_per_session in KB of 1,024 bytes, per level of a real run', () => {
  for (const result of sessionsRuns) {
    const figures = levelFigures(result);
    result.levels.forEach((level, i) => {
      assert.equal(figures[i].serverKbPerSession.value, level.idle.server_bytes_per_session / 1024);
      assert.equal(figures[i].clientKbPerSession.value, level.idle.client_bytes_per_session / 1024);
      assert.equal(figures[i].serverKbPerSession.spread, level.runs.length > 1 ? figures[i].serverKbPerSession.spread : null);
    });
    assert.deepEqual(chartSeries(result, 'memory').data,
      result.levels.map((l) => [l.concurrency, l.idle.server_bytes_per_session / 1024]));
  }
});

test('the p99 at 5 msgs/s is the all-copies p99 of the point whose target is within 1 % of 5', () => {
  for (const result of sessionsRuns) {
    for (const level of result.levels) {
      const expected = level.points.filter((p) => Math.abs(p.target_rate - 5) <= 0.05);
      // The ×√5 grid passes 5 msgs/s unless the level saturated below it (then the ramp stopped there).
      if (Math.max(...level.points.map((p) => p.target_rate)) < 5) {
        assert.equal(pointAtRate(level.points), null);
        assert.equal(levelFigures(result).find((f) => f.concurrency === level.concurrency).p99AtFixedRate.value, null);
        continue;
      }
      assert.equal(expected.length >= 1, true, `N=${level.concurrency}: the ×√5 grid passes 5 msgs/s`);
      const point = pointAtRate(level.points);
      assert.equal(point, expected.sort((a, b) => a.order - b.order)[0]);
      assert.equal(levelFigures(result).find((f) => f.concurrency === level.concurrency).p99AtFixedRate.value, point.fanout_ms.p99);
    }
  }
  // Tolerance (minimal shapes, not benchmark data): 1 % either side, the first measured of several, only points with fan-out timing.
  const at = (rate, order, p99 = 1) => ({ target_rate: rate, order, fanout_ms: { p99 } });
  assert.equal(FIXED_RATE, 5);
  assert.equal(pointAtRate([at(4.96, 0)]).target_rate, 4.96);
  assert.equal(pointAtRate([at(5.05, 0)]).target_rate, 5.05);
  assert.equal(pointAtRate([at(4.94, 0), at(5.06, 1), at(2.236, 2), at(11.18, 3)]), null);
  assert.equal(pointAtRate([at(5, 4, 9), at(5, 2, 7)]).order, 2);
  assert.equal(pointAtRate([{ target_rate: 5, order: 0, fanout_ms: { p99: null } }]), null);
  assert.equal(pointAtRate([{ target_rate: 5, order: 0 }]), null);
  assert.equal(pointAtRate(undefined), null);
});

test('the fan-out saturation figure is judged by the summary\'s floor rule (floors.js); a client-bound one is a floor', () => {
  let flagged = 0;
  for (const result of sessionsRuns) {
    const figures = levelFigures(result);
    result.levels.forEach((level, i) => {
      assert.equal(figures[i].saturation.value, level.fanout_saturation ? level.fanout_saturation.copies_per_s : null);
      assert.deepEqual(figures[i].floorReasons, level.fanout_saturation ? floors.levelFloorReasons(level, floors.serverView(result)) : []);
    });
    // Derived as the browser tests derive runs: the saturation point flagged client-bound, nothing added.
    const derived = copy(result);
    const level = derived.levels.find((l) => l.fanout_saturation);
    if (!level) continue;
    flagged++;
    level.saturation.client_bound = true;
    for (const run of level.runs || []) if (run.saturation) run.saturation.client_bound = true;
    const marked = levelFigures(derived).find((f) => f.concurrency === level.concurrency);
    assert.equal(marked.floorReasons[0], 'client-bound');
    const series = chartSeries(derived, 'saturation');
    assert.deepEqual(series.floors.filter((p) => p[0] === level.concurrency), [[level.concurrency, marked.saturation.value]]);
    assert.equal(series.flags[series.figures.indexOf(series.figures.find((f) => f.concurrency === level.concurrency))], true);
  }
  assert.ok(flagged > 0, 'some fixture level has a fan-out saturation to flag');
  // A max-rate ending never overloaded the server (minimal shape).
  const result = { server: { pid: 1 }, levels: [{ concurrency: 1000, end_reason: 'max_rate', points: [],
    saturation: { received_per_s: 10, client_bound: false, server_cpu_pct: 99, client_cpu_pct: 10 },
    fanout_saturation: { copies_per_s: 10, target_rate: 1, p99_ms: 5 } }] };
  assert.deepEqual(levelFigures(result)[0].floorReasons, ['max rate reached (never overloaded)']);
});

test('a p99 at 5 msgs/s measured at a client-bound point is marked', () => {
  let flagged = 0;
  for (const result of sessionsRuns) {
    const derived = copy(result);
    const level = derived.levels.find((l) => pointAtRate(l.points));
    if (!level) continue;
    flagged++;
    pointAtRate(level.points).client_bound = true;
    const series = chartSeries(derived, 'p99-at-5');
    // The flagged one, and any the client really was bound at.
    assert.deepEqual(series.floors, derived.levels.filter((l) => pointAtRate(l.points) && pointAtRate(l.points).client_bound)
      .map((l) => [l.concurrency, pointAtRate(l.points).fanout_ms.p99]));
    assert.ok(series.floors.some(([n]) => n === level.concurrency));
  }
  assert.ok(flagged > 0, 'some fixture level has a point at 5 msgs/s');
});

test('spread: min, lower-middle median and max over the repetitions; the line is the median; none for one repetition', () => {
  assert.deepEqual(spreadOf([3, 1, 2]), { min: 1, median: 2, max: 3 });
  assert.deepEqual(spreadOf([4, 1, 3, 2]), { min: 1, median: 2, max: 4 });
  assert.deepEqual(spreadOf([5, null]), null);
  // A repeated level shaped as bench/merge.py writes it (minimal shape): the level's own points are the median repetition's.
  const repetition = (bytes, p99) => ({ idle: { server_bytes_per_session: bytes }, points: [{ target_rate: 5, order: 2, fanout_ms: { p99 } }] });
  const runs = [repetition(2048, 30), repetition(4096, 10), repetition(1024, 20)];
  const level = { concurrency: 1000, repetitions: 3, ...runs[1], runs, end_reason: 'saturated' };
  const [figure] = levelFigures({ server: { pid: 1 }, levels: [level] });
  assert.deepEqual(figure.serverKbPerSession, { value: 2, spread: { min: 1, median: 2, max: 4 }, count: 3, absent: 0, of: 3 });
  assert.deepEqual(chartSeries({ server: { pid: 1 }, levels: [level] }, 'memory').band, [[1000, 4, 1]]);
  assert.equal(figure.p99AtFixedRate.value, 20);
  assert.equal(spreadText(figure.p99AtFixedRate, String), 'median of 3, range 10–30');
  for (const result of sessionsRuns) {
    for (const f of levelFigures(result)) {
      if (f.repetitions === 1) assert.equal(spreadText(f.serverKbPerSession, String), 'single run');
    }
  }
});

test('processes and connect failures read as the page prints them', () => {
  assert.equal(processesText({ workers: 1, agents: 1 }), '1 worker, 1 agent');
  assert.equal(processesText({ workers: 3, agents: 3 }), '3 workers, 3 agents');
  assert.equal(failuresText({ failures: {} }), 'none');
  assert.equal(failuresText({ failures: { timeout: 2, 'Too many open files': 10 } }), 'Too many open files 10, timeout 2');
  assert.equal(failuresText(null), null);
  for (const result of sessionsRuns) {
    for (const f of levelFigures(result)) {
      const level = result.levels.find((l) => l.concurrency === f.concurrency);
      assert.equal(f.workers, level.workers);
      assert.equal(f.agents, level.agents);
    }
  }
});

test('a level that ran without a fan-out saturation or a 5 msgs/s point is listed as missing on those charts, never on memory', () => {
  let seen = 0;
  for (const result of sessionsRuns) {
    for (const chart of ['saturation', 'p99-at-5']) {
      const series = chartSeries(result, chart);
      const plotted = new Set(series.data.map(([n]) => n));
      // Every level is either plotted or missing: none vanishes.
      assert.deepEqual([...plotted, ...series.missing.map((f) => f.concurrency)].sort((a, b) => a - b),
        result.levels.map((l) => l.concurrency).sort((a, b) => a - b), `${result.run_id} ${chart}`);
      seen += series.missing.length;
    }
    for (const level of result.levels.filter((l) => l.fanout_saturation === null)) {
      assert.ok(chartSeries(result, 'saturation').missing.some((f) => f.concurrency === level.concurrency));
    }
    assert.deepEqual(chartSeries(result, 'memory').missing, []);
  }
  assert.ok(seen > 0, 'the fixtures hold a level with no ok point (19,000 sessions)');
  const pypy = sessionsRuns.find((r) => r.levels.some((l) => l.concurrency === 19000 && l.fanout_saturation === null));
  const f = levelFigures(pypy).find((g) => g.concurrency === 19000);
  assert.equal(noPointAtFixedRateText(f, String), `ramp ended at ${f.highestRate} msgs/s, below 5`);
});

test('repetitions without a figure are counted: "no ok point in 1 of 3 repetitions"; a single run says nothing', () => {
  // Minimal shape of a level as bench/merge.py writes it, one repetition with no ok point.
  const repetition = (copies) => ({ fanout_saturation: copies == null ? null : { copies_per_s: copies, target_rate: 5, p99_ms: 100 },
    saturation: null, points: [], end_reason: 'saturated' });
  const runs = [repetition(null), repetition(300), repetition(200)];
  const level = { concurrency: 5000, repetitions: 3, ...runs[2], runs };
  const [figure] = levelFigures({ server: { pid: 1 }, levels: [level] });
  assert.deepEqual(figure.saturation.spread, { min: 200, median: 200, max: 300 });
  assert.equal(figure.saturation.absent, 1);
  assert.equal(absentText(figure.saturation, 'no ok point'), 'no ok point in 1 of 3 repetitions');
  const single = levelFigures({ server: { pid: 1 }, levels: [{ concurrency: 5000, ...repetition(null) }] })[0];
  assert.equal(absentText(single.saturation, 'no ok point'), null);
});

test('a churn run is told by parameters.churn_pct > 0 and named " · churn 5 %"; a plain run is not', () => {
  for (const result of sessionsRuns) {
    assert.equal(churnPct(result), 0);
    assert.equal(churnText(result), '');
  }
  const churned = { ...sessionsRuns[0], parameters: { ...sessionsRuns[0].parameters, churn_pct: 5 } };
  assert.equal(churnPct(churned), 5);
  assert.equal(churnText(churned), ' · churn 5 %');
  assert.equal(churnText({ parameters: { churn_pct: 0 } }), '');
  assert.equal(churnText({ parameters: { churn_pct: 2.5 } }), ' · churn 2.5 %');
});
