// Draws one "RTT against message rate" chart of a run with flot: one line per
// concurrency level (own colour and marker), segments touching a client-bound
// point dashed and the point crossed out, each level's saturation point
// ringed, the 200 ms threshold shaded when the statistic is the mean (the
// threshold is a mean threshold: on a percentile axis it would mislabel
// points), and a crosshair whose legend shows each line's interpolated RTT at
// the cursor; hovering a point shows its measurements, CPU and steal included
// (and its messages per frame where the file recorded them).
(function (root) {
  'use strict';

  const $ = root.jQuery;
  const {
    series, format, palette, axisScale, seriesLegend, thresholdMarker, summaryFigures, messagesPerFrame,
  } = root.Sockbench;

  /**
   * @param {{chart: HTMLElement, legend: HTMLElement, details: HTMLElement}} elements
   *   chart: sized element flot draws into; legend: filled with the legend;
   *   details: shows the measurements of the point under the cursor
   * @param {{result: object, axisKey: 'sent'|'received', statKey: string,
   *          yScale: 'log'|'linear', xScale: 'log'|'linear', hiddenLevels: Set<number>,
   *          yValues?: number[], onToggleLevel: (concurrency: number, visible: boolean) => void}} view
   *   yValues: RTTs the y axis must span instead of this run's own (the
   *   "same y range for all runs" option)
   * @returns {object} the flot plot
   */
  function drawLatencyChart(elements, view) {
    const { result, axisKey, statKey } = view;
    const placeholder = elements.chart;
    const stat = series.statByKey(statKey);
    const thresholdMs = result.parameters.ok_mean_ms;
    // Only the mean has a threshold: a level saturates by its mean RTT.
    const showThreshold = statKey === 'mean';
    const levels = series.latencySeries(result, axisKey, statKey)
      .map((level, index) => ({ ...level, color: palette.seriesColor(index), marker: palette.seriesMarker(index) }));
    const visibleLevels = levels.filter((l) => !view.hiddenLevels.has(l.concurrency));

    const flotData = [];
    for (const level of visibleLevels) {
      if (level.data.length === 0) continue;
      const parts = series.splitSegments(level.data, level.sources.map((p) => Boolean(p.client_bound)));
      if (parts.solid.length) {
        flotData.push({ data: parts.solid, color: level.color, lines: { show: true, lineWidth: 2 }, points: { show: false },
          sockbenchRole: 'line', hoverable: false, sockbenchLevel: level.concurrency });
      }
      if (parts.dashed.length) {
        flotData.push({ data: parts.dashed, color: level.color, points: { show: false },
          lines: { show: true, lineWidth: 2, dashes: palette.CLIENT_BOUND_DASHES },
          sockbenchRole: 'client-bound', hoverable: false, sockbenchLevel: level.concurrency });
      }
      flotData.push({
        data: level.data,
        color: level.color,
        lines: { show: false },
        points: { show: true, symbol: level.marker, radius: 2.5, lineWidth: 1.5, fillColor: level.color },
        sockbenchRole: 'points',
        sockbenchLevel: level.concurrency,
        sockbenchPoints: level.sources,
      });
    }
    // Each level's saturation point (the figure the summary plots), ringed.
    const saturationMarks = [];
    for (const level of visibleLevels) {
      const resultLevel = result.levels.find((l) => l.concurrency === level.concurrency);
      const point = resultLevel && summaryFigures.saturationPoint(resultLevel);
      const index = point ? level.sources.indexOf(point) : -1;
      if (index < 0) continue;
      saturationMarks.push({ level, index });
      flotData.push({
        data: [level.data[index]],
        color: level.color,
        lines: { show: false },
        points: { show: true, symbol: 'circle', radius: 7, lineWidth: 2.5, fillColor: 'rgba(255, 255, 255, 0.35)' },
        sockbenchRole: 'saturation',
        sockbenchLevel: level.concurrency,
        sockbenchPoints: [point],
      });
    }
    for (const level of visibleLevels) {
      if (level.clientBound.length === 0) continue;
      flotData.push({
        data: level.clientBound,
        color: palette.CLIENT_BOUND_MARK,
        lines: { show: false },
        points: { show: true, symbol: 'cross', radius: 6, lineWidth: 2 },
        sockbenchLevel: level.concurrency,
        sockbenchPoints: level.clientBoundSources,
      });
    }

    // Axes span every level, hidden or not, so toggling a series never rescales;
    // with "same y range for all runs" the y axis spans what the caller gives.
    const allPoints = levels.flatMap((l) => l.data);
    const yRange = axisScale.rttRange(view.yValues || allPoints.map((p) => p[1]), thresholdMs, view.yScale);
    const xRange = axisScale.rateRange(allPoints.map((p) => p[0]), view.xScale);

    const plot = $.plot(placeholder, flotData, {
      xaxis: {
        autoScale: 'none',
        min: xRange.min,
        max: xRange.max,
        mode: view.xScale === 'log' ? 'log' : null,
        ticks: xRange.ticks,
        axisLabel: series.RATE_AXES[axisKey].title,
        tickFormatter: (value) => format.rate(value),
      },
      yaxis: {
        autoScale: 'none',
        min: yRange.min,
        max: yRange.max,
        mode: view.yScale === 'log' ? 'log' : null,
        ticks: yRange.ticks,
        axisLabel: `${stat.name} round-trip time (ms)`,
        tickFormatter: (value) => format.trim(value, 3),
      },
      grid: {
        hoverable: true,
        autoHighlight: false,
        borderWidth: 1,
        borderColor: '#c8ccd2',
        backgroundColor: '#ffffff',
        markings: showThreshold ? thresholdMarker.thresholdMarkings(thresholdMs) : [],
      },
      crosshair: { mode: 'x', color: 'rgba(40, 40, 40, 0.55)', lineWidth: 1 },
    });
    if (showThreshold) {
      thresholdMarker.addThresholdLabel(plot, thresholdMs,
        `${format.trim(thresholdMs, 3)} ms saturation threshold (mean)`);
    }

    const clientBoundCount = levels.reduce((n, l) => n + l.clientBound.length, 0);
    const legend = seriesLegend.renderSeriesLegend(elements.legend, levels.map((level) => ({
      key: String(level.concurrency),
      label: `${level.concurrency} connections`,
      color: level.color,
      marker: level.marker,
      visible: !view.hiddenLevels.has(level.concurrency),
      disabledReason: level.data.length === 0 ? 'no point of this level has RTT samples' : undefined,
    })), {
      onToggle: (key, visible) => view.onToggleLevel(Number(key), visible),
      extraRows: [
        showThreshold
          ? seriesLegend.legendKeyRow('marker-threshold', `mean RTT ≥ ${format.trim(thresholdMs, 3)} ms: the point is saturated`)
          : seriesLegend.legendKeyRow('marker-no-threshold', `no shading: the ${format.trim(thresholdMs, 3)} ms threshold applies ` +
            `to mean RTT, not to ${stat.name}; the ringed points are still the mean-RTT saturation points`),
        seriesLegend.legendKeyRow('marker-saturation', `ringed: each level's saturation point (${saturationMarks.length})`),
        seriesLegend.legendKeyRow('marker-client-bound', clientBoundCount > 0
          ? `client-bound point (${clientBoundCount}), dashed segments beside it: measures the client, not the server`
          : 'no client-bound points'),
      ],
    });
    bindCrosshairValues(plot, legend, visibleLevels, axisKey, stat, view.xScale === 'log');
    bindPointDetails(plot, elements.details);
    return plot;
  }

  /**
   * Beside the own-copy RTT, where every copy was timed (sessions profile): the
   * all-copies latency, which judged the point, and each message's completion
   * (its last copy's arrival); [] for other points.
   */
  function fanoutParts(point) {
    const parts = [];
    const all = point.fanout_ms;
    if (all) {
      parts.push(`all copies (${all.count}) mean ${format.ms(all.mean)}, p50 ${format.ms(all.p50)}, p99 ${format.ms(all.p99)}, ` +
        `p99.9 ${format.ms(all.p999)}, max ${format.ms(all.max)}`);
    }
    const done = point.completion_ms;
    if (done) {
      parts.push(`completion p50 ${format.ms(done.p50)}, p99 ${format.ms(done.p99)}, max ${format.ms(done.max)}` +
        (done.incomplete > 0 ? ` (${done.incomplete} message(s) incomplete)` : ''));
    }
    return parts;
  }

  /** One line with everything measured at a point. */
  function describePoint(concurrency, point) {
    const rtt = point.rtt_ms;
    const pct = (v) => (v == null ? '—' : `${format.trim(v, 3)} %`);
    // Beside the received rate: how many messages each frame carried (absent in older files).
    const frames = messagesPerFrame.describe(point.messages_per_frame);
    const parts = [
      point.target_rate == null
        ? `${concurrency} connections`
        : `${concurrency} connections, target ${format.rate(point.target_rate)} msgs/s`,
      `sent ${format.rate(point.sent_per_s)}/s, received ${format.rate(point.received_per_s)}/s` +
        (frames ? `, ${frames}` : ''),
      `RTT mean ${format.ms(rtt.mean)}, p50 ${format.ms(rtt.p50)}, p99 ${format.ms(rtt.p99)}, ` +
        `p99.9 ${format.ms(rtt.p999)}, max ${format.ms(rtt.max)}`,
      ...fanoutParts(point),
      `state ${point.state}${point.backlog_growing ? ' (backlog growing)' : ''}`,
      `server CPU ${pct(point.server_cpu_pct)}, client CPU ${pct(point.client_cpu_pct)}, steal ${pct(point.steal_pct)}`,
    ];
    if (point.phase) parts.push(`phase ${point.phase}`);
    if (point.lost > 0) parts.push(`${point.lost} lost`);
    if (point.connection_errors > 0) parts.push(`${point.connection_errors} connection error(s)`);
    if (point.client_bound) parts.push(`client-bound (${point.client_bound_reasons.join(', ')})`);
    return parts.join(' · ');
  }

  function bindPointDetails(plot, details) {
    const idle = 'Point under the cursor: none (hover a dot for its measurements)';
    details.textContent = idle;
    details.classList.add('point-details');
    const $placeholder = plot.getPlaceholder();
    $placeholder.off('.sockbenchDetails');
    $placeholder.on('plothover.sockbenchDetails', (event, pos, item) => {
      const points = item && item.series.sockbenchPoints;
      details.textContent = points ? describePoint(item.series.sockbenchLevel, points[item.dataIndex]) : idle;
    });
    $placeholder.on('mouseleave.sockbenchDetails', () => { details.textContent = idle; });
  }

  function bindCrosshairValues(plot, legend, visibleLevels, axisKey, stat, logX) {
    const $placeholder = plot.getPlaceholder();
    const xAxis = plot.getAxes().xaxis;
    const rateWord = axisKey === 'sent' ? 'sent' : 'received';
    $placeholder.off('.sockbenchCrosshair');
    $placeholder.on('plothover.sockbenchCrosshair', (event, pos) => {
      if (pos.x < xAxis.min || pos.x > xAxis.max) {
        legend.clearValues();
        return;
      }
      const values = new Map();
      for (const level of visibleLevels) {
        if (level.data.length === 0) continue;
        const y = series.interpolateAt(level.data, pos.x, { logX });
        values.set(String(level.concurrency), y == null ? 'out of range' : format.ms(y));
      }
      legend.showValues(`${stat.name} RTT at ${format.rate(pos.x)} msgs/s ${rateWord}`, values);
    });
    $placeholder.on('mouseleave.sockbenchCrosshair', () => legend.clearValues());
  }

  root.Sockbench.latencyChart = { drawLatencyChart };
})(self);
