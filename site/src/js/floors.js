// Whether a saturation figure is the server's limit or only a floor.
//
// The kit's fairness rule (docs/methodology.md, "A figure is the server's
// limit, or a floor"): a saturation figure counts as the server's only when the server's core was >= 95 % busy at that point
// and the client was not client-bound. Otherwise something else stopped the
// climb (the client, or idle time the server still had) and the figure says
// only "at least this much". A level that ended because the profile's maximum
// rate was reached (or was cut short) never saw the server overloaded: also a
// floor. bench/floors.py applies the same rule with the same reason words for
// `make compare`; the two are kept in step by one table of cases,
// docs/contract/floor-rule-cases.json, that both their tests run.
// A run whose server was not sampled (`make bench-url` without SERVER_PID:
// server.pid null) is judged from the client's side alone (client-bound, how
// the level ended), said once (NOT_SAMPLED_NOTE) rather than on every level.
// Pure functions (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).floors = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  /**
   * The server's core must have been at least this busy (percent of one core,
   * as the client samples /proc/PID/stat) for its saturation figure to count
   * as the server's limit: the fairness rule of docs/methodology.md.
   */
  const SERVER_BUSY_PCT = 95;

  // Level endings that never overloaded the server, and how a reason names them.
  const ENDS_WITHOUT_OVERLOAD = {
    max_rate: 'max rate reached (never overloaded)',
    connect_failed: 'level ended: connect_failed',
    aborted: 'level ended: aborted',
  };

  // Reason kinds in the order they are told; "busy" stands for "server N % busy (< 95 %)".
  const RANK = ['client-bound', 'server CPU not measured', 'busy', ...Object.values(ENDS_WITHOUT_OVERLOAD)];

  /** Said once per run when the server was not sampled (bench/floors.py has the same words; the table of cases checks both). */
  const NOT_SAMPLED_NOTE = 'server not sampled (no server pid: make bench-url without SERVER_PID): no server CPU or ' +
    'RSS; floors are judged from the client\'s side alone (client-bound, how each level ended)';

  /**
   * Whether the run sampled its server's CPU and RSS from /proc: false only
   * for a result whose server.pid is null (a server benchmarked by URL alone).
   */
  const serverSampled = (result) => !(result.server && result.server.pid === null);

  /** Busy percent as text, rounded down: 94.6 must not read as "95 % busy (< 95 %)". */
  const pctText = (cpu) => String(Math.floor(cpu));

  const busyText = (range) => `server ${range} % busy (< ${SERVER_BUSY_PCT} %)`;

  /**
   * The server's CPU % at a level's saturation point: the saturation object's
   * own field (v2), else the measured point it came from (v1 files: same
   * received/s, state ok); null if neither.
   */
  function saturationServerCpu(level) {
    const sat = level.saturation || {};
    if (sat.server_cpu_pct != null) return sat.server_cpu_pct;
    const point = (level.points || []).find((p) => p.state === 'ok' && p.received_per_s === sat.received_per_s);
    return point && point.server_cpu_pct != null ? point.server_cpu_pct : null;
  }

  /**
   * The kinds of floor one repetition's figure is, in RANK order; [] when it
   * is the server's limit. Without a sampled server only the client's side counts.
   */
  function repetitionKinds(level, sampled = true) {
    const sat = level.saturation;
    if (!sat) return [];
    const kinds = [];
    const cpu = saturationServerCpu(level);
    if (sat.client_bound) kinds.push('client-bound');
    if (sampled && cpu == null) kinds.push('server CPU not measured');
    else if (sampled && cpu < SERVER_BUSY_PCT) kinds.push('busy');
    const end = ENDS_WITHOUT_OVERLOAD[level.end_reason];
    if (end) kinds.push(end);
    return kinds;
  }

  /**
   * Why one repetition's saturation figure is a floor.
   * @param {object} level a level object of a result file, or one element of
   *   a repeated level's `runs[]` (each is one repetition's level verbatim)
   * @param {boolean} [sampled] serverSampled(result) of its file (default true)
   * @returns {string[]} the reasons; [] when the figure is the server's limit,
   *   or when the level has no figure at all (no `saturation`)
   */
  function repetitionFloorReasons(level, sampled = true) {
    return repetitionKinds(level, sampled).map((kind) => (kind === 'busy' ? busyText(pctText(saturationServerCpu(level))) : kind));
  }

  /**
   * Why a level's headline figure (the median over its repetitions) is a
   * floor: every repetition's reasons merged by kind, in the order above,
   * each with "in k of n" when the level was repeated. Conservative on
   * purpose: one floor among the repetitions marks the level, as "client-bound
   * in at least one repetition" always has. Busy percentages differ per
   * repetition, so the merged one gives their range
   * ("server 81–93 % busy (< 95 %) in 2 of 3").
   * @param {object} level a level object of a result file; its `runs[]`, when
   *   present, are the repetitions, otherwise the level is its only one
   * @param {boolean} [sampled] serverSampled(result) of its file (default
   *   true; false: the client's side alone decides)
   * @returns {string[]} [] when every repetition's figure was the server's limit
   */
  function levelFloorReasons(level, sampled = true) {
    const runs = level.runs && level.runs.length ? level.runs : [level];
    const counts = new Map();
    const busy = [];
    for (const run of runs) {
      for (const kind of repetitionKinds(run, sampled)) {
        counts.set(kind, (counts.get(kind) || 0) + 1);
        if (kind === 'busy') busy.push(saturationServerCpu(run));
      }
    }
    return RANK.filter((kind) => counts.has(kind)).map((kind) => {
      let text = kind;
      if (kind === 'busy') {
        const [lo, hi] = [pctText(Math.min(...busy)), pctText(Math.max(...busy))];
        text = busyText(lo === hi ? lo : `${lo}–${hi}`);
      }
      return runs.length > 1 ? `${text} in ${counts.get(kind)} of ${runs.length}` : text;
    });
  }

  /** How the pages word a floor's reasons (chart hover, level and summary tables). */
  function describeFloor(reasons) {
    return `a floor: ${reasons.join(', ')}`;
  }

  /** Put before a figure that is a floor: the server's limit is at least this. */
  const FLOOR_PREFIX = '≥ ';

  return {
    SERVER_BUSY_PCT, FLOOR_PREFIX, NOT_SAMPLED_NOTE, serverSampled, saturationServerCpu, repetitionFloorReasons,
    levelFloorReasons, describeFloor,
  };
});
