// The figures the summary page compares across runs, per concurrency level:
// saturation throughput and server memory, and whether each saturation figure
// is the server's limit or a floor (floors.js). Pure functions (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./floors'));
  else (root.Sockbench = root.Sockbench || {}).summaryFigures = factory(root.Sockbench.floors);
})(typeof self !== 'undefined' ? self : this, function (floors) {
  'use strict';

  /**
   * The measured point behind a level's saturation figure (same received
   * rate, state ok), for the CPU and steal read there; null if not found.
   */
  function saturationPoint(level) {
    const sat = level.saturation;
    if (!sat) return null;
    return level.points.find((p) => p.state === 'ok' && p.received_per_s === sat.received_per_s) || null;
  }

  const orNull = (value) => (value == null ? null : value);

  /**
   * @param {object} result a sockbench.result/1 or /2 document (or the
   *   historic adapter's result shape)
   * @returns {{concurrency: number, connected: number, saturation: object|null,
   *            repetitions: number, spread: {min: number, median: number, max: number}|null,
   *            serverCpuPct: number|null, clientCpuPct: number|null, stealPct: number|null,
   *            rssAtStartBytes: number|null, peakRssBytes: number|null, endReason: string,
   *            floorReasons: string[], limitNotes: string[]}[]}
   *   `saturation` is the level's own verdict (highest received msgs/s of a
   *   point whose mean RTT stayed under ok_mean_ms), as the client wrote it;
   *   with repetitions its received_per_s is their median and `spread`
   *   their min/median/max (absent in single-run files: `repetitions` 1).
   *   CPU and steal are those of the saturation point. RSS: the server
   *   process serves every level in order, so a level's peak includes what
   *   earlier levels left; `rssAtStartBytes` (its first point) shows that.
   *   `floorReasons`: why the saturation figure is only a floor for the
   *   server (floors.levelFloorReasons; [] when it is the server's limit or
   *   there is no figure). `limitNotes`: the label of a figure that was the
   *   server's own limit below full CPU in some or all repetitions
   *   (floors.levelLimitNotes; [] otherwise). 2011's published runs are never
   *   marked: they published no CPU, and the rule is today's, not theirs.
   */
  function levelFigures(result) {
    return result.levels.map((level) => {
      const rss = level.points.map((p) => p.server_rss_bytes).filter((b) => b != null);
      const sat = level.saturation;
      const point = saturationPoint(level);
      const spread = sat && sat.spread ? sat.spread : null;
      return {
        concurrency: level.concurrency,
        connected: level.connected,
        saturation: sat,
        repetitions: level.repetitions || 1,
        spread,
        serverCpuPct: orNull(sat && sat.server_cpu_pct != null ? sat.server_cpu_pct : point && point.server_cpu_pct),
        clientCpuPct: orNull(sat && sat.client_cpu_pct != null ? sat.client_cpu_pct : point && point.client_cpu_pct),
        stealPct: orNull(point && point.steal_pct),
        rssAtStartBytes: rss.length ? rss[0] : null,
        peakRssBytes: rss.length ? Math.max(...rss) : null,
        endReason: level.end_reason,
        floorReasons: result.historic ? [] : floors.levelFloorReasons(level, floors.serverView(result)),
        limitNotes: result.historic ? [] : floors.levelLimitNotes(level, floors.serverView(result)),
      };
    });
  }

  /** True when some level of the run carries a spread over more than one repetition. */
  function hasRepetitions(result) {
    return levelFigures(result).some((f) => f.spread && f.repetitions > 1);
  }

  /**
   * Series for "saturation throughput vs concurrency".
   * @returns {{data: number[][], band: number[][], floors: number[][], figures: object[]}}
   *   data: [N, received msgs/s] (the median when repeated); band: [N, max, min]
   *   for levels with a spread; floors: the data points whose figure is only a
   *   floor for the server (client-bound, server < 95 % busy, max rate reached,
   *   …: see `floorReasons`); figures: the levelFigures behind `data`, index for index.
   */
  function saturationSeries(result) {
    const figures = levelFigures(result).filter((f) => f.saturation);
    return {
      data: figures.map((f) => [f.concurrency, f.spread ? f.spread.median : f.saturation.received_per_s]),
      band: figures.filter((f) => f.spread && f.repetitions > 1)
        .map((f) => [f.concurrency, f.spread.max, f.spread.min]),
      floors: figures
        .filter((f) => f.floorReasons.length > 0)
        .map((f) => [f.concurrency, f.spread ? f.spread.median : f.saturation.received_per_s]),
      figures,
    };
  }

  /** Series for "server RSS vs concurrency": peak and level-start, [[N, MiB]]. */
  function rssSeries(result) {
    const figures = levelFigures(result).filter((f) => f.peakRssBytes != null);
    return {
      data: figures.map((f) => [f.concurrency, f.peakRssBytes / (1024 * 1024)]),
      atStart: figures.map((f) => [f.concurrency, f.rssAtStartBytes / (1024 * 1024)]),
      figures,
    };
  }

  // What can tell two runs with one label apart, in the order it is worth saying.
  const DISTINGUISHERS = [
    (run) => (run.result.client.transport === 'raw' ? 'raw websocket' : 'SockJS framed'),
    (run) => `profile ${run.result.parameters.profile}`,
    (run) => run.result.machine.hostname,
    (run) => run.result.started_at.slice(0, 16).replace('T', ' '),
    (run) => run.run_id,
  ];

  /**
   * Legend labels must tell runs apart: when several runs share a label
   * (same server, runtime, codec, mode), each gets, in parentheses, what
   * differs between them (transport, profile, host, start time), as few
   * of those as it takes.
   * @param {{label: string, run_id: string, result: object}[]} runs
   * @returns {string[]} one label per run
   */
  function distinctLabels(runs) {
    const groups = new Map();
    for (const run of runs) {
      if (!groups.has(run.label)) groups.set(run.label, []);
      groups.get(run.label).push(run);
    }
    const extra = new Map();
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      const parts = group.map(() => []);
      for (const describe of DISTINGUISHERS) {
        const values = group.map(describe);
        if (new Set(values).size > 1) values.forEach((value, i) => parts[i].push(value));
        const keys = parts.map((p) => p.join(', '));
        if (new Set(keys).size === group.length) break;
      }
      group.forEach((run, i) => extra.set(run, parts[i].join(', ')));
    }
    return runs.map((run) => (extra.has(run) ? `${run.label} (${extra.get(run)})` : run.label));
  }

  return { levelFigures, saturationPoint, hasRepetitions, saturationSeries, rssSeries, distinctLabels };
});
