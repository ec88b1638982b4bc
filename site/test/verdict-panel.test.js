'use strict';
// The verdict at the top of the summary page: one sentence per algorithm group
// from src/js/verdict.js (the same sentences make compare prints), by default at
// each group's highest level where every run has a figure, and at the level
// the reader picks; the committed reference set's limit server named as the
// yardstick, from the registry's limit group the build writes into the page's data.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
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
      const limitServers = data.limit_servers;
      const expected = verdicts(runs, { limitServers });
      assert.deepEqual(shown, expected.map((v) => v.sentence));
      assert.deepEqual(await page.$$eval('#verdict-sentences li', (items) => items.map((li) => li.dataset.group)),
        ['per-message', 'coalesced', 'historic-2011']);
      for (const v of expected) assert.match(v.sentence, new RegExp(`, ${v.defaultLevel} clients: `));

      const level = Math.min(...expected.flatMap((v) => v.levels));
      await page.selectOption('#verdict-level', String(level));
      const picked = await page.$$eval('#verdict-sentences li', (items) => items.map((li) => li.textContent));
      assert.deepEqual(picked, verdicts(runs, { level, limitServers }).map((v) => v.sentence));
      for (const sentence of picked) assert.match(sentence, new RegExp(`, ${level} clients: `));
    });
  });
});

describe('verdict on the summary page of a set with the limit server', () => {
  let withLimit;
  before(async () => {
    const reference = path.join(__dirname, '..', '..', 'results', 'reference');
    withLimit = await startSite('verdict-panel-limit', resultsDirWithHistoric('verdict-panel-limit', reference));
  }, SLOW);
  after(async () => { if (withLimit) await withLimit.close(); });

  test('the limit server is each sentence\'s yardstick, named in words, never ranked', SLOW, async () => {
    await usePage(await openPage(withLimit.browser), async (page) => {
      await page.goto(`${withLimit.origin}/index.html`);
      await page.waitForSelector('#verdict-sentences li');
      await page.selectOption('#verdict-level', '1000');
      const shown = await page.$$eval('#verdict-sentences li', (items) => items.map((li) => li.textContent));
      assert.match(shown[0], /^One frame per message, 1000 clients \(this machine's ceiling, the C limit server: ≥ 272k\): ours on PyPy 187k/);
      assert.match(shown[1], /^Coalesced, 1000 clients \(this machine's ceiling, the C limit server: ≥ 31\.3M\): sockjs-node/);
      for (const sentence of shown) assert.doesNotMatch(sentence, /limit on/i);
    });
  });
});
