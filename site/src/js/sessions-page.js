// Entry point of sessions.html: the runs of the `sessions` profile (every
// result set's), their three charts against sessions and one table per run;
// without any, how to produce some. These runs are kept off the summary's
// throughput charts (their saturation is the fan-out verdict), so this page
// is where they are compared.
(function (root) {
  'use strict';

  const { siteData, sessionsFigures, sessionsCharts, sessionsTable, pageShell, algorithm, format, chartFiles } = root.Sockbench;

  const KINDS = ['memory', 'saturation', 'p99-at-5'];

  function start() {
    const data = siteData.loadSiteData();
    pageShell.showBuildInfo(data);
    const runs = data.runs.filter(sessionsFigures.isSessionsRun);
    if (runs.length === 0) {
      document.getElementById('sessions-empty').hidden = false;
      document.getElementById('sessions').hidden = true;
      return;
    }
    // Server, runtime and mode in every label (fast and naive runs must never be read as like for like), and churn where there was.
    const labels = sessionsCharts.sessionsLabels(runs);
    const sets = new Set(runs.map((run) => run.set).filter(Boolean));
    document.getElementById('sessions-count').textContent =
      `${runs.length} sessions run(s)${sets.size > 1 ? ` from the result sets ${[...sets].join(', ')}` : ''}.`;

    const hidden = new Set();
    const render = () => {
      const view = {
        runs,
        labels,
        isShown: (id) => !hidden.has(id),
        onToggleRun: (id, on) => {
          if (on) hidden.delete(id); else hidden.add(id);
          render();
        },
      };
      const shown = runs.filter((run) => view.isShown(run.run_id));
      const stamp = `${shown.length} run(s): ${[...new Set(shown.map((run) => algorithm.modeText(run)))].join(' + ') || 'none'}` +
        ` · built ${format.utcMinute(data.built_at)}`;
      for (const kind of KINDS) {
        sessionsCharts.drawSessionsChart(kind, {
          chart: document.getElementById(`chart-${kind}`),
          legend: document.getElementById(`legend-${kind}`),
          details: document.getElementById(`details-${kind}`),
        }, view);
        document.getElementById(`stamp-${kind}`).textContent = stamp;
      }
    };
    render();
    // Under each chart, its published image (make charts): the same runs, drawn by the same code.
    for (const kind of KINDS) {
      const images = chartFiles.chartList(data).filter((c) => c.kind === 'sessions' && c.chart === kind);
      const links = chartFiles.imageLinks(document, data, images);
      if (links) document.getElementById(`legend-${kind}`).after(links);
    }
    const tables = document.getElementById('sessions-tables');
    runs.forEach((run, i) => sessionsTable.renderSessionsTable(tables, run, labels[i]));
  }

  pageShell.runPage(start);
})(self);
