'use strict';
// make charts on the fixture site (real result files plus the committed 2011
// sets): every chart of the site saved as a PNG and an SVG of publishable
// size, the SVG real vector output with its axis labels as text, and each
// image linked under its chart on the pages. The images are made by the same
// command `make charts` runs (tools/render-charts.js on a built site).

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { SLOW, startSite, resultsDirWithHistoric } = require('./harness');
const { FIXTURES_DIR, realRuns } = require('./fixtures');
const { openPage, usePage } = require('./browser');
const { chartList } = require('../src/js/chart-files');
const { readSiteData } = require('../tools/render-charts');

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// 1200 × 675 CSS pixels at device scale 2.
const PNG_SIZE = { width: 2400, height: 1350 };
const SVG_SIZE = { width: 1200, height: 675 };

const AXIS_LABELS = {
  saturation: ['Concurrent connections (log scale)', 'Saturation throughput (received msgs/s), log scale'],
  rss: ['Concurrent connections (log scale)', 'Server RSS (MiB)'],
  sent: ['Messages sent per second (msgs/s)', 'Mean round-trip time (ms)'],
  received: ['Messages received per second (msgs/s)', 'Mean round-trip time (ms)'],
};

let site;
let charts;
let render;
before(async () => {
  site = await startSite('chart-images', resultsDirWithHistoric('chart-images', FIXTURES_DIR));
  render = spawnSync(process.execPath, [path.join(__dirname, '..', 'tools', 'render-charts.js'), '--site', site.dist],
    { encoding: 'utf8', timeout: 300000 });
  charts = chartList(readSiteData(site.dist));
}, { timeout: 420000 });
after(async () => { if (site) await site.close(); });

