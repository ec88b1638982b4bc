#!/usr/bin/env node
'use strict';
// make charts: saves every chart of a built site (src/js/chart-files.js lists
// them) as PNG and SVG under <site>/charts/. Each chart is drawn by the site's
// own code on chart.html, opened from disk in headless Chromium (Debian's,
// through playwright-core): the PNG is a screenshot of its 1200 × 675 frame at
// device scale 2 (2400 × 1350 pixels, marked 144 dpi), the SVG the same frame
// written out by src/js/dom-svg.js from the recorded canvas calls and the laid
// out text. Then data/runs.js learns that the images exist, so the pages link
// them under each chart.
//
//   node tools/render-charts.js [--site DIR]   (default: site/dist; build it first)
//
// A usage error exits 2; a chart that fails to draw, or no chromium, exits 1
// with one line saying which and why.

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { pathToFileURL } = require('url');
const { chartList } = require('../src/js/chart-files');
const { launchChromium } = require('./chromium');

/** The CSS size of the export frame (chart.html) and the device scale of the PNG. */
const FRAME = { width: 1200, height: 675 };
const PIXEL_RATIO = 2;
const DATA_PREFIX = 'window.SOCKBENCH_DATA = ';

const USAGE = 'usage: node tools/render-charts.js [--site DIR]   (DIR: a site built by tools/build-site.js; default site/dist)';

/** The site data a build wrote into data/runs.js. */
function readSiteData(siteDir) {
  const file = path.join(siteDir, 'data', 'runs.js');
  if (!fs.existsSync(file)) throw new Error(`${file} not found: build the site first (make site)`);
  const line = fs.readFileSync(file, 'utf8').split('\n').find((l) => l.startsWith(DATA_PREFIX));
  if (!line) throw new Error(`${file} holds no site data: rebuild the site (make site)`);
  return JSON.parse(line.slice(DATA_PREFIX.length).replace(/;\s*$/, ''));
}

/**
 * Adds a pHYs chunk (pixels per metre) after IHDR, so image tools read the
 * 2400 × 1350 file as 1200 × 675 at 2× (144 dpi) rather than as a huge image.
 */
function withPixelDensity(png, ratio) {
  const perMetre = Math.round((96 * ratio) / 0.0254);
  const data = Buffer.alloc(9);
  data.writeUInt32BE(perMetre, 0);
  data.writeUInt32BE(perMetre, 4);
  data[8] = 1; // unit: metre
  const type = Buffer.from('pHYs', 'ascii');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  type.copy(chunk, 4);
  data.copy(chunk, 8);
  chunk.writeUInt32BE(zlib.crc32(Buffer.concat([type, data])), 8 + data.length);
  const ihdrEnd = 8 + 8 + 13 + 4; // signature, IHDR length+type, IHDR data, CRC
  return Buffer.concat([png.subarray(0, ihdrEnd), chunk, png.subarray(ihdrEnd)]);
}

/**
 * @param {string} siteDir a built site
 * @param {{log?: (line: string) => void}} [options]
 * @returns {Promise<{id: string, png: string, svg: string}[]>} absolute paths of what was written
 */
async function renderCharts(siteDir, options = {}) {
  const log = options.log || (() => {});
  const data = readSiteData(siteDir);
  const charts = chartList(data);
  const pageUrl = pathToFileURL(path.join(siteDir, 'chart.html')).href;
  fs.mkdirSync(path.join(siteDir, 'charts'), { recursive: true });
  const browser = await launchChromium();
  const written = [];
  try {
    const context = await browser.newContext({ viewport: { width: FRAME.width + 40, height: FRAME.height + 80 },
      deviceScaleFactor: PIXEL_RATIO });
    const page = await context.newPage();
    page.setDefaultTimeout(60000);
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
    for (const chart of charts) {
      problems.length = 0;
      await page.goto(`${pageUrl}?${chart.query}`);
      await page.waitForFunction(() => document.body.dataset.chartReady
        || !document.getElementById('page-notice').hidden);
      const notice = await page.$eval('#page-notice', (n) => (n.hidden ? '' : n.textContent));
      if (notice || problems.length) throw new Error(`chart ${chart.id}: ${notice || problems.join('; ')}`);
      const frame = await page.$('#export-frame');
      const png = withPixelDensity(await frame.screenshot({ type: 'png' }), PIXEL_RATIO);
      const svg = await page.evaluate(() => self.Sockbench.chartPage.svg());
      const pngPath = path.join(siteDir, `${chart.file}.png`);
      const svgPath = path.join(siteDir, `${chart.file}.svg`);
      fs.writeFileSync(pngPath, png);
      fs.writeFileSync(svgPath, svg);
      written.push({ id: chart.id, png: pngPath, svg: svgPath });
      log(`${chart.file}.png .svg`);
    }
  } finally {
    await browser.close();
  }
  // The pages show their image links only once the images exist.
  fs.appendFileSync(path.join(siteDir, 'data', 'runs.js'),
    `window.SOCKBENCH_DATA.charts = ${JSON.stringify(charts.map((c) => ({ id: c.id, file: c.file })))};\n`);
  return written;
}

async function main(argv) {
  let siteDir = path.join(__dirname, '..', 'dist');
  if (argv.length === 2 && argv[0] === '--site' && argv[1]) siteDir = path.resolve(argv[1]);
  else if (argv.length !== 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    const written = await renderCharts(siteDir);
    process.stdout.write(`charts: ${written.length} chart(s) as PNG (${FRAME.width * PIXEL_RATIO} × ${FRAME.height * PIXEL_RATIO}, ` +
      `${FRAME.width} × ${FRAME.height} at ${PIXEL_RATIO}×) and SVG in ${path.join(siteDir, 'charts')}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`render-charts: ${error.message.split('\n')[0]}\n`);
    return 1;
  }
}

if (require.main === module) main(process.argv.slice(2)).then((code) => { process.exitCode = code; });

module.exports = { renderCharts, readSiteData, FRAME, PIXEL_RATIO };
