// The environment block of a run: everything a reader needs to judge or
// reproduce the numbers (machine, runtimes, codec, mode, pinning, method) and
// every warning the client recorded, shown before the charts.
(function (root) {
  'use strict';

  const { format, transports } = root.Sockbench;
  const READY_KEYS_SHOWN_ELSEWHERE = new Set(['server', 'runtime', 'runtime_version', 'codec', 'mode']);

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  function factGroup(title, facts) {
    const group = el('section', 'fact-group');
    group.appendChild(el('h3', null, title));
    const list = el('dl');
    for (const [term, value] of facts) {
      if (value == null || value === '') continue;
      list.append(el('dt', null, term), el('dd', null, String(value)));
    }
    group.appendChild(list);
    return group;
  }

  /** The READY line's other key=value tokens (library versions, options), verbatim. */
  function serverLibraries(ready) {
    return Object.entries(ready)
      .filter(([key]) => !READY_KEYS_SHOWN_ELSEWHERE.has(key))
      .map(([key, value]) => `${key}=${value}`);
  }

  function rampText(p) {
    if (p.ramp === 'geometric') return `geometric ×${p.rate_factor} from ${format.rate(p.start_rate)} msgs/s`;
    return `additive +${p.rate_step} from ${format.rate(p.start_rate)} msgs/s`;
  }

  /** Fills `container` with the run's environment facts and warnings. */
  function renderRunHeader(container, run) {
    const r = run.result;
    const m = r.machine;
    const s = r.server;
    const c = r.client;
    const p = r.parameters;
    container.textContent = '';

    const facts = el('div', 'fact-groups');
    facts.append(
      factGroup('Server', [
        ['implementation', s.peer ? `${s.name} (peer, not our code)` : s.name],
        ['runtime', `${s.runtime} ${s.runtime_version}`],
        ['codec', s.codec ?? 'n/a'],
        ['mode', s.mode ?? 'n/a'],
        // docs/compression.md: absent in files from before COMPRESSION= existed, which ran without it
        ['websocket compression', p.compression ?? 'none'],
      ]),
      factGroup('Machine', [
        ['CPU', m.cpu_model],
        ['cores', m.cores],
        ['memory', format.bytes(m.memory_bytes)],
        ['OS', `${m.os}, kernel ${m.kernel}`],
        ['host', m.hostname],
      ]),
      factGroup('Pinning', [
        ['server CPUs', format.cpuList(r.pinning.server_cpus)],
        ['client CPUs', format.cpuList(r.pinning.client_cpus)],
        ['shared', r.pinning.shared ? 'yes: client and server compete for CPU' : 'no'],
      ]),
      factGroup('Client', [
        ['load generator', `${c.name} ${c.version}`],
        ['JVM', `${c.jvm_version} (${c.jvm_vendor})`],
        ['transport', c.transport],
        // Named only where not plain websocket: every run before v6 was, and says nothing new.
        ['SockJS transports', transports.isPlain(r) ? null : transports.describe(transports.specOf(r))],
        // docs/slow-readers.md: named only in a run that had some (absent = none, every other file)
        ['slow readers', p.slow_clients ? `${p.slow_clients.pct} % of each level's sessions, each reading at most ${p.slow_clients.kib_per_s} KiB/s` : null],
        ['I/O threads', c.io_threads],
      ]),
      factGroup('Method', [
        ['profile', p.profile],
        ['ramp', rampText(p)],
        ['each point', `${p.warmup_s} s warm-up, ${p.step_s} s measured, ${p.settle_s} s settle`],
        ['payload', `${p.payload_bytes} bytes`],
        ['thresholds', `ok < ${p.ok_mean_ms} ms mean; overloaded ≥ ${p.overload_mean_ms} ms mean or a message > ${p.overload_timeout_ms} ms`],
        ['RTT', 'corrected: from scheduled send time (no coordinated omission)'],
      ]),
    );
    if (r.pinning.shared) facts.querySelector('.fact-group:nth-child(3)').classList.add('attention');
    container.appendChild(facts);

    const tokens = serverLibraries(s.ready);
    if (tokens.length > 0) {
      const ready = el('p', 'ready-line');
      ready.appendChild(el('span', null, 'Server READY line: '));
      for (const token of tokens) ready.append(el('code', null, token), ' ');
      container.appendChild(ready);
    }

    if (r.warnings.length > 0) {
      const box = el('div', 'warnings');
      box.appendChild(el('h3', null, `Warnings recorded by the client (${r.warnings.length})`));
      const list = el('ul');
      for (const warning of r.warnings) list.appendChild(el('li', null, warning));
      box.appendChild(list);
      container.appendChild(box);
    }
  }

  /** The environment of a historic run: what the original publication says, and where the data came from. */
  function renderHistoricHeader(container, run) {
    const h = run.result;
    container.textContent = '';
    const facts = el('div', 'fact-groups');
    facts.append(
      factGroup('Server', [
        ['implementation', h.server.sockjs ? h.server.name : `${h.server.name} (not SockJS)`],
        ['runtime', `${h.server.runtime} ${h.server.runtime_version}`],
        ['codec', h.server.codec ?? 'n/a'],
        ['algorithm', h.method.algorithm],
      ]),
      factGroup('Machine (2011)', [
        ['CPU', h.machine.cpu_model],
        ['cores', h.machine.cores],
        ['memory', h.machine.memory],
        ['OS', h.machine.os],
        ['pinning', h.machine.pinning],
      ]),
      factGroup('Method (2011)', [
        ['statistic', `${h.method.statistic} RTT only (no percentiles, CPU or memory published)`],
        ['RTT clock', h.method.rtt_clock],
        ['ramp', h.method.ramp],
        ['missing points', h.method.dropped_points],
        ['level ended', h.method.level_end],
        ['saturation', h.method.saturation_rule],
      ]),
      factGroup('Source', [
        ['publication', h.source.publication],
        ['repository', h.source.repository],
        ['files', h.source.files.map((f) => `${h.source.directory}${f}`).join(', ')],
        ['converted by', h.source.converted_by],
      ]),
    );
    container.appendChild(facts);
  }

  root.Sockbench.runHeader = { renderRunHeader, renderHistoricHeader };
})(self);
