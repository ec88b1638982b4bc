// Entry point of index.html: the summary across runs. Shows the friendly
// "how to produce results" page when there are none, lists broken result
// files, and lets the reader choose which runs the charts overlay.
(function (root) {
  'use strict';

  const { siteData, summaryFigures, summaryCharts, summaryTable, errorsPanel, runSelection, quickPicks, pageShell } = root.Sockbench;

  function renderQuickPicks(container, runs, selection) {
    container.textContent = '';
    for (const pick of quickPicks.quickPicks(runs)) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = pick.text;
      button.addEventListener('click', () => selection.only(pick.ids));
      container.appendChild(button);
    }
  }

  function start() {
    const data = siteData.loadSiteData();
    pageShell.showBuildInfo(data);
    errorsPanel.renderErrorsPanel(document.getElementById('result-errors'), data.errors);

    if (data.runs.length === 0) {
      document.getElementById('empty-state').hidden = false;
      document.getElementById('summary').hidden = true;
      if (data.errors.length > 0) document.getElementById('empty-state-errors').hidden = false;
      return;
    }

    const runs = data.runs;
    const labels = summaryFigures.distinctLabels(runs);
    const render = () => {
      const view = {
        runs,
        labels,
        isSelected: selection.isSelected,
        onToggleRun: (id, on) => selection.set(id, on),
      };
      summaryCharts.drawSummaryChart('saturation',
        document.getElementById('chart-saturation'), document.getElementById('legend-saturation'), view);
      summaryCharts.drawSummaryChart('rss',
        document.getElementById('chart-rss'), document.getElementById('legend-rss'), view);
      summaryTable.renderSummaryTable(document.getElementById('summary-table'), runs, labels, selection);
      document.getElementById('selection-count').textContent =
        `${selection.selected().size} of ${runs.length} run(s) overlaid`;
    };
    const selection = runSelection.createRunSelection(runs.map((r) => r.run_id), render);
    renderQuickPicks(document.getElementById('quick-picks'), runs, selection);
    render();
  }

  pageShell.runPage(start);
})(self);
