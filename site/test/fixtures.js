'use strict';
// The test fixtures, read straight from disk: the oracle the pages are checked
// against. Real result files (one of them repeated), the deliberately broken
// ones (invalid-*.json), and cases derived from a real run at test time.

const fs = require('node:fs');
const path = require('node:path');

// SITE_TEST_FIXTURES points the tests at another directory laid out the same way.
const FIXTURES_DIR = path.resolve(process.env.SITE_TEST_FIXTURES || path.join(__dirname, 'fixtures'));

const fixtureFiles = fs.readdirSync(FIXTURES_DIR)
  .filter((name) => name.endsWith('.json') && name !== 'schema.json').sort();
const brokenFiles = fixtureFiles.filter((name) => name.startsWith('invalid-'));
const realRuns = fixtureFiles
  .filter((name) => !name.startsWith('invalid-'))
  .map((name) => ({
    file: name,
    bytes: fs.readFileSync(path.join(FIXTURES_DIR, name)),
    result: JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, name), 'utf8')),
  }));
if (realRuns.length === 0) {
  throw new Error(`no real result file in ${FIXTURES_DIR}: the browser tests need at least one (see fixtures/README.md)`);
}

/**
 * A real run turned into the cases the fixtures lack, without inventing a
 * number: measurements are only taken away or flagged. No server pid, so no
 * RSS or server CPU; its last level never connected and has no points; and
 * the saturation point of an earlier level is flagged client-bound (as if the
 * client had fallen behind there), with the warning the client would write.
 */
function derivedRun(result) {
  const derived = JSON.parse(JSON.stringify(result));
  derived.run_id = `${result.run_id}-derived`;
  derived.server.pid = null;
  for (const point of derived.levels.flatMap((l) => l.points)) {
    point.server_rss_bytes = null;
    point.server_cpu_pct = null;
  }
  const last = derived.levels[derived.levels.length - 1];
  Object.assign(last, { connected: 0, points: [], saturation: null, end_reason: 'connect_failed' });
  derived.warnings.push(`N=${last.concurrency}: connect_failed (0 of ${last.concurrency} connected)`);

  const flagged = derived.levels.slice(0, -1).find((l) => l.saturation);
  if (flagged) {
    const point = flagged.points.find((p) => p.state === 'ok' && p.received_per_s === flagged.saturation.received_per_s);
    Object.assign(point, { client_bound: true, client_bound_reasons: ['send_rate'] });
    flagged.saturation.client_bound = true;
    derived.warnings.push(`N=${flagged.concurrency}: 1 client-bound point (send_rate)`);
  }
  return { derived, flagged };
}

/**
 * The real result files measured with repetitions (sockbench.result/2 written
 * by `bench/run_bench.py --repeat N`): at least one level with a `spread`.
 * Empty when the fixture directory has none; the tests that need one skip.
 */
const repeatedRuns = realRuns.filter((run) => run.result.levels.some((l) => l.saturation && l.saturation.spread));

// The fairness rule as docs/methodology.md states it, written from the result files'
// fields for the tests (the site's own is src/js/floors.js): a saturation
// figure is the server's limit only when the client was not client-bound, the
// level overloaded the server, and the server was >= 95 % busy -- or, at 80 %
// or more, the client had clear headroom (its CPU <= 75 % of a core and, where the
// level records the client's ceiling, the received rate <= 80 % of it): then
// the figure is the server's own limit below full CPU, labelled, not a floor.
// A level's figure is a floor when any of its repetitions' is. A run whose
// server was not sampled (server.pid null: a server benchmarked by URL alone)
// has no server CPU to judge by: only the client's side counts (client-bound,
// how the level ended).
const SERVER_BUSY_PCT = 95;
const SERVER_OWN_LIMIT_MIN_PCT = 80;
const CLIENT_HEADROOM_CPU_PCT = 75;
const CLIENT_CEILING_SHARE_PCT = 80;
const ENDS_WITHOUT_OVERLOAD = ['max_rate', 'client_ceiling', 'connect_failed', 'aborted', 'agent_lost'];

