'use strict';
// Sessions runs the fixtures lack, made at test time from a real one
// (test/fixtures/sessions/): a set of three repetitions merged by the
// runner's own merger (bench/merge.py, run with python3), and a churn run.
// The repetitions are hand-made from the real run: its first repetition, and
// two copies with the fan-out saturation (and the point it was measured at),
// the memory per session and the p99 at 5 msgs/s scaled by a known factor,
// so the min–max spread is known and the shapes are the runner's. A level
// that had no ok point keeps none in every repetition.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { FIXTURES_DIR } = require('./fixtures');

const SESSIONS_DIR = path.join(FIXTURES_DIR, 'sessions');
const BENCH_DIR = path.join(__dirname, '..', '..', 'bench');

/** The factors of repetitions 1, 2 and 3: the real figures, half and twice them (repeated sweeps here differ up to 2x). */
const REPETITION_FACTORS = [1, 0.5, 2];

/** The real sessions runs of the fixtures: [{file, result}]. */
function realSessionsRuns() {
  return fs.readdirSync(SESSIONS_DIR).filter((f) => f.endsWith('.json')).sort()
    .map((file) => ({ file, result: JSON.parse(fs.readFileSync(path.join(SESSIONS_DIR, file), 'utf8')) }));
}

const copy = (value) => JSON.parse(JSON.stringify(value));

/** The first-measured point at 5 msgs/s (within 1 %) that timed every copy; null without one. */
function pointAtFive(points) {
  return points.filter((p) => Math.abs(p.target_rate - 5) <= 0.05 && p.fanout_ms && p.fanout_ms.p99 != null)
    .sort((a, b) => a.order - b.order)[0] || null;
}

/** One repetition's level (a client run's level), its figures scaled by `factor`. */
function scaledLevel(level, factor) {
  const out = copy(level);
  delete out.repetition;
  if (out.saturation) {
    const point = out.points.find((p) => p.state === 'ok' && p.received_per_s === out.saturation.received_per_s);
    out.saturation.received_per_s *= factor;
    if (point) point.received_per_s = out.saturation.received_per_s;
  }
  if (out.fanout_saturation) out.fanout_saturation.copies_per_s = out.saturation ? out.saturation.received_per_s : out.fanout_saturation.copies_per_s * factor;
  if (out.idle && out.idle.server_bytes_per_session != null) out.idle.server_bytes_per_session *= factor;
  const atFive = pointAtFive(out.points);
  if (atFive) atFive.fanout_ms.p99 *= factor;
  return out;
}

/** bench/merge.py's merge_repetitions over `docs`, run by the runner's Python. */
function mergeWithRunner(docs) {
  const script = 'import json, sys\nsys.path.insert(0, sys.argv[1])\nfrom merge import merge_repetitions\n' +
    'print(json.dumps(merge_repetitions(json.load(sys.stdin))))';
  const run = spawnSync('python3', ['-c', script, BENCH_DIR], { input: JSON.stringify(docs), encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`bench/merge.py failed: ${run.stderr || run.error}`);
  return JSON.parse(run.stdout);
}

/**
 * A three-repetition sessions run made from the real run with the most levels
 * (one of which had no ok point), merged as `make bench REPEAT=3` merges.
 * @returns {{result: object, base: object}} base: the real run it came from
 */
function repeatedSessionsRun() {
  const runs = realSessionsRuns().map((r) => r.result)
    .filter((r) => r.levels.some((l) => l.fanout_saturation === null) && r.levels.some((l) => l.fanout_saturation));
  const base = runs.sort((a, b) => b.levels.length - a.levels.length)[0];
  if (!base) throw new Error(`no real sessions run in ${SESSIONS_DIR} with both an ok level and one without an ok point`);
  const clientDoc = copy(base);
  delete clientDoc.runs;
  clientDoc.levels = base.levels.map((level) => (level.runs && level.runs.length ? level.runs[0] : level));
  for (const field of ['repetitions', 'median_repetition', 'runs']) for (const level of clientDoc.levels) delete level[field];
  const docs = REPETITION_FACTORS.map((factor) => ({ ...copy(clientDoc), levels: clientDoc.levels.map((l) => scaledLevel(l, factor)) }));
  const result = mergeWithRunner(docs);
  result.run_id = `${base.run_id}-repeated`;
  return { result, base };
}

/** The real run as a churn run of the v5 schema (parameters.churn_pct 5), to be named, never mixed with the plain one. */
function churnSessionsRun(base) {
  const result = copy(base);
  result.schema = 'sockbench.result/5';
  result.run_id = `${base.run_id}-churn`;
  result.parameters.churn_pct = 5;
  return result;
}

module.exports = { REPETITION_FACTORS, realSessionsRuns, repeatedSessionsRun, churnSessionsRun, pointAtFive };
