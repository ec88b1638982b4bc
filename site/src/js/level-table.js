// Per-level table under a run's charts: how each concurrency level went
// (connections, saturation point, why it ended, peak server memory).
(function (root) {
  'use strict';

  const { format, summaryFigures } = root.Sockbench;

  function cell(row, text, className) {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
  }

  function renderLevelTable(table, result) {
    const points = new Map(result.levels.map((level) => [level.concurrency, level.points]));
    table.querySelector('tbody')?.remove();
    const body = document.createElement('tbody');
    for (const f of summaryFigures.levelFigures(result)) {
      const row = document.createElement('tr');
      const levelPoints = points.get(f.concurrency);
      const clientBound = levelPoints.filter((p) => p.client_bound).length;
      cell(row, String(f.concurrency), 'num');
      cell(row, `${f.connected}`, f.connected < f.concurrency ? 'num attention' : 'num');
      cell(row, String(levelPoints.length), 'num');
      cell(row, f.saturation ? format.rate(f.saturation.received_per_s) : 'none ok', 'num');
      cell(row, f.saturation ? format.rate(f.saturation.sent_per_s) : '—', 'num');
      cell(row, f.saturation ? format.ms(f.saturation.rtt_mean_ms) : '—', 'num');
      cell(row, format.bytes(f.peakRssBytes), 'num');
      cell(row, clientBound ? `${clientBound} point(s)` : 'none', clientBound ? 'attention' : '');
      cell(row, f.endReason);
      body.appendChild(row);
    }
    table.appendChild(body);
  }

  root.Sockbench.levelTable = { renderLevelTable };
})(self);
