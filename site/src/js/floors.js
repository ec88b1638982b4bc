// Whether a saturation figure is the server's limit or only a floor.
//
// The kit's fairness rule (docs/methodology.md, "A figure is the server's
// limit, or a floor"): a saturation figure counts as the server's only when
// nothing else stopped the climb: the client was not client-bound, the level
// really overloaded the server, and either the server's core was >= 95 % busy
// at that point, or it was at least SERVER_OWN_LIMIT_MIN_PCT busy and the
// client had clear headroom there (its CPU at most
// CLIENT_HEADROOM_CPU_PCT and, where the client's measured ceiling is known,
// the received rate at most CLIENT_CEILING_SHARE_PCT of it). In the second
// case the latency collapse is the server's own limit reached below full CPU
// (timers, GC, Nagle...): not a floor, but labelled so with the CPU seen
// (levelLimitNotes). Otherwise the figure says only "at least this much": a
// floor, its reasons naming both sides. A level that ended because the
// profile's maximum rate or the client's measured ceiling was reached (or was
// cut short) never saw the server overloaded: also a floor. bench/floors.py
// applies the same rule with the same words for `make compare` (its comments
// say why the constants are what they are); the two are kept in step by one
// table of cases, docs/contract/floor-rule-cases.json, that both their tests run.
// A run whose server was not sampled (`make bench-url` without SERVER_PID:
// server.pid null) is judged from the client's side alone (client-bound, how
// the level ended), said once (NOT_SAMPLED_NOTE) rather than on every level.
// A server that ran under a CPU quota (make bench-scaleout: server.cpu_quota)
// is judged against the quota instead of a whole core ("< 95 % of its 25 %
// quota"). What the rule knows of a run's server besides its levels is one
// view, serverView(result) = {sampled, capacityPct}, which callers pass on.
// Pure functions (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).floors = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  /**
   * The server's core must have been at least this busy (percent of one core,
   * as the client samples /proc/PID/stat) for its saturation figure to count
   * as the server's limit at full CPU: the fairness rule of docs/methodology.md.
   */
  const SERVER_BUSY_PCT = 95;

  /**
   * Below full CPU, the latency collapse is taken for the server's own only
   * when its core was at least this busy (percent of one core,
   * 0..SERVER_BUSY_PCT); idler than that, something outside it is the likelier
   * cause and the figure stays a floor (bench/floors.py says why 80).
   */
  const SERVER_OWN_LIMIT_MIN_PCT = 80;

  /**
   * Clear client headroom, CPU side: the client's CPU at the saturation point
   * (saturation.client_cpu_pct, percent of one core; a bound in 0..90, under
   * the client's own client-bound threshold of 90 %) at most this.
   */
  const CLIENT_HEADROOM_CPU_PCT = 75;

  /**
   * Clear client headroom, rate side: where the level records the client's
   * measured ceiling (client_ceiling_per_s, received msgs/s), the received
   * rate at the saturation point at most this percent of it (0..100).
   */
  const CLIENT_CEILING_SHARE_PCT = 80;

  // Level endings that never overloaded the server, and how a reason names them.
  const ENDS_WITHOUT_OVERLOAD = {
    max_rate: 'max rate reached (never overloaded)',
    client_ceiling: 'client ceiling reached (never overloaded)',
    connect_failed: 'level ended: connect_failed',
    aborted: 'level ended: aborted',
    agent_lost: 'level ended: agent_lost',
  };

  // Reason kinds in the order they are told; "busy" stands for "server N % busy (< 95 %), client ...".
  const RANK = ['client-bound', 'server CPU not measured', 'busy', ...Object.values(ENDS_WITHOUT_OVERLOAD)];

  /** Said once per run when the server was not sampled (bench/floors.py has the same words; the table of cases checks both). */
  const NOT_SAMPLED_NOTE = 'server not sampled (no server pid: make bench-url without SERVER_PID): no server CPU or ' +
    'RSS; floors are judged from the client\'s side alone (client-bound, how each level ended)';

  /**
   * Whether the run sampled its server's CPU and RSS from /proc: false only
   * for a result whose server.pid is null (a server benchmarked by URL alone).
   */
  const serverSampled = (result) => !(result.server && result.server.pid === null);

  /**
   * The CPU the sampled server processes could use, percent of one core: 100,
   * or under a cgroup CPU quota (server.cpu_quota) the quota of the processes
   * the per-point figures cover (server.per_point_scope): one worker's when
   * they are the first worker's alone (the default), the run group's
   * (workers × core_share) when summed; at most 100.
   */
  function serverCapacityPct(result) {
    const quota = result.server && result.server.cpu_quota;
    if (!quota) return 100;
    // A per-point CPU of one worker must not be held against the whole group's quota.
    const quotaUs = result.server.per_point_scope === 'all_processes' ? quota.workers_total_quota_us : quota.quota_us;
    return Math.min(100, 100 * quotaUs / quota.period_us);
  }

  /**
   * What the rule needs of a run's server besides its levels: sampled (false:
   * the client's side alone decides) and capacityPct (0 < x <= 100, percent of
   * one core; the busy thresholds are shares of it).
   */
  const serverView = (result) => ({ sampled: serverSampled(result), capacityPct: serverCapacityPct(result) });

  /** A sampled server on a whole core: every run but a URL-only or a quota one. */
  const WHOLE_CORE = Object.freeze({ sampled: true, capacityPct: 100 });

  /** `server` itself, or a TypeError when it is not a view (a bare boolean, as serverSampled gives, would read as "not sampled"). */
  function checkView(server) {
    if (server === null || typeof server !== 'object' || typeof server.capacityPct !== 'number') {
      throw new TypeError(`floors: expected serverView(result), got ${JSON.stringify(server)}`);
    }
    return server;
  }

  /** SERVER_BUSY_PCT of what the server could use, percent of one core. */
  const busyBar = (server) => SERVER_BUSY_PCT * server.capacityPct / 100;

  /** " of its 25 % quota" when the server ran under a CPU quota, else "". */
  // Six significant figures, as Python's `:g` prints it (a share of 1/3 must read the same in both).
  const ofQuota = (server) => (server.capacityPct >= 100 ? '' : ` of its ${Number(server.capacityPct.toPrecision(6))} % quota`);

  /**
   * `field` of the level's saturation object (v2), else of the measured point
   * the figure came from (v1 files: same received/s, state ok); null if neither.
   */
  function figureField(level, field) {
    const sat = level.saturation || {};
    if (sat[field] != null) return sat[field];
    const point = (level.points || []).find((p) => p.state === 'ok' && p.received_per_s === sat.received_per_s);
    return point && point[field] != null ? point[field] : null;
  }

  /** The server's CPU % at a level's saturation point (see figureField); null if not recorded. */
  const saturationServerCpu = (level) => figureField(level, 'server_cpu_pct');

  /** The client's CPU % (of one core) at a level's saturation point, found like the server's. */
  const saturationClientCpu = (level) => figureField(level, 'client_cpu_pct');

  /**
   * The saturation's received rate as a percent of the level's
   * client_ceiling_per_s (received msgs/s); null without a figure or a
   * ceiling (missing, null or not > 0: absent).
   */
  function ceilingSharePct(level) {
    const ceiling = level.client_ceiling_per_s;
    if (!level.saturation || typeof ceiling !== 'number' || !(ceiling > 0)) return null;
    return 100 * level.saturation.received_per_s / ceiling;
  }

  /** Whether the client clearly had room to spare at the saturation point (see the two constants). */
  function clientHeadroom(level) {
    const cpu = saturationClientCpu(level);
    const share = ceilingSharePct(level);
    return cpu != null && cpu <= CLIENT_HEADROOM_CPU_PCT && (share == null || share <= CLIENT_CEILING_SHARE_PCT);
  }

  /**
   * Whether one repetition's figure is the server's own limit reached below
   * full CPU: a sampled server at SERVER_OWN_LIMIT_MIN_PCT or more but under
   * SERVER_BUSY_PCT, nothing else making a floor (not client-bound, the level
   * overloaded the server) and clear client headroom.
   */
  function ownLimit(level, server = WHOLE_CORE) {
    const sat = level.saturation;
    const cpu = server.sampled ? saturationServerCpu(level) : null;
    return Boolean(sat) && !sat.client_bound && cpu != null &&
      cpu >= SERVER_OWN_LIMIT_MIN_PCT * server.capacityPct / 100 && cpu < busyBar(server) &&
      !ENDS_WITHOUT_OVERLOAD[level.end_reason] && clientHeadroom(level);
  }

  /**
   * The kinds of floor one repetition's figure is, in RANK order; [] when it
   * is the server's limit (at full CPU or its own below it). Without a sampled
   * server only the client's side counts.
   */
  function repetitionKinds(level, server = WHOLE_CORE) {
    const sat = level.saturation;
    if (!sat) return [];
    const kinds = [];
    const cpu = saturationServerCpu(level);
    if (sat.client_bound) kinds.push('client-bound');
    if (server.sampled && cpu == null) kinds.push('server CPU not measured');
    else if (server.sampled && cpu < busyBar(server) && !ownLimit(level, server)) kinds.push('busy');
    const end = ENDS_WITHOUT_OVERLOAD[level.end_reason];
    if (end) kinds.push(end);
    return kinds;
  }

  // A repetition of `level` with the level's client ceiling when it records
  // none of its own: the ceiling belongs to the level's connections and frames.
  function withLevelCeiling(run, level) {
    if (run.client_ceiling_per_s != null || level.client_ceiling_per_s == null) return run;
    return { ...run, client_ceiling_per_s: level.client_ceiling_per_s };
  }

  const runsOf = (level) => (level.runs && level.runs.length ? level.runs : [level]).map((run) => withLevelCeiling(run, level));

  const kOfN = (k, n) => (n > 1 ? ` in ${k} of ${n}` : '');

  /** 'lo–hi' of percentages rounded by `round`, or one number when both round alike. */
  function range(values, round) {
    const [lo, hi] = [round(Math.min(...values)), round(Math.max(...values))];
    return lo === hi ? String(lo) : `${lo}–${hi}`;
  }

  // Every number is rounded against the server, so a reason never reads as
  // less of a floor than it was: the server's CPU down (94.6 must not read as
  // "95 % busy (< 95 %)"), the client's CPU and its share of its ceiling up.
  function clientText(runs) {
    const cpus = runs.map(saturationClientCpu).filter((c) => c != null);
    const shares = runs.map(ceilingSharePct).filter((s) => s != null);
    return [cpus.length ? `client ${range(cpus, Math.ceil)} % busy` : 'client CPU not measured',
      shares.length ? `at ${range(shares, Math.ceil)} % of its ceiling` : null];
  }

  function busyText(runs, server) {
    const [client, ceiling] = clientText(runs);
    const cpu = range(runs.map(saturationServerCpu), Math.floor);
    return `server ${cpu} % busy (< ${SERVER_BUSY_PCT} %${ofQuota(server)}), ${client}${ceiling ? `, ${ceiling}` : ''}`;
  }

  function ownLimitText(runs, server) {
    const [client, ceiling] = clientText(runs);
    const cpu = range(runs.map(saturationServerCpu), Math.floor);
    return `server's own limit at ${cpu} % CPU${ofQuota(server)} (${[client, 'on schedule', ceiling].filter(Boolean).join(', ')})`;
  }

  /**
   * Why one repetition's saturation figure is a floor.
   * @param {object} level a level object of a result file, or one element of
   *   a repeated level's `runs[]` (each is one repetition's level verbatim)
   * @param {{sampled: boolean, capacityPct: number}} [server] serverView(result)
   *   of its file (default WHOLE_CORE)
   * @returns {string[]} the reasons; [] when the figure is the server's limit,
   *   or when the level has no figure at all (no `saturation`)
   */
  function repetitionFloorReasons(level, server = WHOLE_CORE) {
    checkView(server);
    return repetitionKinds(level, server).map((kind) => (kind === 'busy' ? busyText([level], server) : kind));
  }

  /**
   * The label of one repetition's figure when it is the server's own limit
   * reached below full CPU ("server's own limit at 87 % CPU (client 20 % busy,
   * on schedule)"). Arguments as repetitionFloorReasons.
   * @returns {string[]} [label], or [] when it is not
   */
  function repetitionLimitNotes(level, server = WHOLE_CORE) {
    checkView(server);
    return ownLimit(level, server) ? [ownLimitText([level], server)] : [];
  }

  /**
   * Why a level's headline figure (the median over its repetitions) is a
   * floor: every repetition's reasons merged by kind, in the order above,
   * each with "in k of n" when the level was repeated. Conservative on
   * purpose: one floor among the repetitions marks the level, as "client-bound
   * in at least one repetition" always has. Percentages differ per
   * repetition, so the merged reason gives their range
   * ("server 81–93 % busy (< 95 %), client 78–88 % busy in 2 of 3").
   * @param {object} level a level object of a result file; its `runs[]`, when
   *   present, are the repetitions, otherwise the level is its only one
   * @param {{sampled: boolean, capacityPct: number}} [server] serverView(result)
   *   of its file (default WHOLE_CORE; not sampled: the client's side alone decides)
   * @returns {string[]} [] when every repetition's figure was the server's limit
   */
  function levelFloorReasons(level, server = WHOLE_CORE) {
    checkView(server);
    const runs = runsOf(level);
    const byKind = new Map();
    for (const run of runs) {
      for (const kind of repetitionKinds(run, server)) byKind.set(kind, [...(byKind.get(kind) || []), run]);
    }
    return RANK.filter((kind) => byKind.has(kind)).map((kind) =>
      (kind === 'busy' ? busyText(byKind.get(kind), server) : kind) + kOfN(byKind.get(kind).length, runs.length));
  }

  /**
   * The label of a level some or all of whose repetitions' figures were the
   * server's own limit reached below full CPU, merged like the busy reason
   * ("server's own limit at 81–93 % CPU (client 13–27 % busy, on schedule)
   * in 2 of 3"). Shown beside the figure instead of a floor mark when
   * levelFloorReasons is [], beside the floor's reasons otherwise.
   * Arguments as levelFloorReasons.
   * @returns {string[]} [label], or [] when no repetition's was
   */
  function levelLimitNotes(level, server = WHOLE_CORE) {
    checkView(server);
    const runs = runsOf(level);
    const own = runs.filter((run) => ownLimit(run, server));
    return own.length ? [ownLimitText(own, server) + kOfN(own.length, runs.length)] : [];
  }

  /** How the pages word a floor's reasons (chart hover, level and summary tables). */
  function describeFloor(reasons) {
    return `a floor: ${reasons.join(', ')}`;
  }

  /** Put before a figure that is a floor: the server's limit is at least this. */
  const FLOOR_PREFIX = '≥ ';

  return {
    SERVER_BUSY_PCT, SERVER_OWN_LIMIT_MIN_PCT, CLIENT_HEADROOM_CPU_PCT, CLIENT_CEILING_SHARE_PCT, FLOOR_PREFIX, NOT_SAMPLED_NOTE, serverSampled,
    serverCapacityPct, serverView, WHOLE_CORE,
    saturationServerCpu, saturationClientCpu, repetitionFloorReasons, repetitionLimitNotes, levelFloorReasons,
    levelLimitNotes, describeFloor,
  };
});
