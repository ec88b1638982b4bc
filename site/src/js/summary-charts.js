// The summary's two charts, one series per selected run: saturation
// throughput against concurrency, and peak server RSS against concurrency.
// Hovering shows every series' value at the nearest concurrency level
// (measured values only: between levels there is nothing to interpolate).
(function (root) {
  'use strict';

  const $ = root.jQuery;
  const { format, summaryFigures, seriesLegend, axisScale, palette } = root.Sockbench;

  const CHARTS = {
    saturation: {
      yTitle: 'Saturation throughput (received msgs/s)',
      seriesOf: (result) => summaryFigures.saturationSeries(result),
      formatValue: (y) => `${format.rate(y)} msgs/s`,
      tickFormatter: (y) => format.rate(y),
      noData: 'No level of any run had a point under the threshold.',
      missing: 'no point under the threshold',
    },
    rss: {
      yTitle: 'Peak server RSS (MiB)',
      seriesOf: (result) => ({ data: summaryFigures.rssSeries(result), clientBound: [] }),
      formatValue: (y) => `${format.trim(y, 3)} MiB`,
      tickFormatter: (y) => format.trim(y, 3),
      noData: 'No run recorded server memory (runs made without --server-pid).',
      missing: 'not recorded',
    },
  };

  /**
   * @param {'saturation'|'rss'} kind
   * @param {HTMLElement} placeholder
   * @param {HTMLElement} legendContainer
   * @param {{runs: object[], labels: string[], isSelected: (id: string) => boolean,
   *          onToggleRun: (id: string, on: boolean) => void}} view
   *   runs: every valid run (manifest entries with .result), labels: legend text per run
   */
  function drawSummaryChart(kind, placeholder, legendContainer, view) {
    const chart = CHARTS[kind];
    const entries = view.runs.map((run, index) => ({
      run,
      label: view.labels[index],
      color: palette.seriesColor(index),
      series: chart.seriesOf(run.result),
    }));
    const shown = entries.filter((e) => view.isSelected(e.run.run_id) && e.series.data.length > 0);

    const flotData = shown.map((e) => ({
      data: e.series.data,
      color: e.color,
      lines: { show: true, lineWidth: 2 },
      points: { show: true, radius: 3.5, lineWidth: 1.5, fillColor: e.color },
    }));
    for (const e of shown) {
      if (e.series.clientBound.length === 0) continue;
      flotData.push({
        data: e.series.clientBound,
        color: palette.CLIENT_BOUND_MARK,
        lines: { show: false },
        points: { show: true, symbol: 'cross', radius: 7, lineWidth: 2 },
      });
    }

    // Axes cover every run, selected or not, so ticking runs never rescales;
    // both summary charts tick the concurrency levels that were run.
    const allPoints = entries.flatMap((e) => e.series.data);
    const levels = [...new Set(view.runs.flatMap((run) => run.result.levels.map((l) => l.concurrency)))]
      .sort((a, b) => a - b);
    const xMin = levels.length ? levels[0] / 1.25 : 1;
    const xMax = levels.length ? levels[levels.length - 1] * 1.25 : 10;
    const yMax = Math.max(1, ...allPoints.map((p) => p[1])) * 1.08;

    const plot = $.plot(placeholder, flotData, {
      xaxis: {
        show: true, // axes stay visible even when no selected run has data
        mode: 'log',
        autoScale: 'none',
        min: xMin,
        max: xMax,
        // Ticks at the levels that were run (usually 1-2-5 or doubling steps).
        ticks: levels.length ? levels : axisScale.logTicks(xMin, xMax),
        tickFormatter: (x) => format.trim(x, 4),
        axisLabel: 'Concurrent connections (log scale)',
      },
      yaxis: { show: true, min: 0, max: yMax, autoScale: 'none', axisLabel: chart.yTitle, tickFormatter: chart.tickFormatter },
      grid: { hoverable: true, autoHighlight: false, borderWidth: 1, borderColor: '#c8ccd2', backgroundColor: '#ffffff' },
      crosshair: { mode: 'x', color: 'rgba(40, 40, 40, 0.55)', lineWidth: 1 },
    });

    if (shown.length === 0) {
      const empty = document.createElement('div');
      empty.className = 'chart-empty';
      empty.textContent = allPoints.length === 0 ? chart.noData : 'No run selected: tick one in the legend below.';
      placeholder.appendChild(empty);
    }

    const extraRows = [];
    if (kind === 'saturation') {
      const clientBound = entries.reduce((n, e) => n + e.series.clientBound.length, 0);
      extraRows.push(seriesLegend.legendKeyRow('marker-client-bound', clientBound > 0
        ? 'saturation point was client-bound: a lower bound for the server'
        : 'no saturation point was client-bound'));
    }
    const legend = seriesLegend.renderSeriesLegend(legendContainer, entries.map((e) => ({
      key: e.run.run_id,
      label: e.label,
      color: e.color,
      visible: view.isSelected(e.run.run_id),
      disabledReason: e.series.data.length === 0
        ? (kind === 'rss' ? 'no server RSS was recorded (run without --server-pid)' : 'no level had an ok point')
        : undefined,
    })), { onToggle: (id, on) => view.onToggleRun(id, on), extraRows });

    const $placeholder = $(placeholder);
    $placeholder.off('.sockbenchCrosshair');
    $placeholder.on('plothover.sockbenchCrosshair', (event, pos) => {
      if (levels.length === 0 || pos.x < xMin || pos.x > xMax) { legend.clearValues(); return; }
      const nearest = levels.reduce((best, n) =>
        (Math.abs(Math.log(n / pos.x)) < Math.abs(Math.log(best / pos.x)) ? n : best));
      const values = new Map();
      for (const e of shown) {
        const point = e.series.data.find((p) => p[0] === nearest);
        const ran = e.run.result.levels.some((l) => l.concurrency === nearest);
        values.set(e.run.run_id, point ? chart.formatValue(point[1]) : (ran ? chart.missing : 'level not run'));
      }
      legend.showValues(`at ${nearest} connections`, values);
    });
    $placeholder.on('mouseleave.sockbenchCrosshair', () => legend.clearValues());
    return plot;
  }

  root.Sockbench.summaryCharts = { drawSummaryChart };
})(self);
