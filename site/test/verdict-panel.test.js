'use strict';
// The verdict at the top of the summary page: one sentence per algorithm group
// from src/js/verdict.js (the same sentences make compare prints), by default at
// each group's highest level where every run has a figure, and at the level
// the reader picks.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { SLOW, startSite, resultsDirWithHistoric } = require('./harness');
const { FIXTURES_DIR } = require('./fixtures');
const { openPage, usePage } = require('./browser');
const { verdicts } = require('../src/js/verdict');
const { readSiteData } = require('../tools/render-charts');

let site;
before(async () => { site = await startSite('verdict-panel', resultsDirWithHistoric('verdict-panel', FIXTURES_DIR)); }, SLOW);
after(async () => { if (site) await site.close(); });

describe('verdict on the summary page', () => {
  test('one sentence per group at its default level, then at the level picked', SLOW, async () => {
    const data = readSiteData(site.dist);
    const runs = [...data.runs, ...data.historic];
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/index.html`);
      await page.waitForSelector('#verdict-sentences li');
      const shown = await page.$$eval('#verdict-sentences li', (items) => items.map((li) => li.textContent));
      const expected = verdicts(runs);
      assert.deepEqual(shown, expected.map((v) => v.sentence));
      assert.deepEqual(await page.$$eval('#verdict-sentences li', (items) => items.map((li) => li.dataset.group)),
        ['per-message', 'coalesced', 'historic-2011']);
      for (const v of expected) assert.match(v.sentence, new RegExp(`, ${v.defaultLevel} clients: `));

      const level = Math.min(...expected.flatMap((v) => v.levels));
      await page.selectOption('#verdict-level', String(level));
      const picked = await page.$$eval('#verdict-sentences li', (items) => items.map((li) => li.textContent));
      assert.deepEqual(picked, verdicts(runs, { level }).map((v) => v.sentence));
      for (const sentence of picked) assert.match(sentence, new RegExp(`, ${level} clients: `));
    });
  });
});
