// The figures the Sessions page compares across runs of the `sessions`
// profile, per level of sessions (docs/sessions.md): server memory per idle
// session, the fan-out saturation in copies/s (a floor or the server's limit
// by the one rule of floors.js), and every copy's p99 at the fixed rate of
// 5 msgs/s that the profile's ×√5 grid passes at every level. Each with its
// min/median/max over the level's repetitions (levels[].runs[]) when there
// are several. Pure functions (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./floors'));
  else (root.Sockbench = root.Sockbench || {}).sessionsFigures = factory(root.Sockbench.floors);
})(typeof self !== 'undefined' ? self : this, function (floors) {
  'use strict';

  /** The rate (msgs/s sent) at which every level's all-copies p99 is compared. */
  const FIXED_RATE = 5;

  /**
   * How far a point's target rate may sit from FIXED_RATE and still be that
   * point (a fraction): the client writes rates rounded to 3 decimals, and the
   * ×√5 grid's neighbours of 5 (2.236, 11.18) are far outside 1 %.
   */
  const RATE_TOLERANCE = 0.01;

  /** One KB here is 1,024 bytes, as the RSS figures' MiB are 1,048,576. */
  const KB = 1024;

  /**
   * Whether a result is a sessions run: its saturation is the fan-out verdict
   * (every copy's p99 under 200 ms), not the own-copy mean of the other profiles.
   */
  function isSessionsResult(result) {
    const parameters = (result && result.parameters) || {};
    return parameters.profile === 'sessions' || parameters.all_copies === true;
  }

  /** A site run entry ({result}) of the sessions profile; never a 2011 run. */
  const isSessionsRun = (run) => run.kind !== 'historic' && isSessionsResult(run.result);

  /**
   * The point measured at `rate` msgs/s (target within RATE_TOLERANCE) that
   * timed every copy; with several (a confirm re-run at that rate), the first
   * measured (lowest `order`): the ramp's own. null when the level has none.
   * A point during which an agent was lost (state agent_lost) is never it:
   * its p99 leaves out that agent's sessions.
   */
  function pointAtRate(points, rate = FIXED_RATE) {
    const near = (points || []).filter((p) => p.target_rate != null && Math.abs(p.target_rate - rate) <= rate * RATE_TOLERANCE &&
      p.state !== 'agent_lost' && p.fanout_ms && p.fanout_ms.p99 != null);
    if (near.length === 0) return null;
    return near.reduce((first, p) => ((p.order ?? Infinity) < (first.order ?? Infinity) ? p : first));
  }

  /** A level's repetitions: its runs[] when it was repeated, else the level itself. */
  const repetitionsOf = (level) => (level.runs && level.runs.length ? level.runs : [level]);

  /**
   * {min, median, max} of the values measured in more than one repetition,
   * the median being the lower middle value for an even count (a measured
   * figure, the cautious one: bench/merge.py's rule for saturation.spread);
   * null for fewer than two values.
   */
  function spreadOf(values) {
    const measured = values.filter((v) => v != null).sort((a, b) => a - b);
    if (measured.length < 2) return null;
    return { min: measured[0], median: measured[Math.floor((measured.length - 1) / 2)], max: measured[measured.length - 1] };
  }

  /**
   * One figure of a level over its repetitions: `value` the median where it
   * was repeated (the level's own reading otherwise), `spread` and `count`
   * of the repetitions that measured it.
   */
  function figureOver(level, read) {
    const values = repetitionsOf(level).map(read);
    const spread = spreadOf(values);
    const count = values.filter((v) => v != null).length;
    return { value: spread ? spread.median : read(level), spread, count, absent: values.length - count, of: values.length };
  }

  const idleOf = (level) => level.idle || {};

  /** The highest target rate a level's ramp reached (msgs/s); null without points. */
  function highestRate(level) {
    const rates = (level.points || []).map((p) => p.target_rate).filter((r) => r != null);
    return rates.length ? Math.max(...rates) : null;
  }

  /** Why a level has no p99 at the fixed rate: most often its ramp saturated below it and stopped. */
  function noPointAtFixedRateText(figure, formatRate) {
    return figure.highestRate != null && figure.highestRate < FIXED_RATE
      ? `ramp ended at ${formatRate(figure.highestRate)} msgs/s, below ${FIXED_RATE}`
      : `no point at ${FIXED_RATE} msgs/s`;
  }
  const kb = (bytes) => (bytes == null ? null : bytes / KB);

  /**
   * @param {object} result a sockbench.result/4 or later document of the sessions profile
   * @returns {object[]} per level, in the order run: concurrency, connected,
   *   workers and agents (1 when unrecorded), repetitions, connect and idle
   *   (the level's records, null when absent), serverKbPerSession and
   *   clientKbPerSession (figureOver of idle.*_bytes_per_session / 1024),
   *   saturation (figureOver of fanout_saturation.copies_per_s, with the
   *   level's fanout_saturation as `record`), floorReasons and limitNotes of
   *   that figure (floors.js, the rule the summary uses: the level's
   *   `saturation` is the fan-out one), p99AtFixedRate (figureOver of the
   *   all-copies p99 of pointAtRate, with `point`, the level's own point, and
   *   `clientBound` when that point was), endReason and highestRate (the
   *   ramp's highest target rate, msgs/s). Each figureOver
   *   also says in how many repetitions the figure was `absent` (no ok
   *   point, no point at the fixed rate) `of` how many.
   */
  function levelFigures(result) {
    const server = floors.serverView(result);
    return result.levels.map((level) => {
      const fixedPoint = pointAtRate(level.points);
      const fanout = level.fanout_saturation || null;
      return {
        concurrency: level.concurrency,
        connected: level.connected,
        connectErrors: level.connect_errors,
        connectS: level.connect_s,
        workers: level.workers || 1,
        agents: level.agents || 1,
        repetitions: level.repetitions || 1,
        connect: level.connect || null,
        idle: level.idle || null,
        serverKbPerSession: figureOver(level, (l) => kb(idleOf(l).server_bytes_per_session)),
        clientKbPerSession: figureOver(level, (l) => kb(idleOf(l).client_bytes_per_session)),
        saturation: { ...figureOver(level, (l) => (l.fanout_saturation ? l.fanout_saturation.copies_per_s : null)), record: fanout },
        floorReasons: fanout ? floors.levelFloorReasons(level, server) : [],
        limitNotes: fanout ? floors.levelLimitNotes(level, server) : [],
        p99AtFixedRate: {
          ...figureOver(level, (l) => {
            const point = pointAtRate(l.points);
            return point ? point.fanout_ms.p99 : null;
          }),
          point: fixedPoint,
          clientBound: Boolean(fixedPoint && fixedPoint.client_bound),
        },
        endReason: level.end_reason,
        highestRate: highestRate(level),
      };
    });
  }

  // The three charts' figures, by name: the figure of a level each one draws.
  const CHART_FIGURES = {
    memory: (f) => f.serverKbPerSession,
    saturation: (f) => f.saturation,
    'p99-at-5': (f) => f.p99AtFixedRate,
  };

  /**
   * One run's series for a Sessions chart.
   * @param {object} result a sessions result
   * @param {'memory'|'saturation'|'p99-at-5'} chart
   * @returns {{data: number[][], band: number[][], floors: number[][], flags: boolean[], figures: object[], missing: object[]}}
   *   data: [sessions, value] (the median where repeated); band: [sessions,
   *   max, min] where a level was repeated; floors: the points marked ✕ (a
   *   fan-out saturation that is a floor; a p99 at 5 msgs/s whose point was
   *   client-bound, so it timed the client); flags: per data point, whether it
   *   is marked (its segments are dashed); figures: levelFigures behind data;
   *   missing: the levelFigures of levels that ran without a figure here (a
   *   "no figure" marker on the charts of NO_FIGURE_MARKED; [] on the others).
   */
  function chartSeries(result, chart) {
    const pick = CHART_FIGURES[chart];
    if (!pick) throw new Error(`no Sessions chart ${chart}`);
    const all = levelFigures(result);
    const figures = all.filter((f) => pick(f).value != null);
    const marked = (f) => (chart === 'saturation' ? f.floorReasons.length > 0 : chart === 'p99-at-5' && f.p99AtFixedRate.clientBound);
    const data = figures.map((f) => [f.concurrency, pick(f).value]);
    return {
      data,
      band: figures.filter((f) => pick(f).spread).map((f) => [f.concurrency, pick(f).spread.max, pick(f).spread.min]),
      floors: figures.filter(marked).map((f) => [f.concurrency, pick(f).value]),
      flags: figures.map(marked),
      figures,
      missing: NO_FIGURE_MARKED.includes(chart) ? all.filter((f) => pick(f).value == null) : [],
    };
  }

  /**
   * The charts where a level that ran but has no figure gets a "no figure"
   * marker: a fan-out saturation of null means not even the first rate kept
   * every copy's p99 under 200 ms (a result, not a gap), and a level with no
   * point at 5 msgs/s saturated below it. Memory that was not recorded is
   * only missing, so it is left out.
   */
  const NO_FIGURE_MARKED = ['saturation', 'p99-at-5'];

  /** A run's churn, percent of each level's sessions cycling per second (parameters.churn_pct, v5); 0 without. */
  function churnPct(result) {
    const pct = ((result && result.parameters) || {}).churn_pct;
    return typeof pct === 'number' && pct > 0 ? pct : 0;
  }

  /** " · churn 5 %" for a churn run's label, "" for a plain one: the two are never one line. */
  const churnText = (result) => (churnPct(result) > 0 ? ` · churn ${Number(churnPct(result).toPrecision(3))} %` : '');

  /** "median of 3, range a–b" or "single run", the summary's words, for a figureOver. */
  function spreadText(figure, formatValue) {
    return figure.spread
      ? `median of ${figure.count}, range ${formatValue(figure.spread.min)}–${formatValue(figure.spread.max)}`
      : 'single run';
  }

  /**
   * "no ok point in 1 of 3 repetitions" when some repetitions of a level had
   * no figure (`what` names the absence); null when none or a single run.
   */
  function absentText(figure, what) {
    return figure.of > 1 && figure.absent > 0 ? `${what} in ${figure.absent} of ${figure.of} repetitions` : null;
  }

  /** "1 worker, 1 agent" / "3 workers, 3 agents": the processes that held a level. */
  function processesText(figure) {
    const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
    return `${plural(figure.workers, 'worker')}, ${plural(figure.agents, 'agent')}`;
  }

  /** Connect failures by reason, most first: "Too many open files 10, timeout 2"; "none" for {}; null unrecorded. */
  function failuresText(connect) {
    if (!connect || !connect.failures) return null;
    const entries = Object.entries(connect.failures).sort((a, b) => b[1] - a[1]);
    return entries.length ? entries.map(([reason, n]) => `${reason} ${n}`).join(', ') : 'none';
  }

  return {
    FIXED_RATE, RATE_TOLERANCE, KB, NO_FIGURE_MARKED, isSessionsResult, isSessionsRun, pointAtRate, spreadOf, levelFigures, chartSeries,
    spreadText, absentText, noPointAtFixedRateText, processesText, failuresText, churnPct, churnText,
  };
});
