// The figures the summary page compares across runs, per concurrency level:
// saturation throughput and server memory. Pure functions (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).summaryFigures = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  /**
   * @param {object} result a sockbench.result/1 document
   * @returns {{concurrency: number, connected: number, saturation: object|null,
   *            peakRssBytes: number|null, endReason: string}[]}
   *   `saturation` is the level's own verdict (highest received msgs/s of a
   *   point whose mean RTT stayed under ok_mean_ms), as the client wrote it.
   *   `peakRssBytes` is the largest server RSS sampled during the level
   *   (null when the run had no --server-pid).
   */
  function levelFigures(result) {
    return result.levels.map((level) => {
      const rss = level.points.map((p) => p.server_rss_bytes).filter((b) => b != null);
      return {
        concurrency: level.concurrency,
        connected: level.connected,
        saturation: level.saturation,
        peakRssBytes: rss.length ? Math.max(...rss) : null,
        endReason: level.end_reason,
      };
    });
  }

  /** Series for "saturation throughput vs concurrency": [[N, received msgs/s]]. */
  function saturationSeries(result) {
    const figures = levelFigures(result);
    return {
      data: figures.filter((f) => f.saturation).map((f) => [f.concurrency, f.saturation.received_per_s]),
      clientBound: figures
        .filter((f) => f.saturation && f.saturation.client_bound)
        .map((f) => [f.concurrency, f.saturation.received_per_s]),
    };
  }

  /** Series for "server RSS vs concurrency": [[N, MiB]]. */
  function rssSeries(result) {
    return levelFigures(result)
      .filter((f) => f.peakRssBytes != null)
      .map((f) => [f.concurrency, f.peakRssBytes / (1024 * 1024)]);
  }

  // What can tell two runs with one label apart, in the order it is worth saying.
  const DISTINGUISHERS = [
    (run) => run.result.client.transport === 'raw' ? 'raw websocket' : 'SockJS framed',
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

  return { levelFigures, saturationSeries, rssSeries, distinctLabels };
});
