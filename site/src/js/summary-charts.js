// The summary's two charts, one series per selected run: saturation
// throughput against concurrency (the median, with a min–max band where the
// run was repeated; dashed, with ✕, where the figure is only a floor for the
// server: client-bound, server < 95 % busy beside a busy client, max rate reached; see floors.js), and
// server RSS against concurrency (peak during the level, and at its start).
// Axes follow the selected runs. Hovering shows every series' value at the
// nearest concurrency level (measured values only: nothing is interpolated).
(function (root) {
  'use strict';

  const $ = root.jQuery;
  const { format, summaryFigures, seriesLegend, axisScale, palette, historic, floors, figureSeries } = root.Sockbench;

  const MIB = 1024 * 1024;

  // What makes a saturation figure a floor (floors.js has the rule), for the chart's key.
  const FLOOR_KINDS = `client-bound, server < ${floors.SERVER_BUSY_PCT} % busy without clear client headroom (or not measured), ` +
    'or the profile\'s max rate or the client\'s ceiling reached';

  const CHARTS = {
    saturation: {
      yTitle: 'Saturation throughput (received msgs/s)',
      formatValue: (y) => `${format.rate(y)} msgs/s`,
      tickFormatter: (y) => format.rate(y),
      noData: 'No level of any selected run had a point under the threshold.',
      missing: 'no point under the threshold',
    },
    rss: {
      yTitle: 'Server RSS (MiB)',
      formatValue: (y) => `${format.trim(y, 3)} MiB`,
      tickFormatter: (y) => format.trim(y, 3),
      noData: 'No selected run recorded server memory (2011 published none; runs made without --server-pid).',
      missing: 'not recorded',
    },
  };

  /** The result shape of a run or a historic run (charts read only that). */
  function resultOf(run) {
    if (!run.resultShape) run.resultShape = run.kind === 'historic' ? historic.asResultShape(run.result) : run.result;
    return run.resultShape;
  }

  /** Text for one saturation figure: value, and its spread or "single run". */
  function describeSaturation(figure) {
    const value = figure.spread ? figure.spread.median : figure.saturation.received_per_s;
    const parts = [`${format.rate(value)} msgs/s`];
    if (figure.spread && figure.repetitions > 1) {
      parts.push(`median of ${figure.repetitions}, range ${format.rate(figure.spread.min)}–${format.rate(figure.spread.max)}`);
    } else {
      parts.push('single run');
    }
    return parts.join(', ');
  }

  function describeCpu(figure) {
    const pct = (v) => (v == null ? '—' : `${format.trim(v, 3)} %`);
    return `server CPU ${pct(figure.serverCpuPct)}, client CPU ${pct(figure.clientCpuPct)}, steal ${pct(figure.stealPct)}`;
  }

  /** "; 38 % of limit-naive" (limit-share.js), "; the limit" on the limit's own line, or nothing. */
  function shareWords(shares, runId, concurrency) {
    if (!shares) return '';
    if (shares.limitOf(runId)) return `; the limit (${shares.limitOf(runId)}) of this set`;
    const share = shares.shareOf(runId, concurrency);
    return share ? `; ${share.text} of ${share.limit}` : '';
  }

  function seriesOf(kind, run) {
    const result = resultOf(run);
    if (kind === 'saturation') {
      const s = summaryFigures.saturationSeries(result);
      return { ...s, flags: s.figures.map((f) => f.floorReasons.length > 0) };
    }
    const s = summaryFigures.rssSeries(result);
    return { data: s.data, atStart: s.atStart, band: [], floors: [], figures: s.figures, flags: s.data.map(() => false) };
  }

  function flotSeriesOf(kind, e) {
    const s = e.series;
    // Hollow RSS-at-start markers go under the peak's filled ones (they often coincide).
    const beforePoints = kind === 'rss' && s.atStart.length
      ? [{ data: s.atStart, color: e.color, sockbenchRole: 'rss-at-start', sockbenchRun: e.run.run_id,
        lines: { show: false }, points: { show: true, symbol: e.marker, radius: 3, lineWidth: 1.2, fillColor: '#ffffff' } }]
      : [];
    // 2011 lines are thinner and its published points hollow: data from another machine and method, drawn behind today's.
    return figureSeries.figureSeries(e, { lineWidth: e.historic ? 1.25 : 2, pointFill: e.historic ? '#ffffff' : e.color, beforePoints });
  }

  function yAxisOptions(kind, values, scale) {
    const chart = CHARTS[kind];
    const positive = values.filter((v) => v > 0);
    if (scale === 'log' && positive.length) {
      const min = axisScale.floor125(Math.min(...positive) * 0.8);
      const max = axisScale.ceil125(Math.max(...positive) * 1.1);
      return { mode: 'log', min, max, ticks: axisScale.logTicks(min, max), autoScale: 'none',
        axisLabel: `${chart.yTitle}, log scale`, tickFormatter: chart.tickFormatter, show: true };
    }
    return { mode: null, min: 0, max: Math.max(1, ...values) * 1.08, autoScale: 'none',
      axisLabel: chart.yTitle, tickFormatter: chart.tickFormatter, show: true };
  }

  /**
   * @param {'saturation'|'rss'} kind
   * @param {{chart: HTMLElement, legend: HTMLElement, details?: HTMLElement}} elements
   * @param {{runs: object[], labels: string[], isSelected: (id: string) => boolean,
   *          onToggleRun: (id: string, on: boolean) => void, yScale: 'log'|'linear', shares?: object}} view
   *   runs: every run, today's and historic, in a fixed order (colours follow it);
   *   shares: limitShare.limitShares of the runs, for the hover text (optional)
   */
  function drawSummaryChart(kind, elements, view) {
    const chart = CHARTS[kind];
    const placeholder = elements.chart;
    const entries = view.runs.map((run, index) => ({
      run,
      label: view.labels[index],
      color: palette.seriesColor(index),
      marker: palette.seriesMarker(index),
      historic: run.kind === 'historic',
      series: seriesOf(kind, run),
    }));
    const shown = entries.filter((e) => view.isSelected(e.run.run_id) && e.series.data.length > 0);
    const flotData = shown.flatMap((e) => flotSeriesOf(kind, e));

    // Axes follow the selected runs: unticking the coalesced runs lets the
    // per-message ones fill the chart. Ticks at the levels that were run.
    const selectedRuns = view.runs.filter((run) => view.isSelected(run.run_id));
    const levels = [...new Set(selectedRuns.flatMap((run) => resultOf(run).levels.map((l) => l.concurrency)))]
      .sort((a, b) => a - b);
    const xMin = levels.length ? levels[0] / 1.25 : 1;
    const xMax = levels.length ? levels[levels.length - 1] * 1.25 : 10;
    const yValues = shown.flatMap((e) => [...e.series.data.map((p) => p[1]), ...e.series.band.flatMap((b) => [b[1], b[2]]),
      ...(e.series.atStart || []).map((p) => p[1])]);

    const plot = $.plot(placeholder, flotData, {
      xaxis: {
        show: true, // axes stay visible even when no selected run has data
        mode: 'log',
        autoScale: 'none',
        min: xMin,
        max: xMax,
        ticks: levels.length ? levels : axisScale.logTicks(xMin, xMax),
        tickFormatter: (x) => format.trim(x, 4),
        axisLabel: 'Concurrent connections (log scale)',
      },
      // Memory stays linear: its runs differ a few-fold, not 30-fold.
      yaxis: yAxisOptions(kind, yValues, kind === 'saturation' ? view.yScale : 'linear'),
      grid: { hoverable: true, autoHighlight: false, borderWidth: 1, borderColor: '#c8ccd2', backgroundColor: '#ffffff' },
      crosshair: { mode: 'x', color: 'rgba(40, 40, 40, 0.55)', lineWidth: 1 },
    });

    if (shown.length === 0) {
      const empty = document.createElement('div');
      empty.className = 'chart-empty';
      empty.textContent = selectedRuns.length === 0 ? 'No run selected: tick one in the legend below or pick a group above.' : chart.noData;
      placeholder.appendChild(empty);
    }

    const extraRows = [];
    if (kind === 'saturation') {
      const floorCount = shown.reduce((n, e) => n + e.series.floors.length, 0);
      extraRows.push(seriesLegend.legendKeyRow('marker-floor-line', floorCount > 0
        ? `dashed, ✕: the figure is a floor, not the server's limit (${floorCount}): ${FLOOR_KINDS}; hover for which`
        : `no selected saturation figure is a floor (it would be dashed, ✕: ${FLOOR_KINDS})`));
      const repeated = shown.filter((e) => e.series.band.length > 0).length;
      extraRows.push(seriesLegend.legendKeyRow('marker-band',
        figureSeries.spreadKeyText(repeated, shown.length, 'so treat differences under ±30 % as noise')));
      if (shown.some((e) => e.historic)) extraRows.push(seriesLegend.legendKeyRow('marker-hollow', '2011 published data: hollow markers'));
    } else {
      extraRows.push(seriesLegend.legendKeyRow('marker-hollow', 'hollow: RSS at the level\'s first point; filled, on the line: peak during the level'));
    }
    const legend = seriesLegend.renderSeriesLegend(elements.legend, entries.map((e) => ({
      key: e.run.run_id,
      label: e.label,
      color: e.color,
      marker: e.marker,
      hollow: e.historic,
      visible: view.isSelected(e.run.run_id),
      disabledReason: e.series.data.length === 0
        ? (kind === 'rss' ? 'no server RSS was recorded' : 'no level had an ok point')
        : undefined,
    })), { onToggle: (id, on) => view.onToggleRun(id, on), extraRows });

    const idleDetails = kind === 'saturation'
      ? 'Hover over a level for each run\'s figure, its spread, the server and client CPU there, and why it is a floor when it is one.'
      : '';
    if (elements.details) {
      elements.details.className = 'point-details';
      elements.details.textContent = idleDetails;
    }
    const $placeholder = $(placeholder);
    $placeholder.off('.sockbenchCrosshair');
    $placeholder.on('plothover.sockbenchCrosshair', (event, pos) => {
      if (levels.length === 0 || pos.x < xMin || pos.x > xMax) { legend.clearValues(); return; }
      const nearest = levels.reduce((best, n) =>
        (Math.abs(Math.log(n / pos.x)) < Math.abs(Math.log(best / pos.x)) ? n : best));
      const values = new Map();
      const lines = [];
      for (const e of shown) {
        const index = e.series.data.findIndex((p) => p[0] === nearest);
        const ran = resultOf(e.run).levels.some((l) => l.concurrency === nearest);
        values.set(e.run.run_id, index >= 0 ? chart.formatValue(e.series.data[index][1]) : (ran ? chart.missing : 'level not run'));
        if (kind === 'saturation' && index >= 0) {
          const figure = e.series.figures[index];
          const floor = figure.floorReasons.length ? `; ${floors.describeFloor(figure.floorReasons)}` : '';
          const own = figure.limitNotes.length ? `; ${figure.limitNotes.join(', ')}` : '';
          lines.push(`${e.label}: ${describeSaturation(figure)}; ${e.historic ? 'no CPU published' : describeCpu(figure)}${floor}${own}` +
            shareWords(view.shares, e.run.run_id, nearest));
        }
      }
      legend.showValues(`at ${nearest} connections`, values);
      if (elements.details && kind === 'saturation') {
        elements.details.textContent = '';
        for (const text of lines) {
          const line = document.createElement('div');
          line.textContent = text;
          elements.details.appendChild(line);
        }
      }
    });
    $placeholder.on('mouseleave.sockbenchCrosshair', () => {
      legend.clearValues();
      if (elements.details) elements.details.textContent = idleDetails;
    });
    return plot;
  }

  root.Sockbench.summaryCharts = { drawSummaryChart, describeSaturation, describeCpu, resultOf, MIB };
})(self);
