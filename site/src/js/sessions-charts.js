// The Sessions page's three charts against sessions, one line per run:
// server memory per idle session, fan-out saturation (copies/s) and every
// copy's p99 at 5 msgs/s (sessions-figures.js has the figures). Drawn as the
// summary draws its saturation chart: the median with a min–max band where a
// level was repeated, dashed segments and ✕ where a figure is marked (a
// floor; a p99 measured at a client-bound point), a log y axis where the
// values span decades (axis-scale.js). Hovering a level lists each run's
// figure with its mode, its spread or "single run", and the processes
// (workers, agents) that held the level.
(function (root) {
  'use strict';

  const $ = root.jQuery;
  const { format, sessionsFigures, seriesLegend, axisScale, palette, series, floors, algorithm } = root.Sockbench;

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
      missing: 'no point under the threshold',
    },
    'p99-at-5': {
      yTitle: `All-copies p99 at ${sessionsFigures.FIXED_RATE} msgs/s (ms)`,
      formatValue: (v) => format.ms(v),
      tickFormatter: (y) => format.trim(y, 3),
      figure: (f) => f.p99AtFixedRate,
      noData: `No selected run measured a point at ${sessionsFigures.FIXED_RATE} msgs/s.`,
      missing: `no point at ${sessionsFigures.FIXED_RATE} msgs/s`,
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

  function flotSeriesOf(e) {
    const s = e.series;
    const out = [];
    if (s.band.length) {
      out.push({ data: s.band, color: e.color, sockbenchRole: 'band', hoverable: false, sockbenchRun: e.run.run_id,
        lines: { show: true, lineWidth: 0, fill: true, fillColor: palette.withAlpha(e.color, 0.2) }, points: { show: false } });
    }
    const parts = series.splitSegments(s.data, s.flags);
    if (parts.solid.length) {
      out.push({ data: parts.solid, color: e.color, sockbenchRole: 'line', hoverable: false, sockbenchRun: e.run.run_id,
        lines: { show: true, lineWidth: 2 }, points: { show: false } });
    }
    if (parts.dashed.length) {
      out.push({ data: parts.dashed, color: e.color, sockbenchRole: 'floor', hoverable: false, sockbenchRun: e.run.run_id,
        lines: { show: true, lineWidth: 2, dashes: palette.CLIENT_BOUND_DASHES }, points: { show: false } });
    }
    out.push({ data: s.data, color: e.color, sockbenchRole: 'points', sockbenchRun: e.run.run_id, lines: { show: false },
      points: { show: true, symbol: e.marker, radius: 3.5, lineWidth: 1.5, fillColor: e.color } });
    if (s.floors.length) {
      out.push({ data: s.floors, color: palette.CLIENT_BOUND_MARK, sockbenchRole: 'floor-mark', sockbenchRun: e.run.run_id,
        lines: { show: false }, points: { show: true, symbol: 'cross', radius: 7, lineWidth: 2 } });
    }
    return out;
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
    const shown = entries.filter((e) => view.isShown(e.run.run_id) && e.series.data.length > 0);
    const levels = [...new Set(view.runs.filter((run) => view.isShown(run.run_id))
      .flatMap((run) => run.result.levels.map((l) => l.concurrency)))].sort((a, b) => a - b);
    const xMin = levels.length ? levels[0] / 1.25 : 1;
    const xMax = levels.length ? levels[levels.length - 1] * 1.25 : 10;
    const yValues = shown.flatMap((e) => [...e.series.data.map((p) => p[1]), ...e.series.band.flatMap((b) => [b[1], b[2]])]);
    // Log only where the shown values span decades, as the summary's throughput axis; memory and latency mostly do not.
    const scale = axisScale.spansDecades(yValues) ? 'log' : 'linear';
    const range = axisScale.valueRange(yValues, scale);
    const plot = $.plot(elements.chart, shown.flatMap(flotSeriesOf), {
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
    const repeated = shown.filter((e) => e.series.band.length > 0).length;
    extraRows.push(seriesLegend.legendKeyRow('marker-band', repeated > 0
      ? `band: min–max across repetitions, line: their median (${repeated} of ${shown.length} shown runs repeated; the rest are single runs)`
      : 'every shown run is a single run: no spread measured'));
    const legend = seriesLegend.renderSeriesLegend(elements.legend, entries.map((e) => ({
      key: e.run.run_id, label: e.label, color: e.color, marker: e.marker, visible: view.isShown(e.run.run_id),
      disabledReason: e.series.data.length === 0 ? chart.noData : undefined,
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
        const ran = e.run.result.levels.some((l) => l.concurrency === nearest);
        values.set(e.run.run_id, f ? `${chart.formatValue(chart.figure(f).value)} (${e.mode})` : (ran ? chart.missing : 'level not run'));
        if (f) elements.details.appendChild(Object.assign(document.createElement('div'), { textContent: describeFigure(kind, e, f) }));
      }
      legend.showValues(`at ${nearest} sessions`, values);
    });
    $placeholder.on('mouseleave.sockbenchSessions', () => {
      legend.clearValues();
      elements.details.textContent = idle;
    });
    return plot;
  }

  root.Sockbench.sessionsCharts = { drawSessionsChart, CHARTS };
})(self);
