// The flot series of one run's figure against concurrency, drawn the same way
// on the summary's saturation chart and the Sessions page's charts, so the
// spread and floor rules look alike wherever a figure is compared: a min–max
// band over the repetitions behind the median line, the line dashed next to a
// figure that is only a floor (floors.js) with a ✕ on it, the run's markers,
// and, where asked, min–max error bars (a band needs two neighbouring
// repeated levels to show; a bar shows one level's spread on its own).
(function (root) {
  'use strict';

  const { palette, series } = root.Sockbench;

  /** Half the width of an error bar's caps, as a factor on the (log) x axis. */
  const CAP_FACTOR = 1.06;

  /**
   * Vertical min–max bars with caps, as one line series' data.
   * @param {number[][]} band [x, max, min] per repeated level
   * @returns {(number[]|null)[]} null breaks the line between bars
   */
  function errorBarData(band) {
    const out = [];
    for (const [x, max, min] of band) {
      if (out.length) out.push(null);
      out.push([x, min], [x, max], null, [x / CAP_FACTOR, max], [x * CAP_FACTOR, max], null,
        [x / CAP_FACTOR, min], [x * CAP_FACTOR, min]);
    }
    return out;
  }

  /**
   * @param {{run: {run_id: string}, color: string, marker: string,
   *          series: {data: number[][], band: number[][], flags: boolean[], floors: number[][]}}} entry
   *   series: data [x, median]; band [x, max, min] where repeated; flags per
   *   data point (its segments dashed); floors the points crossed
   * @param {{lineWidth?: number, pointFill?: string, errorBars?: boolean, beforePoints?: object[]}} [options]
   *   beforePoints: flot series drawn under the run's markers (e.g. hollow RSS-at-start marks)
   * @returns {object[]} flot series, each tagged sockbenchRole (band, error-bars, line, floor,
   *   points, floor-mark) and sockbenchRun for the tests and the hover
   */
  function figureSeries(entry, options = {}) {
    const s = entry.series;
    const run = entry.run.run_id;
    const lineWidth = options.lineWidth || 2;
    const out = [];
    if (s.band.length) {
      out.push({ data: s.band, color: entry.color, sockbenchRole: 'band', hoverable: false, sockbenchRun: run,
        lines: { show: true, lineWidth: 0, fill: true, fillColor: palette.withAlpha(entry.color, 0.2) }, points: { show: false } });
      if (options.errorBars) {
        out.push({ data: errorBarData(s.band), color: entry.color, sockbenchRole: 'error-bars', hoverable: false, sockbenchRun: run,
          lines: { show: true, lineWidth: 1.5 }, points: { show: false } });
      }
    }
    const parts = series.splitSegments(s.data, s.flags);
    if (parts.solid.length) {
      out.push({ data: parts.solid, color: entry.color, sockbenchRole: 'line', hoverable: false, sockbenchRun: run,
        lines: { show: true, lineWidth }, points: { show: false } });
    }
    if (parts.dashed.length) {
      out.push({ data: parts.dashed, color: entry.color, sockbenchRole: 'floor', hoverable: false, sockbenchRun: run,
        lines: { show: true, lineWidth: 2, dashes: palette.CLIENT_BOUND_DASHES }, points: { show: false } });
    }
    out.push(...(options.beforePoints || []));
    if (s.data.length) {
      out.push({ data: s.data, color: entry.color, sockbenchRole: 'points', sockbenchRun: run, lines: { show: false },
        points: { show: true, symbol: entry.marker, radius: 3.5, lineWidth: 1.5, fillColor: options.pointFill || entry.color } });
    }
    if (s.floors.length) {
      out.push({ data: s.floors, color: palette.CLIENT_BOUND_MARK, sockbenchRole: 'floor-mark', sockbenchRun: run,
        lines: { show: false }, points: { show: true, symbol: 'cross', radius: 7, lineWidth: 2 } });
    }
    return out;
  }

  /**
   * The legend's spread row: what the band means, or that nothing shown was repeated.
   * @param {number} repeated shown runs with a band
   * @param {number} shown shown runs
   * @param {string} [singleNote] added to the all-single-runs wording
   */
  function spreadKeyText(repeated, shown, singleNote) {
    return repeated > 0
      ? `band: min–max across repetitions, line: their median (${repeated} of ${shown} shown runs repeated; the rest are single runs)`
      : `every shown run is a single run: no spread measured${singleNote ? `, ${singleNote}` : ''}`;
  }

  root.Sockbench.figureSeries = { figureSeries, errorBarData, spreadKeyText, CAP_FACTOR };
})(self);
