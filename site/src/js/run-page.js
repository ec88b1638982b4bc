// Entry point of run.html?run=<run_id>: one run's header, its two RTT charts
// (against sent and against received msgs/s), for a mix of transports each
// transport's RTT and share per level, and the per-level table. Also
// draws the 2011 historic runs (results/historic/), whose only statistic is
// the mean. View settings live in the query string so a chart can be linked
// as shown.
(function (root) {
  'use strict';

  const {
    siteData, series, format, runHeader, latencyChart, levelTable, pageShell, algorithm, historic, chartFiles,
    transports, transportCharts, transportTable,
  } = root.Sockbench;

  function readView(params) {
    const statKey = series.RTT_STATS.some((s) => s.key === params.get('stat')) ? params.get('stat') : 'mean';
    const yScale = params.get('scale') === 'linear' ? 'linear' : 'log';
    // Log by default: on a linear rate axis the low levels crowd into the left tenth.
    const xScale = params.get('xscale') === 'linear' ? 'linear' : 'log';
    const sameY = params.get('yrange') === 'all';
    return { statKey, yScale, xScale, sameY, hiddenLevels: new Set() };
  }

  function writeView(runId, view) {
    const params = new URLSearchParams({ run: runId });
    if (view.statKey !== 'mean') params.set('stat', view.statKey);
    if (view.yScale !== 'log') params.set('scale', view.yScale);
    if (view.xScale !== 'log') params.set('xscale', view.xScale);
    if (view.sameY) params.set('yrange', 'all');
    root.history.replaceState(null, '', `?${params}`);
  }

  const resultShapeOf = (run) => (run.kind === 'historic' ? historic.asResultShape(run.result) : run.result);

  function fillRunSwitcher(select, data, currentId) {
    const groups = [['Runs', data.runs], ['2011 (published data)', data.historic]];
    for (const [title, runs] of groups) {
      if (runs.length === 0) continue;
      const group = document.createElement('optgroup');
      group.label = title;
      for (const run of runs) {
        const option = document.createElement('option');
        option.value = run.run_id;
        option.textContent = run.kind === 'historic' ? run.label : `${run.label} — ${format.utcMinute(run.started_at)}`;
        option.selected = run.run_id === currentId;
        group.appendChild(option);
      }
      select.appendChild(group);
    }
    select.addEventListener('change', () => {
      root.location.href = siteData.runPageHref(select.value);
    });
  }

  function fillStatSelector(select, view, redraw, isHistoric) {
    for (const stat of series.RTT_STATS) {
      const option = document.createElement('option');
      option.value = stat.key;
      option.textContent = `${stat.name} RTT`;
      option.selected = stat.key === view.statKey;
      // 2011 published the mean only.
      if (isHistoric && stat.key !== 'mean') option.disabled = true;
      select.appendChild(option);
    }
    select.addEventListener('change', () => { view.statKey = select.value; redraw(); });
  }

  /** Who and what a chart shows, for its card: a screenshot of the card stands alone. */
  function chartStamp(run, statName) {
    if (run.kind === 'historic') {
      return `${run.label} · one frame per message · published ${run.result.published_at} · ${run.result.machine.cpu_model} · mean RTT only`;
    }
    const r = run.result;
    return `${run.label} · ${r.server.runtime} ${r.server.runtime_version} · mode ${algorithm.modeText(run)} · ` +
      `${format.utcMinute(r.started_at)} · ${r.machine.cpu_model}, host ${r.machine.hostname} · ${statName} RTT`;
  }

  /** Every RTT of `statKey` in every run of the build, each transport's of a mix too: the shared y range. */
  function allRunsRtts(data, statKey) {
    return [...data.runs, ...data.historic].flatMap((run) => resultShapeOf(run).levels
      .flatMap((level) => level.points.flatMap((p) => [p.rtt_ms, ...(p.transports || []).map((e) => e.rtt_ms)])
        .map((rtt) => rtt[statKey]).filter((v) => v != null)));
  }

  function renderMeta(run, data) {
    const meta = document.getElementById('run-meta');
    if (run.kind === 'historic') {
      meta.textContent = `published ${run.result.published_at} · ${run.result.levels.length} concurrency level(s) · ` +
        'one frame per message · mean RTT only · ';
    } else {
      const r = run.result;
      meta.textContent = `${format.utcMinute(r.started_at)} · ${format.duration(r.duration_s)} · ` +
        `${r.levels.length} concurrency level(s) · profile ${r.parameters.profile} · mode ${algorithm.modeText(run)} · ` +
        (transports.isPlain(r) ? '' : `transports ${transports.describe(transports.specOf(r))} · `);
    }
    const raw = document.createElement('a');
    raw.href = run.raw_href;
    raw.textContent = `raw JSON (${run.source})`;
    meta.appendChild(raw);
    // With several result sets, which one the run belongs to, linked to the summary showing that set.
    if (run.set && (data.sets || []).length > 1) {
      const set = document.createElement('a');
      set.href = run.set === data.default_set ? 'index.html' : `index.html#set=${encodeURIComponent(run.set)}`;
      set.textContent = run.set;
      set.dataset.set = run.set;
      meta.append(' · result set ', set);
    }
  }

  function start() {
    const data = siteData.loadSiteData();
    const params = new URLSearchParams(root.location.search);
    const runId = params.get('run') || (data.runs[0] && data.runs[0].run_id);
    const run = runId ? siteData.runById(data, runId) : null;
    pageShell.showBuildInfo(data);
    if (!run) {
      pageShell.showNotice(data.runs.length === 0
        ? 'There are no valid runs yet. The summary page says how to produce them.'
        : `No run with id "${runId}" in this build. Pick one from the summary page.`);
      return;
    }

    const isHistoric = run.kind === 'historic';
    document.title = `${run.label} — sockbench`;
    document.getElementById('run-title').textContent = run.label;
    renderMeta(run, data);
    fillRunSwitcher(document.getElementById('run-switcher'), data, run.run_id);
    if (isHistoric) runHeader.renderHistoricHeader(document.getElementById('run-environment'), run);
    else runHeader.renderRunHeader(document.getElementById('run-environment'), run);
    const r = resultShapeOf(run);
    levelTable.renderLevelTable(document.getElementById('level-table'), r);

    const view = readView(params);
    if (isHistoric) view.statKey = 'mean';
    // A mix of transports: each one's lines and table (a run of one transport only names it, above).
    const mix = !isHistoric && transports.hasBreakdown(r);
    const hiddenTransports = new Set();
    if (mix) {
      document.getElementById('transports').hidden = false;
      document.getElementById('transports-mix').textContent = transports.describe(transports.specOf(r));
      transportTable.renderTransportTables(document.getElementById('transport-tables'), r);
    }
    const charts = ['sent', 'received'].map((axisKey) => ({
      axisKey,
      stamp: document.getElementById(`stamp-${axisKey}`),
      elements: {
        chart: document.getElementById(`chart-${axisKey}`),
        legend: document.getElementById(`legend-${axisKey}`),
        details: document.getElementById(`details-${axisKey}`),
      },
    }));
    // Under each chart, its published image (make charts: the default view, mean RTT on log axes).
    const images = chartFiles.chartList(data).filter((c) => c.kind === 'run' && c.runId === run.run_id);
    for (const chart of charts) {
      const links = chartFiles.imageLinks(document, data, images.filter((c) => c.chart === chart.axisKey));
      if (links) chart.elements.legend.after(links);
    }
    const redraw = () => {
      writeView(run.run_id, view);
      const statName = series.statByKey(view.statKey).name;
      const yValues = view.sameY ? allRunsRtts(data, view.statKey) : undefined;
      for (const chart of charts) {
        chart.stamp.textContent = chartStamp(run, statName) + (view.sameY ? ' · y range shared by all runs' : '');
        latencyChart.drawLatencyChart(chart.elements, {
          result: r,
          axisKey: chart.axisKey,
          statKey: view.statKey,
          yScale: view.yScale,
          xScale: view.xScale,
          yValues,
          hiddenLevels: view.hiddenLevels,
          // The two charts show the same levels, so hiding one hides it in both.
          onToggleLevel: (concurrency, visible) => {
            if (visible) view.hiddenLevels.delete(concurrency); else view.hiddenLevels.add(concurrency);
            redraw();
          },
        });
      }
      if (mix) {
        transportCharts.drawTransportCharts(document.getElementById('transport-charts'), {
          result: r,
          statKey: view.statKey,
          yScale: view.yScale,
          xScale: view.xScale,
          yValues,
          stamp: chartStamp(run, statName),
          hidden: hiddenTransports,
          onToggleTransport: (transport, visible) => {
            if (visible) hiddenTransports.delete(transport); else hiddenTransports.add(transport);
            redraw();
          },
        });
      }
    };
    fillStatSelector(document.getElementById('stat-selector'), view, redraw, isHistoric);
    const yScale = document.getElementById('scale-selector');
    yScale.value = view.yScale;
    yScale.addEventListener('change', () => { view.yScale = yScale.value; redraw(); });
    const xScale = document.getElementById('x-scale-selector');
    xScale.value = view.xScale;
    xScale.addEventListener('change', () => { view.xScale = xScale.value; redraw(); });
    const sameY = document.getElementById('same-y-range');
    sameY.checked = view.sameY;
    sameY.addEventListener('change', () => { view.sameY = sameY.checked; redraw(); });
    redraw();
  }

  pageShell.runPage(start);
})(self);
