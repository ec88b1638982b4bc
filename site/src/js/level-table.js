// Per-level table under a run's charts: how each concurrency level went
// (connections, saturation point with its spread, "≥" and why when it is only
// a floor for the server, the label when it is the server's own limit below
// full CPU, messages per frame there, CPU there, memory, why it ended).
// Works for historic runs too, where most columns are "—".
(function (root) {
  'use strict';

  const { format, summaryFigures, floors, messagesPerFrame } = root.Sockbench;

  function cell(row, text, className) {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  const pct = (v) => (v == null ? '—' : `${format.trim(v, 3)} %`);

  /** @param {object} result a result file, or the historic adapter's result shape */
  function renderLevelTable(table, result) {
    const points = new Map(result.levels.map((level) => [level.concurrency, level.points]));
    table.querySelector('tbody')?.remove();
    const body = document.createElement('tbody');
    for (const f of summaryFigures.levelFigures(result)) {
      const row = document.createElement('tr');
      const levelPoints = points.get(f.concurrency);
      const clientBound = levelPoints.filter((p) => p.client_bound).length;
      cell(row, String(f.concurrency), 'num');
      cell(row, f.connected == null ? '—' : `${f.connected}`, f.connected != null && f.connected < f.concurrency ? 'num attention' : 'num');
      cell(row, String(levelPoints.length), 'num');
      const floor = f.floorReasons.length > 0;
      const figure = f.saturation ? format.rate(f.spread ? f.spread.median : f.saturation.received_per_s) : 'none ok';
      const sat = cell(row, floor ? `${floors.FLOOR_PREFIX}${figure}` : figure, floor ? 'num floor' : 'num');
      if (f.saturation) {
        const note = document.createElement('small');
        note.className = 'spread';
        note.textContent = f.spread && f.repetitions > 1
          ? `median of ${f.repetitions}, range ${format.rate(f.spread.min)}–${format.rate(f.spread.max)}`
          : 'single run';
        sat.append(document.createElement('br'), note);
      }
      // Beside the rate, how many messages each frame carried there: a
      // coalesced figure and a one-per-frame one are not like for like.
      const frames = f.saturation ? messagesPerFrame.describe(framesAt(result, f.concurrency)) : null;
      if (frames) {
        const note = Object.assign(document.createElement('small'), {
          className: 'frames', textContent: frames, title: messagesPerFrame.EXPLANATION,
        });
        sat.append(document.createElement('br'), note);
      }
      // A floor, not the server's limit: say why (floors.js has the rule).
      if (floor) {
        const why = document.createElement('small');
        why.className = 'floor-note';
        why.textContent = floors.describeFloor(f.floorReasons);
        sat.append(document.createElement('br'), why);
      }
      // The server's own limit below full CPU, in some or all repetitions: say what was seen.
      if (f.limitNotes.length) {
        const own = document.createElement('small');
        own.className = 'limit-note';
        own.textContent = f.limitNotes.join(', ');
        sat.append(document.createElement('br'), own);
      }
      cell(row, f.saturation ? format.rate(f.saturation.sent_per_s) : '—', 'num');
      const rtt = cell(row, f.saturation ? format.ms(f.saturation.rtt_mean_ms) : '—', 'num');
      // A sessions run's point was judged on every copy: its all-copies and completion p99 beside the own-copy mean.
      const fanout = f.saturation ? fanoutAt(result, f.concurrency) : null;
      if (fanout) rtt.append(document.createElement('br'), Object.assign(document.createElement('small'), { className: 'fanout', textContent: fanout }));
      const cpu = cell(row, f.saturation ? `${pct(f.serverCpuPct)} / ${pct(f.clientCpuPct)}` : '—', 'num');
      if (f.stealPct != null) cpu.append(document.createElement('br'), Object.assign(document.createElement('small'), { textContent: `steal ${pct(f.stealPct)}` }));
      cell(row, f.peakRssBytes == null ? '—' : `${format.bytes(f.rssAtStartBytes)} → ${format.bytes(f.peakRssBytes)}`, 'num');
      cell(row, clientBound ? `${clientBound} point(s)` : 'none', clientBound ? 'attention' : '');
      cell(row, f.endReason);
      body.appendChild(row);
    }
    table.appendChild(body);
    showNotRecorded(table, !messagesPerFrame.runRecords(result));
  }

  /** "all copies p99 X · completion p99 Y" at the saturation point of a level whose copies were all timed; null otherwise. */
  function fanoutAt(result, concurrency) {
    const level = result.levels.find((l) => l.concurrency === concurrency);
    const point = level && summaryFigures.saturationPoint(level);
    if (!point || !point.fanout_ms) return null;
    return `all copies p99 ${format.ms(point.fanout_ms.p99)}` +
      (point.completion_ms ? ` · completion p99 ${format.ms(point.completion_ms.p99)}` : '');
  }

  /** The saturation point's messages_per_frame at level `concurrency`, or undefined. */
  function framesAt(result, concurrency) {
    const level = result.levels.find((l) => l.concurrency === concurrency);
    const point = level && summaryFigures.saturationPoint(level);
    return point ? point.messages_per_frame : undefined;
  }

  // Once under the table, not in every row: a file older than the field has none at all.
  function showNotRecorded(table, notRecorded) {
    const anchor = table.closest('.table-scroll') || table;
    const old = anchor.parentElement.querySelector('.frames-not-recorded');
    if (old) old.remove();
    if (!notRecorded) return;
    const note = Object.assign(document.createElement('p'), {
      className: 'hint frames-not-recorded', textContent: messagesPerFrame.NOT_RECORDED,
    });
    anchor.after(note);
  }

  root.Sockbench.levelTable = { renderLevelTable };
})(self);
