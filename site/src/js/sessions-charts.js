// The Sessions page's three charts against sessions, one line per run:
// server memory per idle session, fan-out saturation (copies/s) and every
// copy's p99 at 5 msgs/s (sessions-figures.js has the figures). Drawn as the
// summary draws its saturation chart: the median with a min–max band where a
// level was repeated, dashed segments and ✕ where a figure is marked (a
// floor; a p99 measured at a client-bound point), a log y axis where the
// values span decades (axis-scale.js); the band, line, floors and markers are
// figure-series.js's, the summary's own. Where a level was repeated, min–max
// error bars too, so a repeated level whose neighbours have no figure still
// shows its spread. A level that ran without a figure (no ok point; no point
// at 5 msgs/s) gets a ▽ at the foot of the chart (no-figure-symbol.js), so it
// is never a silently missing point. Hovering a level lists each run's figure
// with its mode, its spread or "single run", and the processes (workers,
// agents) that held the level.
(function (root) {
  'use strict';

  const $ = root.jQuery;
  const { format, sessionsFigures, seriesLegend, axisScale, palette, floors, algorithm, summaryFigures, figureSeries, noFigureSymbol } = root.Sockbench;

  const kbText = (v) => `${format.trim(v, 3)} KB`;

  const CHARTS = {
    memory: {
      yTitle: 'Server memory per session (KB)',
      formatValue: kbText,
      tickFormatter: (y) => format.trim(y, 3),
      figure: (f) => f.serverKbPerSession,
      noData: 'No selected run recorded its server\'s memory per session (runs made without --server-pid).',
      missing: 'not recorded',
    },
    saturation: {
      yTitle: 'Fan-out saturation (copies/s)',
      formatValue: (v) => `${format.rate(v)} copies/s`,
      tickFormatter: (y) => format.rate(y),
      figure: (f) => f.saturation,
      noData: 'No level of any selected run had a point whose every-copy p99 stayed under 200 ms.',
      missing: 'no ok point',
      noFigureKey: (n) => (n > 0
        ? `▽ at the foot of the chart: no ok point (${n}): the level ran, but not even its lowest rate kept every copy's p99 under ` +
          '200 ms without a lost copy or connection, so it has no fan-out saturation; hover for how it ended'
        : 'every shown level has an ok point (a level without one would be ▽ at the foot of the chart)'),
    },
    'p99-at-5': {
      yTitle: `All-copies p99 at ${sessionsFigures.FIXED_RATE} msgs/s (ms)`,
      formatValue: (v) => format.ms(v),
      tickFormatter: (y) => format.trim(y, 3),
      figure: (f) => f.p99AtFixedRate,
      noData: `No selected run measured a point at ${sessionsFigures.FIXED_RATE} msgs/s.`,
      missing: `no point at ${sessionsFigures.FIXED_RATE} msgs/s`,
      noFigureKey: (n) => (n > 0
        ? `▽ at the foot of the chart: no point at ${sessionsFigures.FIXED_RATE} msgs/s (${n}): the level's ramp saturated ` +
          `below ${sessionsFigures.FIXED_RATE} msgs/s and stopped; hover for where`
        : `every shown level has a point at ${sessionsFigures.FIXED_RATE} msgs/s (a level without one would be ▽ at the foot of the chart)`),
    },
  };

  /** What a ✕ means on each chart, for its key row. */
  const MARK_KEYS = {
    saturation: (n) => (n > 0
      ? `dashed, ✕: the figure is a floor, not the server's limit (${n}): client-bound, server < ${floors.SERVER_BUSY_PCT} % busy ` +
        'without clear client headroom (or not measured), or the profile\'s max rate or the client\'s ceiling reached; hover for which'
      : 'no selected fan-out saturation is a floor (it would be dashed, ✕)'),
    'p99-at-5': (n) => (n > 0
      ? `dashed, ✕: measured at a client-bound point (${n}): the client's delay is in the figure; hover for why`
      : 'no selected p99 was measured at a client-bound point (it would be dashed, ✕)'),
  };

  /** One run's figure at a level, as the hover line says it. */
  function describeFigure(kind, entry, f) {
    const chart = CHARTS[kind];
    const figure = chart.figure(f);
    const parts = [`${entry.label}: ${chart.formatValue(figure.value)} (${entry.mode})`,
      sessionsFigures.spreadText(figure, chart.formatValue), sessionsFigures.processesText(f)];
    const absent = sessionsFigures.absentText(figure, chart.missing);
    if (absent) parts.push(absent);
    if (kind === 'saturation') {
      const record = f.saturation.record;
      if (record) parts.push(`${format.rate(record.target_rate)} msgs/s sent, all-copies p99 ${format.ms(record.p99_ms)}`);
      if (f.floorReasons.length) parts.push(floors.describeFloor(f.floorReasons));
      if (f.limitNotes.length) parts.push(f.limitNotes.join(', '));
    }
    if (kind === 'p99-at-5' && f.p99AtFixedRate.clientBound) {
      parts.push(`client-bound point (${f.p99AtFixedRate.point.client_bound_reasons.join(', ')})`);
    }
    return parts.join('; ');
  }

  /** A level of one run that ran without a figure here, as the hover line says it. */
  function describeMissing(kind, entry, f) {
    const chart = CHARTS[kind];
    const figure = chart.figure(f);
    const what = kind === 'p99-at-5' ? sessionsFigures.noPointAtFixedRateText(f, format.rate) : chart.missing;
    const parts = [`${entry.label}: ▽ ${what} (${entry.mode})`,
      figure.of > 1 ? `in ${figure.absent} of ${figure.of} repetitions${figure.count ? ', so the median has none' : ''}` : 'single run',
      sessionsFigures.processesText(f), `level ended ${f.endReason}`];
    if (f.connected < f.concurrency) parts.push(`${f.connected} of ${f.concurrency} sessions connected`);
    return parts.join('; ');
  }

  /** How far above the axis' foot the ▽ markers stand, as a share of the axis' (log or linear) height. */
  const NO_FIGURE_LIFT = 0.045;
  /** Runs with no figure at one level stand side by side, this factor apart on the log x axis. */
  const NO_FIGURE_STEP = 1.12;

  /**
   * The ▽ series of every shown run, placed at the foot of the y range; runs
   * missing the same level side by side, so none hides another.
   */
  function noFigureSeries(shown, range, scale) {
    const y = scale === 'log'
      ? range.min * Math.pow(range.max / range.min, NO_FIGURE_LIFT)
      : range.min + NO_FIGURE_LIFT * (range.max - range.min);
    const slots = new Map();
    for (const e of shown) for (const f of e.series.missing) slots.set(f.concurrency, (slots.get(f.concurrency) || 0) + 1);
    const taken = new Map();
    return shown.filter((e) => e.series.missing.length).map((e) => ({
      data: e.series.missing.map((f) => {
        const slot = taken.get(f.concurrency) || 0;
        taken.set(f.concurrency, slot + 1);
        return [f.concurrency * Math.pow(NO_FIGURE_STEP, slot - (slots.get(f.concurrency) - 1) / 2), y];
      }),
      color: e.color, sockbenchRole: 'no-figure', sockbenchRun: e.run.run_id, lines: { show: false },
      points: { show: true, symbol: noFigureSymbol.NO_FIGURE, radius: 5, lineWidth: 1.5, fillColor: '#ffffff' },
    }));
  }

  /**
   * The Sessions pages' label of each run: server · runtime · mode as on the
   * summary (told apart where they share one), " · churn 5 %" for a churn run
   * so it never reads as a plain run's line, and the mode with its algorithm.
   * @param {object[]} runs site run entries of the sessions profile
   * @returns {string[]}
   */
  function sessionsLabels(runs) {
    const named = runs.map((run) => ({ ...run, label: `${run.label}${sessionsFigures.churnText(run.result)}` }));
    return summaryFigures.distinctLabels(named).map((label, i) => `${label} [${algorithm.modeText(runs[i])}]`);
  }

  /**
   * @param {'memory'|'saturation'|'p99-at-5'} kind
   * @param {{chart: HTMLElement, legend: HTMLElement, details: HTMLElement}} elements
   * @param {{runs: object[], labels: string[], isShown: (id: string) => boolean, onToggleRun: (id: string, on: boolean) => void}} view
   *   runs: the sessions runs in a fixed order (colours and markers follow it)
   */
  function drawSessionsChart(kind, elements, view) {
    const chart = CHARTS[kind];
    const entries = view.runs.map((run, index) => ({
      run,
      label: view.labels[index],
      mode: algorithm.modeText(run),
      color: palette.seriesColor(index),
      marker: palette.seriesMarker(index),
      series: sessionsFigures.chartSeries(run.result, kind),
    }));
    const hasAny = (e) => e.series.data.length > 0 || e.series.missing.length > 0;
    const shown = entries.filter((e) => view.isShown(e.run.run_id) && hasAny(e));
    const levels = [...new Set(view.runs.filter((run) => view.isShown(run.run_id))
      .flatMap((run) => run.result.levels.map((l) => l.concurrency)))].sort((a, b) => a - b);
    const xMin = levels.length ? levels[0] / 1.25 : 1;
    const xMax = levels.length ? levels[levels.length - 1] * 1.25 : 10;
    const yValues = shown.flatMap((e) => [...e.series.data.map((p) => p[1]), ...e.series.band.flatMap((b) => [b[1], b[2]])]);
    // Log only where the shown values span decades, as the summary's throughput axis; memory and latency mostly do not.
    const scale = axisScale.spansDecades(yValues) ? 'log' : 'linear';
    let range = axisScale.valueRange(yValues, scale);
    if (scale === 'log' && shown.some((e) => e.series.missing.length)) {
      // One 1-2-5 step more at the foot, so a ▽ never sits on the lowest figure.
      const min = axisScale.floor125(range.min * 0.99);
      range = { min, max: range.max, ticks: axisScale.logTicks(min, range.max) };
    }
    const flotData = [...shown.flatMap((e) => figureSeries.figureSeries(e, { errorBars: true })), ...noFigureSeries(shown, range, scale)];
    const plot = $.plot(elements.chart, flotData, {
      xaxis: {
        show: true, mode: 'log', autoScale: 'none', min: xMin, max: xMax,
        ticks: levels.length ? levels : axisScale.logTicks(xMin, xMax),
        tickFormatter: (x) => format.trim(x, 6), axisLabel: 'Sessions (log scale)',
      },
      yaxis: {
        show: true, mode: scale === 'log' ? 'log' : null, min: range.min, max: range.max, autoScale: 'none',
        ...(range.ticks ? { ticks: range.ticks } : {}),
        axisLabel: scale === 'log' ? `${chart.yTitle}, log scale` : chart.yTitle, tickFormatter: chart.tickFormatter,
      },
      grid: { hoverable: true, autoHighlight: false, borderWidth: 1, borderColor: '#c8ccd2', backgroundColor: '#ffffff' },
      crosshair: { mode: 'x', color: 'rgba(40, 40, 40, 0.55)', lineWidth: 1 },
    });
    if (shown.length === 0) {
      const empty = Object.assign(document.createElement('div'), { className: 'chart-empty', textContent: chart.noData });
      elements.chart.appendChild(empty);
    }

    const extraRows = [];
    if (MARK_KEYS[kind]) {
      extraRows.push(seriesLegend.legendKeyRow('marker-floor-line', MARK_KEYS[kind](shown.reduce((n, e) => n + e.series.floors.length, 0))));
    }
    if (chart.noFigureKey) {
      extraRows.push(seriesLegend.legendKeyRow('marker-no-figure', chart.noFigureKey(shown.reduce((n, e) => n + e.series.missing.length, 0))));
    }
    const repeated = shown.filter((e) => e.series.band.length > 0).length;
    extraRows.push(seriesLegend.legendKeyRow('marker-band',
      `${figureSeries.spreadKeyText(repeated, shown.length)}${repeated > 0 ? '; error bars: the same min–max at each repeated level' : ''}`));
    const legend = seriesLegend.renderSeriesLegend(elements.legend, entries.map((e) => ({
      key: e.run.run_id, label: e.label, color: e.color, marker: e.marker, visible: view.isShown(e.run.run_id),
      disabledReason: hasAny(e) ? undefined : chart.noData,
    })), { onToggle: (id, on) => view.onToggleRun(id, on), extraRows });

    const idle = 'Hover over a level for each run\'s figure, its mode, spread, and the processes that held the level.';
    elements.details.className = 'point-details';
    elements.details.textContent = idle;
    const $placeholder = $(elements.chart);
    $placeholder.off('.sockbenchSessions');
    $placeholder.on('plothover.sockbenchSessions', (event, pos) => {
      if (levels.length === 0 || pos.x < xMin || pos.x > xMax) { legend.clearValues(); return; }
      const nearest = levels.reduce((best, n) => (Math.abs(Math.log(n / pos.x)) < Math.abs(Math.log(best / pos.x)) ? n : best));
      const values = new Map();
      elements.details.textContent = '';
      for (const e of shown) {
        const f = e.series.figures.find((g) => g.concurrency === nearest);
        const missing = e.series.missing.find((g) => g.concurrency === nearest);
        const ran = e.run.result.levels.some((l) => l.concurrency === nearest);
        values.set(e.run.run_id, f ? `${chart.formatValue(chart.figure(f).value)} (${e.mode})` : (ran ? `${missing ? '▽ ' : ''}${chart.missing}` : 'level not run'));
        const line = f ? describeFigure(kind, e, f) : (missing ? describeMissing(kind, e, missing) : null);
        if (line) elements.details.appendChild(Object.assign(document.createElement('div'), { textContent: line }));
      }
      legend.showValues(`at ${nearest} sessions`, values);
    });
    $placeholder.on('mouseleave.sockbenchSessions', () => {
      legend.clearValues();
      elements.details.textContent = idle;
    });
    return plot;
  }

  root.Sockbench.sessionsCharts = { drawSessionsChart, sessionsLabels, CHARTS };
})(self);
