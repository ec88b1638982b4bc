// Which SockJS transports a run's sessions used (`parameters.transports`,
// schema v6; results/README.md "Transports"), and how the pages name them.
// A run's transports are part of what it measured: an xhr-polling run is a
// different setup from a websocket run of the same server, so every page that
// names a run's setup asks this module, and the summary never overlays two
// transports unless the reader asks. The one module that reads the field and
// `points[].transports`; pure (tested in node, also required by the build for
// the runs' labels).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).transports = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  // The schema's names, in the order results/README.md lists them; a
  // transport's colour and marker follow this order on every chart, so one
  // transport looks the same at every level and in every run.
  const NAMES = ['websocket', 'xhr-streaming', 'eventsource', 'xhr-polling'];

  // What a file without the field means: v5 and older files put every session on a websocket.
  const PLAIN = 'websocket';

  // The summary's filter value that shows every transport at once (not like for like).
  const ALL = 'all';

  /** The canonical spec a result (or a 2011 run's result shape) was measured with. */
  function specOf(result) {
    const spec = result && result.parameters && result.parameters.transports;
    return spec || PLAIN;
  }

  /**
   * "websocket:16,xhr-streaming:2" → [{transport, weight}], a lone name
   * weighing 1. The file holds the canonical form (weights already divided by
   * their common divisor), so nothing is reduced here.
   */
  function parse(spec) {
    return String(spec || PLAIN).split(',').map((entry) => {
      const [transport, weight] = entry.split(':');
      return { transport, weight: weight == null ? 1 : Number(weight) };
    });
  }

  /** Each transport's share of the sessions, percent: the weights over their sum. */
  function shares(spec) {
    const entries = parse(spec);
    const total = entries.reduce((sum, e) => sum + e.weight, 0);
    return entries.map((e) => ({ ...e, pct: total > 0 ? (100 * e.weight) / total : 0 }));
  }

  // Three significant digits at most (80, 10, 5, 33.3): a share is a ratio of
  // small integers, so more digits would only be noise to read past.
  const pctText = (pct) => `${Number(pct.toPrecision(3))} %`;

  /**
   * How a page names a spec: "websocket", "xhr-streaming", or for a mix
   * "mix websocket 80 % · xhr-streaming 10 % · eventsource 5 % · xhr-polling 5 %".
   */
  function describe(spec) {
    const entries = shares(spec);
    if (entries.length === 1) return entries[0].transport;
    return `mix ${entries.map((e) => `${e.transport} ${pctText(e.pct)}`).join(' · ')}`;
  }

  /** Every session on a websocket: the setup every run before v6 had, named nowhere. */
  const isPlain = (result) => specOf(result) === PLAIN;

  /** More than one transport: the points then carry `transports[]`. */
  const isMix = (result) => parse(specOf(result)).length > 1;

  /**
   * A run's label with its transports named, for every legend, title and
   * table: the file's label as it is for plain websocket; otherwise the
   * client's " · <spec>" suffix (client-java appends the raw spec) replaced by
   * the readable name, or the name appended where the label lacks it (--label).
   */
  function labelWith(label, result) {
    if (isPlain(result)) return label;
    const spec = specOf(result);
    const suffix = ` · ${spec}`;
    const base = label.endsWith(suffix) ? label.slice(0, -suffix.length) : label;
    return `${base} · ${describe(spec)}`;
  }

  /** The colour/marker index of a transport: its place in NAMES. */
  const indexOf = (transport) => Math.max(0, NAMES.indexOf(transport));

  /**
   * The set's runs grouped by spec, plain websocket first, then in the runs'
   * order: [{key: spec, text, ids}]. `runs` are site run entries; a 2011 run
   * has no field and reads as websocket, as every file before v6 does.
   */
  function groupsOf(runs) {
    const groups = new Map();
    for (const run of runs) {
      const key = specOf(run.result);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(run.run_id);
    }
    const keys = [...groups.keys()].sort((a, b) => (b === PLAIN) - (a === PLAIN));
    return keys.map((key) => ({ key, text: describe(key), ids: groups.get(key) }));
  }

  /**
   * The filter the summary applies: the one the URL names when the set has
   * it (or ALL), else like for like: plain websocket when the set has some,
   * else its first transport. One transport only: no filter (ALL), nothing to choose.
   */
  function chosenFilter(groups, named) {
    if (groups.length < 2) return ALL;
    if (named === ALL || groups.some((g) => g.key === named)) return named;
    return groups[0].key;
  }

  /** The filter the summary opens on for these (non-2011) runs: `chosenFilter` with nothing named. */
  const defaultFilter = (runs) => chosenFilter(groupsOf(runs), null);

  /** The runs the filter keeps, in their order. */
  function filterRuns(runs, filter) {
    return filter === ALL ? runs : runs.filter((run) => specOf(run.result) === filter);
  }

  /**
   * A level's RTT per transport against the point's send rate (every session
   * receives every broadcast, so the rate all transports carried):
   * [{transport, data: [[sent_per_s, ms]], sources: [{point, entry}]}] in
   * NAMES order, points without samples of that transport left out.
   */
  function levelSeries(level, statKey) {
    const byTransport = new Map();
    for (const point of level.points) {
      for (const entry of point.transports || []) {
        if (!byTransport.has(entry.transport)) byTransport.set(entry.transport, { transport: entry.transport, data: [], sources: [] });
        const value = entry.rtt_ms && entry.rtt_ms[statKey];
        if (value == null) continue;
        const line = byTransport.get(entry.transport);
        line.data.push([point.sent_per_s, value]);
        line.sources.push({ point, entry });
      }
    }
    return [...byTransport.values()].sort((a, b) => indexOf(a.transport) - indexOf(b.transport));
  }

  const STATE_RANK = { ok: 0, saturated: 1, overloaded: 2 };

  /**
   * The points of a level whose per-transport rows a table shows: the
   * saturation point (`saturationPoint`, summary-figures.js's choice) and the
   * first point measured that was not ok, where the transports say which of
   * them ended the climb; with neither (every point ok, none the figure),
   * the last point measured: [{role: 'saturation'|'ended'|'last', point}].
   */
  function tablePoints(level, saturationPoint) {
    const picked = [];
    const sat = saturationPoint && saturationPoint.transports ? saturationPoint : null;
    if (sat) picked.push({ role: 'saturation', point: sat });
    const ordered = level.points.filter((p) => Array.isArray(p.transports)).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    const ended = ordered.find((p) => (STATE_RANK[p.state] ?? 0) > 0);
    if (ended && ended !== sat) picked.push({ role: 'ended', point: ended });
    if (!picked.length && ordered.length) picked.push({ role: 'last', point: ordered[ordered.length - 1] });
    return picked;
  }

  /** Whether any point of the result carries per-transport figures. */
  const hasBreakdown = (result) => result.levels.some((level) => level.points.some((p) => Array.isArray(p.transports)));

  return {
    NAMES, PLAIN, ALL, specOf, parse, shares, pctText, describe, isPlain, isMix, labelWith, indexOf,
    groupsOf, chosenFilter, defaultFilter, filterRuns, levelSeries, tablePoints, hasBreakdown,
  };
});
