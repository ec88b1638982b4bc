'use strict';
// Launches Debian's chromium through playwright-core (no browser downloads)
// and records everything a page logs as an error, so tests can require none.

const assert = require('node:assert/strict');
// Launching lives in tools/chromium.js, shared with make charts.
const { launchChromium } = require('../tools/chromium');

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

/**
 * Runs `body(page)` on a page from openPage, then requires that the page
 * logged no problem (every browser test does); closes the page either way.
 */
async function usePage(page, body) {
  try {
    await body(page);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.close();
  }
}

module.exports = { launchChromium, openPage, usePage };
