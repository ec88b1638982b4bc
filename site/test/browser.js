'use strict';
// Launches Debian's chromium through playwright-core (no browser downloads)
// and records everything a page logs as an error, so tests can require none.

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The chromium on PATH (or $CHROMIUM), as `command -v chromium` would find it. */
function findChromium() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const candidate = path.join(dir, 'chromium');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  throw new Error('chromium not found on PATH: run "make setup-site" (installs Debian\'s chromium)');
}

function launchChromium() {
  return chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, timeout: 120000 });
}

/**
 * A new page whose console errors, uncaught exceptions and failed requests
 * are collected in `page.problems`.
 */
async function openPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(60000);
  page.problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => page.problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => page.problems.push(`request failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) page.problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return page;
}

module.exports = { launchChromium, openPage };
