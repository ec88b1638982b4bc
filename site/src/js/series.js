// Turns one result file into chart series: RTT against send or receive rate,
// one series per concurrency level. Pure functions (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).series = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  /** The latency statistics the selector offers; keys are fields of a latency object. */
  const RTT_STATS = [
    { key: 'mean', name: 'Mean' },
    { key: 'p50', name: 'p50' },
    { key: 'p99', name: 'p99' },
    { key: 'p999', name: 'p99.9' },
  ];

  /** The two x axes of the original post's charts. */
  const RATE_AXES = {
    sent: { field: 'sent_per_s', title: 'Messages sent per second (msgs/s)' },
    received: { field: 'received_per_s', title: 'Messages received per second (msgs/s)' },
  };

  function statByKey(key) {
    const stat = RTT_STATS.find((s) => s.key === key);
    if (!stat) throw new Error(`unknown RTT statistic: ${key}`);
    return stat;
  }

  /**
   * @param {object} result a sockbench.result/1 document
   * @param {'sent'|'received'} axisKey which rate goes on x
   * @param {string} statKey mean | p50 | p99 | p999 (corrected RTT, ms)
   * @returns {{concurrency: number, data: number[][], sources: object[],
   *            clientBound: number[][], clientBoundSources: object[],
   *            pointCount: number}[]} one entry per level, in run order. `data`
   *   holds [rate msgs/s, RTT ms] in ramp order; points without latency
   *   samples (count 0) are left out. `clientBound` repeats the client-bound
   *   ones. `sources[i]` is the result point behind `data[i]` (likewise for
   *   `clientBoundSources`), for the point details on hover.
   */
  function latencySeries(result, axisKey, statKey) {
    const axis = RATE_AXES[axisKey];
    if (!axis) throw new Error(`unknown rate axis: ${axisKey}`);
    statByKey(statKey);
    return result.levels.map((level) => {
      const data = [];
      const sources = [];
      const clientBound = [];
      const clientBoundSources = [];
      for (const point of level.points) {
        const rtt = point.rtt_ms[statKey];
        if (rtt == null) continue;
        const xy = [point[axis.field], rtt];
        data.push(xy);
        sources.push(point);
        if (point.client_bound) {
          clientBound.push(xy);
          clientBoundSources.push(point);
        }
      }
      return {
        concurrency: level.concurrency, data, sources, clientBound, clientBoundSources, pointCount: level.points.length,
      };
    });
  }

  /**
   * Interpolation of a polyline at x, for the crosshair legend: straight
   * between neighbouring points as drawn, so on a log x axis the fraction is
   * taken in log x (`logX`). Points are in ramp order, not sorted by x: past
   * saturation the received rate can fall back, so a vertical line may cross
   * the curve twice. The first crossing (the lower load) is the one reported.
   * @param {number[][]} data [x, y] pairs
   * @param {number} x
   * @param {{logX?: boolean}} [options]
   * @returns {number|null} null when x is outside the series' x range.
   */
  function interpolateAt(data, x, options) {
    const scale = options && options.logX ? Math.log : (v) => v;
    for (let i = 0; i < data.length; i++) {
      const [x0, y0] = data[i];
      if (x0 === x) return y0;
      if (i + 1 === data.length) break;
      const [x1, y1] = data[i + 1];
      if ((x0 < x && x < x1) || (x1 < x && x < x0)) {
        const fraction = (scale(x) - scale(x0)) / (scale(x1) - scale(x0));
        return y0 + (y1 - y0) * fraction;
      }
    }
    return null;
  }

  /**
   * Splits a polyline into the segments drawn solid and those drawn dashed:
   * a segment is dashed when either end point is flagged (client-bound, so
   * that stretch of the line measures the client; on the summary, a figure
   * that is only a floor for the server). flot breaks a line at a
   * null point, so each part is one data array with nulls between runs.
   * @param {number[][]} data [x, y] pairs in drawing order
   * @param {boolean[]} flagged one flag per point
   * @returns {{solid: (number[]|null)[], dashed: (number[]|null)[]}}
   *   a flagged point with no neighbour still appears in `dashed` on its own
   */
  function splitSegments(data, flagged) {
    const solid = [];
    const dashed = [];
    const append = (target, a, b) => {
      const last = target[target.length - 1];
      if (last && last !== null && last[0] === a[0] && last[1] === a[1]) {
        target.push(b);
      } else {
        if (target.length) target.push(null);
        target.push(a, b);
      }
    };
    for (let i = 0; i + 1 < data.length; i++) {
      append(flagged[i] || flagged[i + 1] ? dashed : solid, data[i], data[i + 1]);
    }
    if (data.length === 1) (flagged[0] ? dashed : solid).push(data[0]);
    return { solid, dashed };
  }

  return { RTT_STATS, RATE_AXES, statByKey, latencySeries, interpolateAt, splitSegments };
});
