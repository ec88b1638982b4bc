// Number and text formatting shared by every page module. Pure functions;
// loaded as a browser script (window.Sockbench.format) or required by tests.
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).format = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  const MIB = 1024 * 1024;
  const GIB = 1024 * MIB;

  /** Messages per second, compact: 950, 12.3k, 1.25M. null → "—". */
  function rate(value) {
    if (value == null) return '—';
    const abs = Math.abs(value);
    if (abs >= 1e6) return `${trim(value / 1e6, 3)}M`;
    if (abs >= 1e3) return `${trim(value / 1e3, 3)}k`;
    return trim(value, 3);
  }

  /** Milliseconds with sensible precision: 0.42 ms, 12.3 ms, 1,234 ms. */
  function ms(value) {
    if (value == null) return '—';
    if (value >= 1000) return `${Math.round(value).toLocaleString('en-US')} ms`;
    return `${trim(value, 3)} ms`;
  }

  /** Bytes as MiB (GiB above 1 GiB); server RSS and machine memory. */
  function bytes(value) {
    if (value == null) return '—';
    if (value >= GIB) return `${trim(value / GIB, 3)} GiB`;
    return `${trim(value / MIB, 3)} MiB`;
  }

  /** Up to `digits` significant digits, without trailing zeros. */
  function trim(value, digits) {
    if (value === 0) return '0';
    const abs = Math.abs(value);
    const decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(abs)));
    return String(Number(value.toFixed(Math.min(decimals, 6))));
  }

  /** CPU list like taskset prints it: [0,1,2,5] → "0-2,5"; [] → "any". */
  function cpuList(cpus) {
    if (!cpus || cpus.length === 0) return 'any';
    const sorted = [...cpus].sort((a, b) => a - b);
    const ranges = [];
    let start = sorted[0];
    let previous = sorted[0];
    for (const cpu of sorted.slice(1).concat([NaN])) {
      if (cpu === previous + 1) { previous = cpu; continue; }
      ranges.push(start === previous ? `${start}` : `${start}-${previous}`);
      start = previous = cpu;
    }
    return ranges.join(',');
  }

  /** A run's length: "45 s" under two minutes, else "12 min" or "1 h 05 min". */
  function duration(seconds) {
    if (seconds == null) return '—';
    if (seconds < 120) return `${Math.round(seconds)} s`;
    const minutes = Math.round(seconds / 60);
    if (minutes < 60) return `${minutes} min`;
    return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
  }

  /** ISO-8601 UTC → "2026-11-22 12:30 UTC". */
  function utcMinute(iso) {
    const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso || '');
    return match ? `${match[1]} ${match[2]} UTC` : String(iso);
  }

  /**
   * How a run was scaled out (result `server.workers` / `server.broker`, the
   * same setups bench/results_io.py scale_out_tag names): null for one
   * process, else "2 workers + broker", "1 worker + broker" or, behind a
   * proxy (`server.proxy`), "2 workers + broker behind haproxy".
   */
  function scaleOut(server) {
    const workers = server.workers || 1;
    if (workers === 1 && !server.broker) return null;
    const proxy = server.proxy ? ` behind ${server.proxy.name}` : '';
    return `${workers} worker${workers === 1 ? '' : 's'} + broker${proxy}`;
  }

  return { rate, ms, bytes, trim, cpuList, duration, utcMinute, scaleOut };
});
