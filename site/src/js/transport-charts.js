// A mix of transports on a run's page: one flot chart per concurrency level,
// each transport's corrected RTT (the page's statistic) against the messages
// sent per second at each point, one line per transport in the transport's
// own colour and marker (transports.js fixes them by name, so a transport
// looks the same at every level). The point's mean RTT is an average over
// every session, and 5 % of sessions on xhr-polling can sit far above it
// unseen: these lines show each transport apart. Drawn as the run's own
// latency chart is: 200 ms threshold shaded for the mean only, segments next
// to a client-bound point dashed, the level's saturation point ringed, one y
// axis over every level so the charts compare, and hover details per point.
(function (root) {
  'use strict';

  const $ = root.jQuery;
  const {
    transports, series, format, palette, axisScale, seriesLegend, thresholdMarker, summaryFigures,
  } = root.Sockbench;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  /** One transport's part of a point, every figure the file holds for it. */
  function describeEntry(concurrency, { point, entry }) {
    const rtt = entry.rtt_ms;
    const parts = [
      `${entry.transport} at ${concurrency} connections, ${format.rate(point.sent_per_s)} msgs/s sent`,
      `${entry.sessions} session(s), ${entry.sent} sent, ${entry.received} of ${entry.expected_received} copies received ` +
        `(${entry.delivered_pct == null ? '—' : `${format.trim(entry.delivered_pct, 4)} %`})`,
      `RTT mean ${format.ms(rtt.mean)}, p50 ${format.ms(rtt.p50)}, p99 ${format.ms(rtt.p99)}, ` +
        `p99.9 ${format.ms(rtt.p999)}, max ${format.ms(rtt.max)}`,
    ];
    if (entry.fanout_ms) parts.push(`all copies p99 ${format.ms(entry.fanout_ms.p99)}`);
    parts.push(`state ${entry.state} (point ${point.state})`);
    if (entry.lost > 0) parts.push(`${entry.lost} lost`);
    if (entry.connection_errors > 0) parts.push(`${entry.connection_errors} connection error(s)`);
    if (point.client_bound) parts.push('client-bound point');
    return parts.join(' · ');
  }

  /** The flot series of one level: lines (solid, dashed by client-bound), markers, the saturation rings. */
  function flotSeries(lines, level, hidden) {
    const data = [];
    const saturation = summaryFigures.saturationPoint(level);
    for (const line of lines) {
      if (hidden.has(line.transport) || line.data.length === 0) continue;
      const parts = series.splitSegments(line.data, line.sources.map((s) => Boolean(s.point.client_bound)));
      if (parts.solid.length) {
        data.push({ data: parts.solid, color: line.color, lines: { show: true, lineWidth: 2 }, points: { show: false }, hoverable: false,
          sockbenchRole: 'line' });
      }
      if (parts.dashed.length) {
        data.push({ data: parts.dashed, color: line.color, points: { show: false }, hoverable: false,
          lines: { show: true, lineWidth: 2, dashes: palette.CLIENT_BOUND_DASHES }, sockbenchRole: 'client-bound' });
      }
      data.push({
        data: line.data, color: line.color, lines: { show: false }, sockbenchRole: 'points',
        points: { show: true, symbol: line.marker, radius: 2.5, lineWidth: 1.5, fillColor: line.color },
        sockbenchSources: line.sources, sockbenchTransport: line.transport,
      });
      const ringed = line.sources.findIndex((s) => s.point === saturation);
      if (ringed >= 0) {
        data.push({
          data: [line.data[ringed]], color: line.color, lines: { show: false },
          points: { show: true, symbol: 'circle', radius: 7, lineWidth: 2.5, fillColor: 'rgba(255, 255, 255, 0.35)' },
          sockbenchRole: 'saturation', sockbenchSources: [line.sources[ringed]], sockbenchTransport: line.transport,
        });
      }
    }
    return data;
  }

  function drawLevel(card, level, lines, view, yRange) {
    const chart = card.querySelector('.chart');
    const details = card.querySelector('.point-details-box');
    const legendBox = card.querySelector('.transport-legend');
    const thresholdMs = view.result.parameters.ok_mean_ms;
    const showThreshold = view.statKey === 'mean';
    const stat = series.statByKey(view.statKey);
    const xRange = axisScale.rateRange(lines.flatMap((l) => l.data.map((p) => p[0])), view.xScale);
    const plot = $.plot(chart, flotSeries(lines, level, view.hidden), {
      xaxis: {
        autoScale: 'none', min: xRange.min, max: xRange.max, mode: view.xScale === 'log' ? 'log' : null, ticks: xRange.ticks,
        axisLabel: series.RATE_AXES.sent.title, tickFormatter: (value) => format.rate(value),
      },
      yaxis: {
        autoScale: 'none', min: yRange.min, max: yRange.max, mode: view.yScale === 'log' ? 'log' : null, ticks: yRange.ticks,
        axisLabel: `${stat.name} round-trip time (ms)`, tickFormatter: (value) => format.trim(value, 3),
      },
      grid: {
        hoverable: true, autoHighlight: false, borderWidth: 1, borderColor: '#c8ccd2', backgroundColor: '#ffffff',
        markings: showThreshold ? thresholdMarker.thresholdMarkings(thresholdMs) : [],
      },
      crosshair: { mode: 'x', color: 'rgba(40, 40, 40, 0.55)', lineWidth: 1 },
    });
    if (showThreshold) thresholdMarker.addThresholdLabel(plot, thresholdMs, `${format.trim(thresholdMs, 3)} ms saturation threshold (mean)`);

    const legend = seriesLegend.renderSeriesLegend(legendBox, lines.map((line) => ({
      key: line.transport,
      label: `${line.transport} (${line.sessions} session${line.sessions === 1 ? '' : 's'})`,
      color: line.color,
      marker: line.marker,
      visible: !view.hidden.has(line.transport),
      disabledReason: line.data.length === 0 ? `no point has ${stat.name} RTT samples of ${line.transport}` : undefined,
    })), {
      onToggle: (key, visible) => view.onToggleTransport(key, visible),
      extraRows: [
        showThreshold
          ? seriesLegend.legendKeyRow('marker-threshold', `mean RTT ≥ ${format.trim(thresholdMs, 3)} ms: saturated (one transport saturates its point)`)
          : seriesLegend.legendKeyRow('marker-no-threshold', `no shading: the ${format.trim(thresholdMs, 3)} ms threshold applies to mean RTT`),
        seriesLegend.legendKeyRow('marker-saturation', 'ringed: the level\'s saturation point (judged on the worst transport)'),
      ],
    });

    const idle = 'Point under the cursor: none (hover a dot for its transport\'s figures)';
    details.textContent = idle;
    const $chart = plot.getPlaceholder();
    const xAxis = plot.getAxes().xaxis;
    // Namespaced and dropped first: a redraw reuses the placeholder.
    $chart.off('.sockbenchTransport');
    $chart.on('plothover.sockbenchTransport', (event, pos, item) => {
      const sources = item && item.series.sockbenchSources;
      details.textContent = sources ? describeEntry(level.concurrency, sources[item.dataIndex]) : idle;
      if (pos.x < xAxis.min || pos.x > xAxis.max) { legend.clearValues(); return; }
      const values = new Map(lines.filter((l) => l.data.length && !view.hidden.has(l.transport)).map((l) => {
        const y = series.interpolateAt(l.data, pos.x, { logX: view.xScale === 'log' });
        return [l.transport, y == null ? 'out of range' : format.ms(y)];
      }));
      legend.showValues(`${stat.name} RTT at ${format.rate(pos.x)} msgs/s sent`, values);
    });
    $chart.on('mouseleave.sockbenchTransport', () => { details.textContent = idle; legend.clearValues(); });
  }

  /** A chart card for one level, built once; drawLevel fills it on every redraw. */
  function levelCard(level, stampText) {
    const card = el('figure', 'chart-card transport-card');
    card.dataset.concurrency = String(level.concurrency);
    const caption = el('figcaption', null, `${level.concurrency} connections: round-trip time per transport against messages sent per second`);
    caption.append(' ', el('span', 'chart-stamp', stampText));
    const chart = el('div', 'chart');
    chart.id = `transport-chart-${level.concurrency}`;
    chart.dataset.chart = `transports-${level.concurrency}`;
    chart.setAttribute('role', 'img');
    chart.setAttribute('aria-label', `Round-trip time of each transport at ${level.concurrency} connections against messages sent per ` +
      'second; the figures are in the table below');
    card.append(caption, chart, el('div', 'point-details point-details-box'), el('div', 'transport-legend'));
    return card;
  }

  /**
   * Draws (or redraws) every level's chart into `container`.
   * @param {HTMLElement} container emptied on the first call
   * @param {{result: object, statKey: string, yScale: 'log'|'linear', xScale: 'log'|'linear',
   *          yValues?: number[], stamp: string, hidden: Set<string>,
   *          onToggleTransport: (transport: string, visible: boolean) => void}} view
   *   hidden: transports unticked (in every level's chart); yValues: RTTs the
   *   y axis must span instead of this run's ("same y range for all runs")
   */
  function drawTransportCharts(container, view) {
    const levels = view.result.levels.filter((level) => level.points.some((p) => Array.isArray(p.transports)));
    const byLevel = levels.map((level) => {
      const lines = transports.levelSeries(level, view.statKey).map((line) => {
        const index = transports.indexOf(line.transport);
        // Sessions: as many as the level's first point with the transport held (constant over a level's points).
        const first = level.points.flatMap((p) => p.transports || []).find((e) => e.transport === line.transport);
        return { ...line, color: palette.seriesColor(index), marker: palette.seriesMarker(index), sessions: first ? first.sessions : 0 };
      });
      return { level, lines };
    });
    // One y axis for every level of the run, so the charts read side by side.
    const values = view.yValues || byLevel.flatMap(({ lines }) => lines.flatMap((l) => l.data.map((p) => p[1])));
    const yRange = axisScale.rttRange(values, view.result.parameters.ok_mean_ms, view.yScale);
    if (!container.children.length) for (const { level } of byLevel) container.appendChild(levelCard(level, ''));
    for (const { level, lines } of byLevel) {
      const card = container.querySelector(`.transport-card[data-concurrency="${level.concurrency}"]`);
      card.querySelector('.chart-stamp').textContent = view.stamp;
      drawLevel(card, level, lines, view, yRange);
    }
  }

  root.Sockbench.transportCharts = { drawTransportCharts, describeEntry };
})(self);