/** The point a level's figure was taken at (state ok, same received/s); null if none. */
function figurePoint(level) {
  return (level.points || []).find((p) => p.state === 'ok' && p.received_per_s === level.saturation.received_per_s) || null;
}

/**
 * A CPU % behind a level's (or one repetition's) saturation figure, `field`
 * being server_cpu_pct or client_cpu_pct: the saturation object's own (version
 * 2 files), else, for version 1 files that lack it, that of the measured point
 * the figure was taken at (state ok, same received/s); null when neither
 * recorded one.
 */
function figureField(level, field) {
  const sat = level.saturation;
  if (!sat) return null;
  if (sat[field] != null) return sat[field];
  const point = figurePoint(level);
  return point && point[field] != null ? point[field] : null;
}

/** The server CPU % behind the figure; null when not recorded. */
const saturationServerCpu = (level) => figureField(level, 'server_cpu_pct');

/** The client CPU % behind the figure; null when not recorded. */
const saturationClientCpu = (level) => figureField(level, 'client_cpu_pct');

/** Whether one repetition's figure is the server's own limit below full CPU (sampled server). */
function isOwnLimit(level, sampled = true) {
  const sat = level.saturation;
  if (!sat) return false;
  const cpu = saturationServerCpu(level);
  const client = saturationClientCpu(level);
  const ceiling = level.client_ceiling_per_s;
  const underCeiling = !(ceiling > 0) || sat.received_per_s * 100 <= CLIENT_CEILING_SHARE_PCT * ceiling;
  return sampled && !sat.client_bound && !ENDS_WITHOUT_OVERLOAD.includes(level.end_reason) &&
    cpu != null && cpu >= SERVER_OWN_LIMIT_MIN_PCT && cpu < SERVER_BUSY_PCT && client != null && client <= CLIENT_HEADROOM_CPU_PCT && underCeiling;
}

/**
 * Whether one repetition's figure (a level, or one entry of its `runs[]`) is a floor.
 * sampled: false for a run whose server.pid is null.
 */
function isRepetitionFloor(level, sampled = true) {
  const sat = level.saturation;
  if (!sat) return false;
  const cpu = saturationServerCpu(level);
  const serverIdle = sampled && (cpu == null || cpu < SERVER_BUSY_PCT) && !isOwnLimit(level, sampled);
  return Boolean(sat.client_bound) || serverIdle || ENDS_WITHOUT_OVERLOAD.includes(level.end_reason);
}

function isFloor(level, sampled = true) {
  return (level.runs && level.runs.length ? level.runs : [level]).some((run) => isRepetitionFloor(run, sampled));
}

function hasTwoMeasuredPoints(level) {
  return level.points.filter((p) => p.rtt_ms.mean != null).length >= 2;
}

/**
 * RTT at x along the straight segments between points in ramp order (first
 * crossing); on a log rate axis the segments are straight in log x.
 */
function expectedRttAt(points, field, stat, x, logX) {
  const f = logX ? Math.log : (v) => v;
  const xy = points.filter((p) => p.rtt_ms[stat] != null).map((p) => [p[field], p.rtt_ms[stat]]);
  for (let i = 0; i + 1 < xy.length; i++) {
    const [x0, y0] = xy[i];
    const [x1, y1] = xy[i + 1];
    if ((x0 <= x && x <= x1) || (x1 <= x && x <= x0)) {
      return x0 === x1 ? y0 : y0 + ((y1 - y0) * (f(x) - f(x0))) / (f(x1) - f(x0));
    }
  }
  return null;
}

module.exports = {
  FIXTURES_DIR, brokenFiles, realRuns, repeatedRuns, derivedRun,
  SERVER_BUSY_PCT, saturationServerCpu, saturationClientCpu, isOwnLimit, isRepetitionFloor, isFloor, hasTwoMeasuredPoints,
  expectedRttAt,
};
