#!/usr/bin/env node
'use strict';
// Screenshots of the built site for reviews and release notes: the summary
// page and one run page, at a desktop (1400 px) and a phone (420 px) width.
// Usage: node test/screenshot-pages.js --results DIR --out DIR [--run RUN_ID]
// Builds the site from DIR with the real build CLI, serves it on 127.0.0.1,
// and writes <out>/{summary,run}-{1400,420}.png. Not a test: it asserts
// nothing beyond "the page drew a chart and logged no errors".

const fs = require('node:fs');
const path = require('node:path');
const { startSite } = require('./harness');
const { openPage } = require('./browser');

const WIDTHS = [1400, 420];

function parseArgs(argv) {
  const options = { results: null, out: null, run: null };
  for (let i = 0; i < argv.length; i += 2) {
    const key = { '--results': 'results', '--out': 'out', '--run': 'run' }[argv[i]];
    if (!key || argv[i + 1] === undefined) {
      process.stderr.write('usage: node test/screenshot-pages.js --results DIR --out DIR [--run RUN_ID]\n');
      process.exit(2);
    }
    options[key] = path.resolve(argv[i + 1]);
    if (key === 'run') options.run = argv[i + 1];
  }
  if (!options.results || !options.out) {
    process.stderr.write('usage: node test/screenshot-pages.js --results DIR --out DIR [--run RUN_ID]\n');
    process.exit(2);
  }
  return options;
}

async function shoot(site, url, file, width) {
  const page = await openPage(site.browser);
  try {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(url);
    await page.waitForSelector('canvas.flot-base');
    await page.screenshot({ path: file, fullPage: true });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    process.stdout.write(`${file} (page ${scrollWidth} px wide)${page.problems.length ? ` problems: ${page.problems.join('; ')}` : ''}\n`);
  } finally {
    await page.close();
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  fs.mkdirSync(options.out, { recursive: true });
  const site = await startSite(`screenshots-${path.basename(options.out)}`, options.results);
  try {
    const data = JSON.parse(fs.readFileSync(path.join(site.dist, 'manifest.json'), 'utf8'));
    const runId = options.run || (data.runs[0] && data.runs[0].run_id);
    for (const width of WIDTHS) {
      await shoot(site, `${site.origin}/index.html`, path.join(options.out, `summary-${width}.png`), width);
      if (runId) {
        await shoot(site, `${site.origin}/run.html?run=${encodeURIComponent(runId)}`,
          path.join(options.out, `run-${width}.png`), width);
      }
    }
  } finally {
    await site.close();
  }
}

main().catch((err) => { process.stderr.write(`${err.stack}\n`); process.exit(1); });
