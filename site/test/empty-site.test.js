'use strict';
// The site built from an empty results directory: a friendly page saying how
// to produce results (the summary's, and the Sessions page's own), no charts,
// no errors.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { SLOW, startSite, resultsDirWith, screenshotPath } = require('./harness');
const { openPage, usePage } = require('./browser');

let site;
before(async () => { site = await startSite('empty-site', resultsDirWith('empty-site', {})); }, SLOW);
after(async () => { if (site) await site.close(); });

describe('site built from an empty results directory', () => {
  test('summary explains how to produce results; no charts, no errors', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/index.html`);
      await page.waitForSelector('#empty-state', { state: 'visible' });
      const text = await page.innerText('#empty-state');
      assert.match(text, /No results yet/);
      assert.match(text, /make bench-pypy/);
      assert.match(text, /make site/);
      assert.equal(await page.isVisible('#summary'), false);
      assert.equal(await page.isVisible('#result-errors'), false);
      assert.equal(await page.locator('canvas').count(), 0);
      await page.screenshot({ path: screenshotPath('empty'), fullPage: true });

      await page.goto(`${site.origin}/run.html`);
      await page.waitForSelector('#page-notice', { state: 'visible' });
      assert.match(await page.innerText('#page-notice'), /no valid runs yet/);
    });
  });

  test('the Sessions page says how to produce sessions results; no charts, no errors', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/sessions.html`);
      await page.waitForSelector('#sessions-empty', { state: 'visible' });
      const text = await page.innerText('#sessions-empty');
      assert.match(text, /No sessions results yet/);
      assert.ok(text.includes('make bench-node PROFILE=sessions LEVELS=1000,5000'), text);
      assert.equal(await page.isVisible('#sessions'), false);
      assert.equal(await page.locator('canvas').count(), 0);
      await page.screenshot({ path: screenshotPath('sessions-empty'), fullPage: true });
    });
  });
});
