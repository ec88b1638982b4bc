// The Sessions page's table of one run: per level, the processes that held
// it, the connect phase (time, rate achieved, failures by reason), the idle
// hold (server CPU, server and client memory per session, heartbeats), the
// fan-out saturation with its all-copies and completion p99, and every
// copy's p99 at 5 msgs/s. A figure repeated over several repetitions says
// "median of N, range a–b", one measured once "single run".
(function (root) {
  'use strict';

  const { format, sessionsFigures, summaryFigures, floors, algorithm, siteData } = root.Sockbench;

  const HEADERS = [
    ['sessions', 'connected of requested', true],
    ['processes', 'server workers / client agents', false],
    ['connect', 'time · achieved (paced) sessions/s', true],
    ['connect failures', 'by reason', false],
    ['idle server CPU', '% of one core, over the hold', true],
    ['memory per session', 'server / client, KB', true],
    ['heartbeats', 'in the hold · connections lost', true],
    ['fan-out saturation', 'copies/s · all-copies p99 · completion p99', true],
    [`p99 at ${sessionsFigures.FIXED_RATE} msgs/s`, 'every copy', true],
    ['end', 'why the level ended', false],
  ];

  const pct = (v) => (v == null ? '—' : `${format.trim(v, 3)} %`);
  const kb = (v) => (v == null ? '—' : `${format.trim(v, 3)} KB`);
  const perS = (v) => (v == null ? '—' : `${format.rate(v)}/s`);

  function cell(row, className) {
    const td = document.createElement('td');
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  /** Text lines into a cell: the first plain, the rest small, each on its own line. */
  function fill(td, first, ...notes) {
    td.append(first);
    for (const note of notes.filter(Boolean)) {
      const small = document.createElement('small');
      if (typeof note === 'string') small.textContent = note;
      else Object.assign(small, note);
      td.append(document.createElement('br'), small);
    }
    return td;
  }

  /** The saturation point's completion p99 (the point the fan-out figure was measured at). */
  function completionP99(level) {
    const point = summaryFigures.saturationPoint(level);
    return point && point.completion_ms ? point.completion_ms.p99 : null;
  }

  function levelRow(result, f, mode) {
    const level = result.levels.find((l) => l.concurrency === f.concurrency);
    const row = document.createElement('tr');
    row.dataset.level = String(f.concurrency);
    fill(cell(row, f.connected < f.concurrency ? 'num attention' : 'num'), `${f.connected} of ${f.concurrency}`);
    fill(cell(row, f.workers > 1 || f.agents > 1 ? 'processes several' : 'processes'), sessionsFigures.processesText(f));
    const connect = f.connect || {};
    fill(cell(row, 'num'), f.connectS == null ? '—' : `${format.trim(f.connectS, 3)} s`,
      `${perS(connect.achieved_per_s)} (${connect.rate_per_s == null ? 'unpaced' : `paced ${perS(connect.rate_per_s)}`})`);
    const failures = sessionsFigures.failuresText(f.connect);
    fill(cell(row, failures && failures !== 'none' ? 'failures attention' : 'failures'), failures == null ? 'not recorded' : failures);
    const idle = f.idle || {};
    fill(cell(row, 'num'), pct(idle.server_cpu_pct), idle.hold_s == null ? null : `over ${format.trim(idle.hold_s, 3)} s`);
    fill(cell(row, 'num memory'), `${kb(f.serverKbPerSession.value)} / ${kb(f.clientKbPerSession.value)} (${mode})`,
      sessionsFigures.spreadText(f.serverKbPerSession, kb));
    fill(cell(row, 'num'), idle.heartbeats == null ? '—' : String(idle.heartbeats),
      idle.connections_lost == null ? null : `${idle.connections_lost} lost`);

    const floor = f.floorReasons.length > 0;
    const sat = cell(row, floor ? 'num saturation floor' : 'num saturation');
    const absent = sessionsFigures.absentText(f.saturation, 'no ok point');
    if (f.saturation.value == null) {
      fill(sat, 'none ok', absent);
    } else {
      const record = f.saturation.record || {};
      fill(sat, `${floor ? floors.FLOOR_PREFIX : ''}${format.rate(f.saturation.value)} copies/s (${mode})`,
        `p99 ${format.ms(record.p99_ms)} · completion p99 ${format.ms(completionP99(level))}`,
        sessionsFigures.spreadText(f.saturation, format.rate),
        absent,
        floor ? { className: 'floor-note', textContent: floors.describeFloor(f.floorReasons) } : null,
        f.limitNotes.length ? { className: 'limit-note', textContent: f.limitNotes.join(', ') } : null);
    }
    const p99 = f.p99AtFixedRate;
    fill(cell(row, p99.clientBound ? 'num p99-at-5 attention' : 'num p99-at-5'),
      p99.value == null ? '—' : `${format.ms(p99.value)} (${mode})`,
      p99.value == null ? sessionsFigures.noPointAtFixedRateText(f, format.rate) : sessionsFigures.spreadText(p99, format.ms),
      sessionsFigures.absentText(p99, `no point at ${sessionsFigures.FIXED_RATE} msgs/s`),
      p99.clientBound ? `client-bound point (${p99.point.client_bound_reasons.join(', ')})` : null);
    fill(cell(row), f.endReason);
    return row;
  }

  /**
   * @param {HTMLElement} container gets one captioned table for the run
   * @param {object} run a site run entry of the sessions profile
   * @param {string} label its legend label
   */
  function renderSessionsTable(container, run, label) {
    const result = run.result;
    const mode = algorithm.modeText(run);
    const section = document.createElement('section');
    section.className = 'sessions-run';
    section.dataset.runId = run.run_id;
    const title = document.createElement('h3');
    const link = Object.assign(document.createElement('a'), { href: siteData.runPageHref(run.run_id), textContent: label });
    title.append(link, ` — mode ${mode}`);
    const meta = Object.assign(document.createElement('p'), {
      className: 'hint',
      textContent: `${format.utcMinute(result.started_at)} · ${result.machine.cpu_model}, host ${result.machine.hostname} · ` +
        `idle hold ${result.parameters.idle_hold_s ?? 0} s · connect ${result.parameters.connect_rate_per_s ? `paced ${result.parameters.connect_rate_per_s}/s` : 'unpaced'} · ` +
        `verdict ${result.parameters.verdict || 'own_mean'}` +
        (sessionsFigures.churnPct(result) > 0
          ? ` · churn ${format.trim(sessionsFigures.churnPct(result), 3)} % of each level's sessions closing and reconnecting every second during the broadcast (the figures are the other sessions')`
          : '') + '. ',
    });
    meta.appendChild(Object.assign(document.createElement('a'), { href: run.raw_href, textContent: 'raw JSON' }));
    const scroll = Object.assign(document.createElement('div'), { className: 'table-scroll' });
    const table = Object.assign(document.createElement('table'), { className: 'data-table sessions-table' });
    const head = table.createTHead().insertRow();
    for (const [name, unit, numeric] of HEADERS) {
      const th = document.createElement('th');
      if (numeric) th.className = 'num';
      th.append(name, document.createElement('br'), Object.assign(document.createElement('small'), { textContent: unit }));
      head.appendChild(th);
    }
    const body = document.createElement('tbody');
    for (const f of sessionsFigures.levelFigures(result)) body.appendChild(levelRow(result, f, mode));
    table.appendChild(body);
    scroll.appendChild(table);
    section.append(title, meta, scroll);
    container.appendChild(section);
  }

  root.Sockbench.sessionsTable = { renderSessionsTable };
})(self);
