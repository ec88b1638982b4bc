// Entry point of run.html?run=<run_id>: one run's header, its two RTT charts
// (against sent and against received msgs/s) and the per-level table.
// View settings live in the query string so a chart can be linked as shown.
(function (root) {
  'use strict';

  const { siteData, series, format, runHeader, latencyChart, levelTable, pageShell } = root.Sockbench;

  function readView(params) {
    const statKey = series.RTT_STATS.some((s) => s.key === params.get('stat')) ? params.get('stat') : 'mean';
    const yScale = params.get('scale') === 'linear' ? 'linear' : 'log';
    const xScale = params.get('xscale') === 'log' ? 'log' : 'linear';
    return { statKey, yScale, xScale, hiddenLevels: new Set() };
  }

  function writeView(runId, view) {
    const params = new URLSearchParams({ run: runId });
    if (view.statKey !== 'mean') params.set('stat', view.statKey);
    if (view.yScale !== 'log') params.set('scale', view.yScale);
    if (view.xScale !== 'linear') params.set('xscale', view.xScale);
    root.history.replaceState(null, '', `?${params}`);
  }

  function fillRunSwitcher(select, data, currentId) {
    for (const run of data.runs) {
      const option = document.createElement('option');
      option.value = run.run_id;
      option.textContent = `${run.label} — ${format.utcMinute(run.started_at)}`;
      option.selected = run.run_id === currentId;
      select.appendChild(option);
    }
    select.addEventListener('change', () => {
      root.location.href = siteData.runPageHref(select.value);
    });
  }

  function fillStatSelector(select, view, redraw) {
    for (const stat of series.RTT_STATS) {
      const option = document.createElement('option');
      option.value = stat.key;
      option.textContent = `${stat.name} RTT`;
      option.selected = stat.key === view.statKey;
      select.appendChild(option);
    }
    select.addEventListener('change', () => { view.statKey = select.value; redraw(); });
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

    document.title = `${run.label} — sockbench`;
    document.getElementById('run-title').textContent = run.label;
    const r = run.result;
    const meta = document.getElementById('run-meta');
    meta.textContent = `${format.utcMinute(r.started_at)} · ${format.duration(r.duration_s)} · ` +
      `${r.levels.length} concurrency level(s) · profile ${r.parameters.profile} · `;
    const raw = document.createElement('a');
    raw.href = run.raw_href;
    raw.textContent = `raw JSON (${run.source})`;
    meta.appendChild(raw);
    fillRunSwitcher(document.getElementById('run-switcher'), data, run.run_id);
    runHeader.renderRunHeader(document.getElementById('run-environment'), run);
    levelTable.renderLevelTable(document.getElementById('level-table'), r);

    const view = readView(params);
    const charts = ['sent', 'received'].map((axisKey) => ({
      axisKey,
      elements: {
        chart: document.getElementById(`chart-${axisKey}`),
        legend: document.getElementById(`legend-${axisKey}`),
        details: document.getElementById(`details-${axisKey}`),
      },
    }));
    const redraw = () => {
      writeView(run.run_id, view);
      for (const chart of charts) {
        latencyChart.drawLatencyChart(chart.elements, {
          result: r,
          axisKey: chart.axisKey,
          statKey: view.statKey,
          yScale: view.yScale,
          xScale: view.xScale,
          hiddenLevels: view.hiddenLevels,
          // The two charts show the same levels, so hiding one hides it in both.
          onToggleLevel: (concurrency, visible) => {
            if (visible) view.hiddenLevels.delete(concurrency); else view.hiddenLevels.add(concurrency);
            redraw();
          },
        });
      }
    };
    fillStatSelector(document.getElementById('stat-selector'), view, redraw);
    const yScale = document.getElementById('scale-selector');
    yScale.value = view.yScale;
    yScale.addEventListener('change', () => { view.yScale = yScale.value; redraw(); });
    const xScale = document.getElementById('x-scale-selector');
    xScale.value = view.xScale;
    xScale.addEventListener('change', () => { view.xScale = xScale.value; redraw(); });
    redraw();
  }

  pageShell.runPage(start);
})(self);
