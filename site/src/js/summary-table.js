// The summary table: every valid run (selected for the charts or not), its
// environment, the per-level figures the charts plot (each with its share of
// the set's limit server where there is one: limit-share.js), and links to its
// chart page and raw JSON. One <tbody> per run; run cells span its level rows.
(function (root) {
  'use strict';

  const { format, summaryFigures, siteData, palette, algorithm, summaryCharts, floors, limitShare, transports } = root.Sockbench;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  function lines(...texts) {
    const cell = el('td');
    texts.filter((t) => t).forEach((text, i) => {
      if (i > 0) cell.appendChild(document.createElement('br'));
      cell.appendChild(i === 0 ? document.createTextNode(text) : el('small', null, text));
    });
    return cell;
  }

  /** The overlay checkbox and colour swatch of one run's row. */
  function selectCell(run, index, label, selection) {
    const select = el('td', 'select-cell');
    const checkbox = el('input');
    checkbox.type = 'checkbox';
    checkbox.checked = selection.isSelected(run.run_id);
    checkbox.dataset.runId = run.run_id;
    checkbox.setAttribute('aria-label', `overlay ${label}`);
    checkbox.addEventListener('change', () => selection.set(run.run_id, checkbox.checked));
    const swatch = el('span', 'swatch');
    swatch.style.background = palette.seriesColor(index);
    select.append(checkbox, swatch);
    return select;
  }

  /** The link to one run's raw result file. */
  function rawCell(run) {
    const raw = el('td');
    const rawLink = el('a', 'raw-link', 'JSON');
    rawLink.href = run.raw_href;
    rawLink.title = run.source;
    raw.appendChild(rawLink);
    return raw;
  }

  function runCells(run, index, label, selection) {
    if (run.kind === 'historic') return historicRunCells(run, index, label, selection);
    const r = run.result;
    const s = r.server;
    const select = selectCell(run, index, label, selection);
    const swatch = select.querySelector('.swatch');
    swatch.dataset.marker = palette.seriesMarker(index);

    const name = el('td', 'run-cell');
    const link = el('a', null, label);
    link.href = siteData.runPageHref(run.run_id);
    name.append(link, document.createElement('br'), el('small', null, `${format.utcMinute(r.started_at)} · ${r.parameters.profile}`));
    if (r.warnings.length) name.appendChild(el('div', 'warning-count', `${r.warnings.length} warning(s)`));

    const raw = rawCell(run);

    return [
      select,
      name,
      // A scaled-out run is a different setup from the one-process run of the same server: say so.
      lines(`${s.runtime} ${s.runtime_version}`, s.peer ? `${s.name} (peer)` : s.name, format.scaleOut(s)),
      lines(s.codec ?? 'n/a', algorithm.modeText(run)),
      lines(r.machine.cpu_model, `${r.machine.cores} cores · ${r.machine.hostname}`),
      lines(`server ${format.cpuList(r.pinning.server_cpus)} · client ${format.cpuList(r.pinning.client_cpus)}`,
        r.pinning.shared ? 'shared cores' : 'separate cores'),
      // The sessions' SockJS transports beside the framing, where they are not plain websocket.
      lines(transports.isPlain(r) ? r.client.transport : `${r.client.transport} · ${transports.describe(transports.specOf(r))}`,
        `JVM ${r.client.jvm_version}`),
      raw,
    ];
  }

  /** The same facts for a 2011 run: what was published, and nothing else. */
  function historicRunCells(run, index, label, selection) {
    const r = run.result;
    const select = selectCell(run, index, label, selection);
    const name = el('td', 'run-cell');
    const link = el('a', null, label);
    link.href = siteData.runPageHref(run.run_id);
    name.append(link, document.createElement('br'), el('small', null, `published ${r.published_at} · mean RTT only`));
    const raw = rawCell(run);
    return [
      select,
      name,
      lines(`${r.server.runtime} ${r.server.runtime_version}`, r.server.name),
      lines(r.server.codec ?? 'n/a', algorithm.modeText(run)),
      lines(r.machine.cpu_model, `${r.machine.cores} cores · 2011`),
      lines(r.machine.pinning),
      lines('Java client (2011)', 'additive ramp'),
      raw,
    ];
  }

  /** "38 % of limit-naive" under a figure, or "the limit" on the limit server's own row; null without either. */
  function shareNote(run, figure, shares) {
    if (!shares || !figure.saturation) return null;
    const limit = shares.limitOf(run.run_id);
    if (limit) return el('small', 'limit-share', `the limit (${limit}) of this set`);
    const share = shares.shareOf(run.run_id, figure.concurrency);
    return share ? el('small', 'limit-share', limitShare.shareText(share)) : null;
  }

  function levelCells(figure, note) {
    const sat = figure.saturation;
    const satCell = el('td', 'num');
    if (sat) {
      satCell.appendChild(document.createTextNode(format.rate(figure.spread ? figure.spread.median : sat.received_per_s)));
      const spread = figure.spread && figure.repetitions > 1
        ? `median of ${figure.repetitions}, range ${format.rate(figure.spread.min)}–${format.rate(figure.spread.max)}`
        : 'single run';
      satCell.append(document.createElement('br'), el('small', 'spread', spread));
    } else {
      satCell.textContent = 'none ok';
    }
    // A floor, not the server's limit (floors.js has the rule): "≥" and why.
    if (figure.floorReasons.length > 0) {
      const why = floors.describeFloor(figure.floorReasons);
      satCell.classList.add('floor');
      satCell.title = `${why}: the server's limit is at least this`;
      satCell.firstChild.textContent = `${floors.FLOOR_PREFIX}${satCell.firstChild.textContent}`;
      satCell.append(document.createElement('br'), el('small', 'floor-note', why));
    }
    // The server's own limit below full CPU (floors.js): no "≥", but what was seen.
    if (figure.limitNotes.length > 0) satCell.append(document.createElement('br'), el('small', 'limit-note', figure.limitNotes.join(', ')));
    if (note) satCell.append(document.createElement('br'), note);
    const pct = (v) => (v == null ? '—' : `${format.trim(v, 3)} %`);
    const cpu = el('td', 'num cpu-cell', sat ? `${pct(figure.serverCpuPct)} / ${pct(figure.clientCpuPct)}` : '—');
    if (sat && figure.stealPct != null) cpu.append(document.createElement('br'), el('small', null, `steal ${pct(figure.stealPct)}`));
    const rss = figure.peakRssBytes == null ? '—' : `${format.bytes(figure.rssAtStartBytes)} → ${format.bytes(figure.peakRssBytes)}`;
    return [
      el('td', 'num', String(figure.concurrency)),
      satCell,
      el('td', 'num', sat ? format.ms(sat.rtt_mean_ms) : '—'),
      cpu,
      el('td', 'num', rss),
    ];
  }

  /**
   * @param {HTMLTableElement} table with its <thead> in place
   * @param {object[]} runs every valid run; labels: legend text per run
   * @param {{isSelected: Function, set: Function}} selection
   * @param {{shareOf: Function, limitOf: Function}} [shares] limitShare.limitShares of the set's runs
   */
  function renderSummaryTable(table, runs, labels, selection, shares) {
    table.querySelectorAll('tbody').forEach((body) => body.remove());
    runs.forEach((run, index) => {
      const body = el('tbody');
      body.dataset.runId = run.run_id;
      if (!selection.isSelected(run.run_id)) body.classList.add('not-selected');
      const figures = summaryFigures.levelFigures(summaryCharts.resultOf(run));
      const rowCount = Math.max(1, figures.length);
      figures.forEach((figure, i) => {
        const row = el('tr');
        const cells = levelCells(figure, shareNote(run, figure, shares));
        if (i === 0) {
          const shared = runCells(run, index, labels[index], selection);
          shared.forEach((cell) => { cell.rowSpan = rowCount; });
          // Run columns first, then the level figures, then the raw link.
          const raw = shared.pop();
          row.append(...shared, ...cells, raw);
        } else {
          row.append(...cells);
        }
        body.appendChild(row);
      });
      table.appendChild(body);
    });
  }

  root.Sockbench.summaryTable = { renderSummaryTable };
})(self);
