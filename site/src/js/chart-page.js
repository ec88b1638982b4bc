// Entry point of chart.html: draws one chart of the site, with the page's own
// drawing code (summary-charts.js, sessions-charts.js, latency-chart.js) and default view, into a
// fixed-size frame with a title, axis labels, legend and a footer naming the
// machine and date, so the image keeps its identity when it travels alone.
// Every canvas records itself as SVG (canvas-svg.js); tools/render-charts.js
// screenshots the frame for the PNG and calls Sockbench.chartPage.svg() for the SVG.
(function (root) {
  'use strict';

  const S = root.Sockbench;
  const { siteData, chartFiles, algorithm, summaryFigures, summaryCharts, latencyChart, historic, format, verdict, pageShell, sessionsFigures, sessionsCharts, transports } = S;

  const TITLES = { saturation: 'Saturation throughput against concurrency', rss: 'Server memory (RSS) against concurrency' };

  /** "vm (AMD EPYC, 2 cores)" for each distinct machine. */
  function machinesOf(runs) {
    const names = runs.map((run) => {
      const m = run.result.machine || {};
      const cpu = `${m.cpu_model || 'CPU not recorded'}${m.cores ? `, ${m.cores} cores` : ''}`;
      return run.kind === 'historic' ? cpu : `${m.hostname || '?'} (${cpu})`;
    });
    return [...new Set(names)].join(', ');
  }

  /** The runs' dates: one day, or the first and last. */
  function datesOf(runs) {
    const days = runs.map((run) => (run.kind === 'historic' ? run.result.published_at : run.result.started_at.slice(0, 10))).sort();
    const verb = runs.every((run) => run.kind === 'historic') ? 'published' : 'run';
    return days[0] === days[days.length - 1] ? `${verb} ${days[0]}` : `${verb} ${days[0]} to ${days[days.length - 1]}`;
  }

  // Each chart: its texts first (they take room from the chart), then a draw().
  function summaryChart(spec, data) {
    // Every run of the set is passed, the group's selected, so colours and markers are the page's.
    const plain = spec.set == null || spec.set === data.default_set;
    const today = (spec.set == null ? data.runs : data.runs.filter((run) => run.set === spec.set))
      .filter((run) => !sessionsFigures.isSessionsRun(run));
    // One transport, as the summary opens on it (chart-files.js lists the same runs).
    const filter = transports.defaultFilter(today);
    const shown = transports.filterRuns(today, filter);
    const old = transports.filterRuns(plain ? data.historic : [], filter);
    const allRuns = [...shown, ...old];
    const labels = [...summaryFigures.distinctLabels(shown), ...old.map((run) => run.label)];
    const inGroup = new Set(allRuns.filter((run) => algorithm.algorithmOf(run) === spec.group).map((run) => run.run_id));
    const groupRuns = allRuns.filter((run) => inGroup.has(run.run_id));
    const group = algorithm.groupByKey(spec.group);
    const title = `${TITLES[spec.chart]}: ${group.title}${plain ? '' : ` (result set ${spec.set})`}`;
    const subtitle = spec.chart === 'saturation'
      ? verdict.verdicts(groupRuns, { limitServers: data.limit_servers || [] }).find((v) => v.group === spec.group).sentence
      : 'Peak RSS of the one server process during each level (filled) and at its first point (hollow), read from /proc.';
    const draw = () => summaryCharts.drawSummaryChart(spec.chart, {
      chart: document.getElementById('export-chart'),
      legend: document.getElementById('export-legend'),
    }, { runs: allRuns, labels, isSelected: (id) => inGroup.has(id), onToggleRun: () => {}, yScale: 'log' });
    return { title, subtitle, runs: groupRuns, draw };
  }

  const SESSIONS_TITLES = {
    memory: 'Server memory per idle session against sessions',
    saturation: 'Fan-out saturation (every copy\'s p99 under 200 ms) against sessions',
    'p99-at-5': `Every copy's p99 at ${sessionsFigures.FIXED_RATE} msgs/s against sessions`,
  };
  const SESSIONS_SUBTITLES = {
    memory: 'Serving processes\' RSS at the end of each level\'s idle hold minus their RSS before the first level, per session connected (KB of 1,024 bytes).',
    saturation: 'Highest rate at which 99 % of all copies arrived within 200 ms, in copies delivered per second; dashed, ✕: a floor, not the server\'s limit; ▽: no ok point.',
    'p99-at-5': `All-copies p99 of the ramp point at ${sessionsFigures.FIXED_RATE} messages sent per second, the same offered load at every level; ▽: no point there.`,
  };

  // The Sessions page's chart: every sessions run, labelled and drawn as sessions.html does.
  function sessionsChart(spec, data) {
    const runs = data.runs.filter(sessionsFigures.isSessionsRun);
    const withChurn = runs.some((run) => sessionsFigures.churnPct(run.result) > 0) ? '; churn runs are named so' : '';
    const draw = () => sessionsCharts.drawSessionsChart(spec.chart, {
      chart: document.getElementById('export-chart'),
      legend: document.getElementById('export-legend'),
      details: document.getElementById('export-details'),
    }, { runs, labels: sessionsCharts.sessionsLabels(runs), isShown: () => true, onToggleRun: () => {} });
    return { title: SESSIONS_TITLES[spec.chart], subtitle: `${SESSIONS_SUBTITLES[spec.chart]} One line per run, the mode beside each${withChurn}.`, runs, draw };
  }

  function runChart(spec, data) {
    const run = siteData.runById(data, spec.runId);
    if (!run) throw new Error(`no run ${spec.runId} in this build`);
    const result = run.kind === 'historic' ? historic.asResultShape(run.result) : run.result;
    const draw = () => latencyChart.drawLatencyChart({
      chart: document.getElementById('export-chart'),
      legend: document.getElementById('export-legend'),
      details: document.getElementById('export-details'),
    }, { result, axisKey: spec.chart, statKey: 'mean', yScale: 'log', xScale: 'log', hiddenLevels: new Set(), onToggleLevel: () => {} });
    const title = `${run.label}: mean round-trip time against messages ${spec.chart} per second`;
    const subtitle = `${algorithm.modeText(run)}; one line per concurrency level; ringed: each level's saturation point ` +
      `(highest received rate with mean RTT under ${format.trim(result.parameters.ok_mean_ms, 3)} ms)`;
    return { title, subtitle, runs: [run], draw };
  }

  function start() {
    const data = siteData.loadSiteData();
    const params = new URLSearchParams(root.location.search);
    const query = params.toString();
    const spec = chartFiles.chartList(data).find((c) => new URLSearchParams(c.query).toString() === query);
    if (!spec) throw new Error(`no chart "${query}" in this build`);
    S.canvasSvg.installCanvasRecorder(root);
    const build = { summary: summaryChart, sessions: sessionsChart, run: runChart }[spec.kind];
    const { title, subtitle, runs, draw } = build(spec, data);
    document.getElementById('export-title').textContent = title;
    document.getElementById('export-subtitle').textContent = subtitle;
    document.getElementById('export-footer').textContent =
      `${machinesOf(runs)} · ${datesOf(runs)} · sockbench (SockJS broadcast benchmark) · built ${format.utcMinute(data.built_at)}`;
    document.title = title;
    // The chart gets what the texts leave, in pixels: flot sizes its canvas once.
    const chartBox = document.getElementById('export-chart');
    chartBox.style.height = `${chartBox.getBoundingClientRect().height}px`;
    draw();
    root.document.body.dataset.chartReady = spec.id;
  }

  S.chartPage = { svg: () => S.domSvg.frameToSvg(document.getElementById('export-frame')) };
  pageShell.runPage(start);
})(self);
