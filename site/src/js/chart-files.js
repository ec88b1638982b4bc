// Every chart the site publishes as an image (make charts): the summary's two
// charts once per result set and algorithm group (images never mix sets or
// algorithms; the default set's keep their plain names), the Sessions page's
// three charts, and each run's sent and received charts. One list for the renderer (tools/render-charts.js),
// the export page (chart.html) and the links under the charts, so a link and
// its file cannot drift apart. Pure (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) {
    module.exports = factory(require('./algorithm'), require('./sessions-figures'), require('./transports'));
  } else {
    const S = root.Sockbench = root.Sockbench || {};
    S.chartFiles = factory(S.algorithm, S.sessionsFigures, S.transports);
  }
})(typeof self !== 'undefined' ? self : this, function (algorithm, sessionsFigures, transports) {
  'use strict';

  /** Where the images go, relative to the site's root. */
  const CHARTS_DIR = 'charts';

  /** The Sessions page's charts (sessions-charts.js), in the page's order. */
  const SESSIONS_CHARTS = ['memory', 'saturation', 'p99-at-5'];

  /** Run ids are free text: keep file names to letters, digits, dot, dash, underscore. */
  const fileSafe = (text) => text.replace(/[^A-Za-z0-9._-]+/g, '_');

  const hasRss = (run) => run.kind !== 'historic'
    && run.result.levels.some((level) => level.points.some((p) => p.server_rss_bytes != null));

  /**
   * @param {{runs: object[], historic?: object[], sets?: object[], default_set?: string}} data the site data (data/runs.js)
   * @returns {{id: string, kind: 'summary'|'sessions'|'run', chart: string, group?: string, set?: string|null, runId?: string,
   *            query: string, file: string}[]}
   *   set: the result set a summary chart draws (null for data without sets);
   *   the 2011 runs are drawn with the default set only
   *   chart: 'saturation'|'rss' (summary), 'memory'|'saturation'|'p99-at-5'
   *   (sessions: every sessions run, as sessions.html draws them) or 'sent'|'received' (run); query:
   *   chart.html's query string; file: the image path without extension
   *   (add .png or .svg), relative to the site root
   */
  function chartList(data) {
    const allRuns = [...data.runs, ...(data.historic || [])];
    const out = [];
    const sets = Array.isArray(data.sets) && data.sets.length ? data.sets.map((set) => set.name) : [null];
    for (const set of sets) {
      const plain = set === null || set === data.default_set;
      // The summary leaves sessions runs to sessions.html (a fan-out saturation is not a throughput figure), and so do its images.
      const today = (set === null ? data.runs : data.runs.filter((run) => run.set === set)).filter((run) => !sessionsFigures.isSessionsRun(run));
      // What the summary opens on: one transport (websocket where the set has it), so an image never mixes transports either.
      const setRuns = transports.filterRuns([...today, ...(plain ? data.historic || [] : [])], transports.defaultFilter(today));
      for (const { group, runs } of algorithm.runsByGroup(setRuns)) {
        for (const chart of ['saturation', 'rss']) {
          if (chart === 'rss' && !runs.some(hasRss)) continue;
          const id = `summary-${chart}-${group.key}${plain ? '' : `-${fileSafe(set)}`}`;
          const query = `chart=${chart}&group=${encodeURIComponent(group.key)}${plain ? '' : `&set=${encodeURIComponent(set)}`}`;
          out.push({ id, kind: 'summary', chart, group: group.key, set, query, file: `${CHARTS_DIR}/${id}` });
        }
      }
    }
    // The Sessions page's three charts, over every sessions run as the page draws them; a chart no run has anything for is left out.
    const sessionsRuns = data.runs.filter(sessionsFigures.isSessionsRun);
    for (const chart of SESSIONS_CHARTS) {
      const drawn = sessionsRuns.some((run) => {
        const s = sessionsFigures.chartSeries(run.result, chart);
        return s.data.length > 0 || s.missing.length > 0;
      });
      if (!drawn) continue;
      out.push({ id: `sessions-${chart}`, kind: 'sessions', chart, query: `chart=sessions-${chart}`, file: `${CHARTS_DIR}/sessions-${chart}` });
    }
    for (const run of allRuns) {
      for (const chart of ['sent', 'received']) {
        out.push({ id: `run-${run.run_id}-${chart}`, kind: 'run', chart, runId: run.run_id,
          query: `chart=${chart}&run=${encodeURIComponent(run.run_id)}`, file: `${CHARTS_DIR}/run-${fileSafe(run.run_id)}-${chart}` });
      }
    }
    return out;
  }

  /**
   * "Image: PNG · SVG" links for the given charts, as a paragraph to put under a
   * chart; null when the build has no images (data.charts unset: built without
   * make charts / make site's image step).
   * @param {Document} doc
   * @param {object} data the site data
   * @param {{file: string, caption?: string}[]} charts
   */
  function imageLinks(doc, data, charts) {
    if (!data.charts || charts.length === 0) return null;
    const p = doc.createElement('p');
    p.className = 'chart-images hint';
    p.append(charts.length === 1 ? 'Image: ' : 'Images: ');
    charts.forEach((chart, i) => {
      if (i > 0) p.append(' · ');
      if (chart.caption) p.append(`${chart.caption} `);
      ['png', 'svg'].forEach((ext, j) => {
        if (j > 0) p.append(' ');
        const a = doc.createElement('a');
        a.href = `${chart.file}.${ext}`;
        a.textContent = ext.toUpperCase();
        a.dataset.chartImage = ext;
        p.append(a);
      });
    });
    return p;
  }

  return { CHARTS_DIR, SESSIONS_CHARTS, chartList, imageLinks, fileSafe };
});
