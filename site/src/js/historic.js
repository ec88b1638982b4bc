// A 2011 historic file (sockbench.historic/1, results/historic/) seen through
// the shape the charts read from result files: levels with points holding
// sent_per_s, received_per_s and rtt_ms.mean. Only what 2011 published is
// filled in; everything else stays null, so no figure is invented (no
// percentiles, CPU, memory or client-bound verdicts). Pure (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).historic = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  /**
   * @param {object} doc a sockbench.historic/1 document
   * @returns {object} a result-like object: parameters.ok_mean_ms, levels[]
   *   with concurrency, connected, points[], saturation, end_reason
   */
  function asResultShape(doc) {
    const okMs = doc.method.ok_mean_ms;
    return {
      historic: true,
      parameters: { ok_mean_ms: okMs },
      levels: doc.levels.map((level) => ({
        concurrency: level.concurrency,
        connected: null,
        points: level.sent.map(([sentPerS, meanMs], i) => ({
          sent_per_s: sentPerS,
          received_per_s: level.received[i][0],
          rtt_ms: { mean: meanMs, p50: null, p99: null, p999: null, max: null },
          state: meanMs < okMs ? 'ok' : 'saturated',
          client_bound: false,
          client_bound_reasons: [],
          server_rss_bytes: null,
          server_cpu_pct: null,
          client_cpu_pct: null,
        })),
        saturation: level.saturation && { ...level.saturation, client_bound: false },
        end_reason: 'published series ends',
      })),
    };
  }

  return { asResultShape };
});
