'use strict';
// The test fixtures, read straight from disk: the oracle the pages are checked
// against. Real result files, the deliberately broken ones (invalid-*.json),
// and cases derived from a real run at test time.

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
 * A real run given the repeated-run fields of sockbench.result/2 (issue 16:
 * `repetitions` and `saturation.spread`), to check that the site draws and
 * words a spread. Shape only, no number invented: the median is the level's
 * real saturation figure, and min/max are the received rates of the ramp
 * points measured just below and just above it in the same level (what the
 * neighbouring steps of that server actually delivered). Replace with a real
 * REPEAT=3 fixture once `make bench` writes one.
 */
function repeatedRun(result) {
  const repeated = JSON.parse(JSON.stringify(result));
  repeated.run_id = `${result.run_id}-repeated`;
  repeated.label = `${result.label} (spread check)`;
  const spreadLevels = [];
  for (const level of repeated.levels) {
    if (!level.saturation) continue;
    const i = level.points.findIndex((p) => p.state === 'ok' && p.received_per_s === level.saturation.received_per_s);
    const below = level.points[i - 1];
    const above = level.points[i + 1];
    if (!below || !above) continue;
    const median = level.saturation.received_per_s;
    const [min, max] = [below.received_per_s, above.received_per_s].sort((a, b) => a - b);
    if (!(min <= median && median <= max)) continue;
    level.repetitions = 3;
    level.saturation.spread = { min, median, max };
    spreadLevels.push(level);
  }
  return { repeated, spreadLevels };
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

module.exports = { FIXTURES_DIR, brokenFiles, realRuns, derivedRun, repeatedRun, hasTwoMeasuredPoints, expectedRttAt };
