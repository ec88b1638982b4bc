// A mix of transports on a run's page: per concurrency level, one table of
// each transport's share of the points that matter (transports.tablePoints:
// the saturation point, and the first point that was not ok, where the
// per-transport states say which transport ended the climb). The point's
// state is the worst of its transports', so this is where a reader sees which
// one it was. Figures are the file's `points[].transports[]` as written.
(function (root) {
  'use strict';

  const { transports, format, palette, summaryFigures } = root.Sockbench;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  const HEADINGS = [
    ['point', ''], ['transport', ''], ['sessions', 'num'], ['sent', 'num'], ['delivered', 'num'], ['lost', 'num'],
    ['p50 RTT', 'num'], ['p99 RTT', 'num'], ['state', ''],
  ];

  const ROLE_TEXT = {
    saturation: 'saturation point',
    ended: 'first point not ok',
    last: 'last point measured',
  };

  /** The first cell of a point's rows: which point and at what load. */
  function pointCell(role, point, rows) {
    const cell = el('td', 'transport-point', ROLE_TEXT[role]);
    cell.rowSpan = rows;
    cell.append(document.createElement('br'),
      el('small', null, `${format.rate(point.sent_per_s)} msgs/s sent · point ${point.state}`));
    return cell;
  }

  function transportRow(entry) {
    const row = el('tr');
    row.dataset.transport = entry.transport;
    const name = el('td', 'transport-name');
    const swatch = el('span', 'swatch');
    const index = transports.indexOf(entry.transport);
    swatch.style.background = palette.seriesColor(index);
    swatch.dataset.marker = palette.seriesMarker(index);
    name.append(swatch, entry.transport);
    const delivered = entry.delivered_pct == null ? '—' : `${format.trim(entry.delivered_pct, 4)} %`;
    row.append(
      name,
      el('td', 'num', String(entry.sessions)),
      el('td', 'num', String(entry.sent)),
      el('td', entry.delivered_pct != null && entry.delivered_pct < 100 ? 'num attention' : 'num', delivered),
      el('td', entry.lost > 0 ? 'num attention' : 'num', String(entry.lost)),
      el('td', 'num', format.ms(entry.rtt_ms.p50)),
      el('td', 'num', format.ms(entry.rtt_ms.p99)),
      el('td', entry.state === 'ok' ? 'transport-state' : 'transport-state attention', entry.state),
    );
    return row;
  }

  /** One level's table, or null when none of its points has a breakdown. */
  function levelTable(level) {
    const picked = transports.tablePoints(level, summaryFigures.saturationPoint(level));
    if (!picked.length) return null;
    const table = el('table', 'data-table transport-table');
    table.dataset.concurrency = String(level.concurrency);
    const head = el('tr');
    for (const [text, className] of HEADINGS) head.appendChild(el('th', className || null, text));
    table.appendChild(el('thead')).appendChild(head);
    for (const { role, point } of picked) {
      const body = el('tbody');
      body.dataset.role = role;
      point.transports.forEach((entry, i) => {
        const row = transportRow(entry);
        if (i === 0) row.prepend(pointCell(role, point, point.transports.length));
        body.appendChild(row);
      });
      table.appendChild(body);
    }
    return table;
  }

  /** Fills `container` with a heading and a table per level that has a breakdown. */
  function renderTransportTables(container, result) {
    container.textContent = '';
    for (const level of result.levels) {
      const table = levelTable(level);
      if (!table) continue;
      const section = el('section', 'transport-level');
      section.appendChild(el('h3', null, `${level.concurrency} connections`));
      const scroll = el('div', 'table-scroll');
      scroll.appendChild(table);
      section.appendChild(scroll);
      container.appendChild(section);
    }
  }

  root.Sockbench.transportTable = { renderTransportTables };
})(self);
