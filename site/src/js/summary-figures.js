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

  /**
   * Legend labels must tell runs apart: when two runs share a label (same
   * server, runtime, codec, mode), add the host and start time.
   */
  function distinctLabels(runs) {
    const count = new Map();
    for (const run of runs) count.set(run.label, (count.get(run.label) || 0) + 1);
    return runs.map((run) => (count.get(run.label) > 1
      ? `${run.label} (${run.hostname}, ${run.started_at.slice(0, 16).replace('T', ' ')})`
      : run.label));
  }

  return { levelFigures, saturationSeries, rssSeries, distinctLabels };
});