/** PNG chunks by type: [{type, data}] (the IHDR gives the size). */
function pngChunks(bytes) {
  const chunks = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    chunks.push({ type: bytes.toString('ascii', at + 4, at + 8), data: bytes.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

describe('make charts on the fixture site', () => {
  test('the renderer succeeds and lists every chart: the summary per algorithm group, each run sent and received', () => {
    assert.equal(render.status, 0, `render-charts failed:\n${render.stdout}\n${render.stderr}`);
    assert.match(render.stdout, new RegExp(`^charts: ${charts.length} chart\\(s\\)`));
    const data = readSiteData(site.dist);
    for (const run of [...data.runs, ...data.historic]) {
      for (const axis of ['sent', 'received']) {
        assert.ok(charts.some((c) => c.kind === 'run' && c.runId === run.run_id && c.chart === axis), `${run.run_id} ${axis}`);
      }
    }
    for (const group of ['per-message', 'coalesced', 'historic-2011']) {
      assert.ok(charts.some((c) => c.kind === 'summary' && c.group === group && c.chart === 'saturation'), group);
    }
    assert.equal(realRuns.length + data.historic.length, data.runs.length + data.historic.length);
  });

  test('every chart has a real PNG: signature, IHDR 2400 × 1350, 144 dpi, drawn content', () => {
    for (const chart of charts) {
      const file = path.join(site.dist, `${chart.file}.png`);
      const bytes = fs.readFileSync(file);
      assert.deepEqual(bytes.subarray(0, 8), PNG_SIGNATURE, file);
      const chunks = pngChunks(bytes);
      assert.equal(chunks[0].type, 'IHDR', file);
      assert.deepEqual({ width: chunks[0].data.readUInt32BE(0), height: chunks[0].data.readUInt32BE(4) }, PNG_SIZE, file);
      const phys = chunks.find((c) => c.type === 'pHYs');
      assert.ok(phys, `${file}: no pixel density`);
      assert.equal(phys.data.readUInt32BE(0), Math.round(192 / 0.0254), `${file}: 2 × 96 dpi`);
      assert.equal(chunks[chunks.length - 1].type, 'IEND', file);
      // A blank 2400 × 1350 PNG compresses to a few kB; a chart with text and lines is far larger.
      assert.ok(bytes.length > 60000, `${file}: only ${bytes.length} bytes`);
    }
  });

  test('every chart has an SVG that parses, is 1200 × 675, draws paths and has title, axis labels, footer as <text>', SLOW, async () => {
    const data = readSiteData(site.dist);
    const page = await openPage(site.browser);
    try {
      await page.goto(`${site.origin}/index.html`);
      for (const chart of charts) {
        const file = path.join(site.dist, `${chart.file}.svg`);
        const svg = fs.readFileSync(file, 'utf8');
        const parsed = await page.evaluate((text) => {
          const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
          const root = doc.documentElement;
          return {
            error: doc.getElementsByTagName('parsererror').length > 0,
            name: root.nodeName,
            width: Number(root.getAttribute('width')),
            height: Number(root.getAttribute('height')),
            texts: [...doc.getElementsByTagName('text')].map((t) => t.textContent),
            paths: doc.getElementsByTagName('path').length,
            images: doc.getElementsByTagName('image').length,
          };
        }, svg);
        assert.equal(parsed.error, false, `${file} does not parse`);
        assert.equal(parsed.name, 'svg');
        assert.deepEqual({ width: parsed.width, height: parsed.height }, SVG_SIZE, file);
        assert.equal(parsed.images, 0, `${file}: vector only, no embedded bitmap`);
        assert.ok(parsed.paths >= 10, `${file}: ${parsed.paths} paths`);
        for (const label of AXIS_LABELS[chart.chart]) {
          assert.ok(parsed.texts.includes(label), `${file}: axis label "${label}" not a <text>: ${parsed.texts.slice(0, 12)}`);
        }
        const all = parsed.texts.join(' ');
        if (chart.kind === 'run') {
          const run = [...data.runs, ...data.historic].find((r) => r.run_id === chart.runId);
          assert.ok(all.includes(run.label), `${file}: title names the run`);
          const day = run.kind === 'historic' ? run.result.published_at : run.result.started_at.slice(0, 10);
          assert.ok(all.includes(day), `${file}: footer gives the run's date ${day}`);
          assert.ok(all.includes(run.result.machine.cpu_model), `${file}: footer names the machine`);
        } else {
          assert.match(all, /against concurrency/, `${file}: title`);
        }
      }
    } finally {
      await page.close();
    }
  });

  test('floors and spread are drawn in the SVG as on the page: dashed lines, crosses, translucent bands', () => {
    const svg = fs.readFileSync(path.join(site.dist, 'charts', 'summary-saturation-per-message.svg'), 'utf8');
    assert.match(svg, /stroke-dasharray="/, 'dashed floor segments');
    assert.match(svg, /fill-opacity="0\.2"/, 'min–max band');
  });

  test('each image is linked under its chart, and the links resolve', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/index.html`);
      const summaryLinks = await page.$$eval('#legend-saturation + .chart-images a', (as) => as.map((a) => a.getAttribute('href')));
      assert.deepEqual(summaryLinks, charts.filter((c) => c.kind === 'summary' && c.chart === 'saturation')
        .flatMap((c) => [`${c.file}.png`, `${c.file}.svg`]));
      const run = readSiteData(site.dist).runs[0];
      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(run.run_id)}`);
      await page.waitForSelector('#chart-sent canvas');
      for (const axis of ['sent', 'received']) {
        const hrefs = await page.$$eval(`#legend-${axis} + .chart-images a`, (as) => as.map((a) => a.getAttribute('href')));
        const chart = charts.find((c) => c.kind === 'run' && c.runId === run.run_id && c.chart === axis);
        assert.deepEqual(hrefs, [`${chart.file}.png`, `${chart.file}.svg`]);
        for (const href of hrefs) {
          const response = await page.request.get(`${site.origin}/${href}`);
          assert.equal(response.status(), 200, href);
        }
      }
    });
  });
});
