'use strict';
// The <script> tags of every page, from one table, so the pages cannot
// disagree on the order their shared modules load in. A page names the spot
// with SCRIPTS_PLACEHOLDER; the build puts there jQuery and flot (in
// vendor-files.js's order), the run data, then the page modules it loads.
//
// Each page module registers itself on window.Sockbench and picks up the
// modules it uses as it loads, so a module must come after those it uses:
// PAGE_MODULES is in that order, and each page loads its modules in it.

const { VENDOR_SCRIPTS } = require('./vendor-files');

const SCRIPTS_PLACEHOLDER = '<!-- sockbench:scripts -->';

// The pages under src/.
const EVERY_PAGE = ['index.html', 'run.html', 'chart.html', 'sessions.html'];

// [file under src/js/, the pages that load it], in load order; each page's entry point last.
const PAGE_MODULES = [
  ['format.js', EVERY_PAGE],
  ['palette.js', EVERY_PAGE],
  // A run's SockJS transports: named wherever a run's setup is (the verdict's names too).
  ['transports.js', EVERY_PAGE],
  ['algorithm.js', EVERY_PAGE],
  ['historic.js', EVERY_PAGE],
  ['series.js', EVERY_PAGE],
  ['floors.js', EVERY_PAGE],
  ['summary-figures.js', EVERY_PAGE],
  // Which runs are the sessions profile's: the summary and the chart images leave them to sessions.html.
  ['sessions-figures.js', EVERY_PAGE],
  ['messages-per-frame.js', ['run.html', 'chart.html']],
  ['limit-share.js', ['index.html']],
  ['verdict.js', ['index.html', 'chart.html']],
  ['axis-scale.js', EVERY_PAGE],
  ['page-shell.js', EVERY_PAGE],
  ['site-data.js', EVERY_PAGE],
  ['series-legend.js', EVERY_PAGE],
  // The summary's and the Sessions charts' one way to draw a figure: band, median line, floors, markers.
  ['figure-series.js', ['index.html', 'chart.html', 'sessions.html']],
  ['no-figure-symbol.js', ['chart.html', 'sessions.html']],
  ['threshold-marker.js', ['run.html', 'chart.html']],
  ['latency-chart.js', ['run.html', 'chart.html']],
  ['run-selection.js', ['index.html']],
  ['quick-picks.js', ['index.html']],
  ['transport-filter.js', ['index.html']],
  ['summary-charts.js', ['index.html', 'chart.html']],
  ['summary-table.js', ['index.html']],
  ['sessions-charts.js', ['sessions.html', 'chart.html']],
  ['sessions-table.js', ['sessions.html']],
  ['run-header.js', ['run.html']],
  ['level-table.js', ['run.html']],
  // A mix of transports: each transport's RTT per level and its share of the points.
  ['transport-charts.js', ['run.html']],
  ['transport-table.js', ['run.html']],
  ['chart-files.js', EVERY_PAGE],
  ['verdict-panel.js', ['index.html']],
  ['errors-panel.js', ['index.html']],
  ['canvas-svg.js', ['chart.html']],
  ['dom-svg.js', ['chart.html']],
  ['index-page.js', ['index.html']],
  ['run-page.js', ['run.html']],
  ['chart-page.js', ['chart.html']],
  ['sessions-page.js', ['sessions.html']],
];

/** The scripts `page` (a file name under src/, e.g. "run.html") loads, in order, as paths in dist/. */
function pageScripts(page) {
  if (!EVERY_PAGE.includes(page)) throw new Error(`${page} is not a page of tools/page-scripts.js`);
  return [
    ...VENDOR_SCRIPTS.map(([, target]) => `vendor/${target}`),
    // Every run's data as a script: file:// forbids fetch().
    'data/runs.js',
    ...PAGE_MODULES.filter(([, pages]) => pages.includes(page)).map(([file]) => `js/${file}`),
  ];
}

/** `html` with its SCRIPTS_PLACEHOLDER replaced by the <script> tags of `page`. */
function withPageScripts(page, html) {
  if (!html.includes(SCRIPTS_PLACEHOLDER)) throw new Error(`${page} lacks ${SCRIPTS_PLACEHOLDER}`);
  const tags = pageScripts(page).map((src) => `<script src="${src}"></script>`).join('\n  ');
  return html.replace(SCRIPTS_PLACEHOLDER, tags);
}

module.exports = { EVERY_PAGE, PAGE_MODULES, SCRIPTS_PLACEHOLDER, pageScripts, withPageScripts };
