'use strict';
// Result sets and the share of the limit: a results directory with two set
// folders (reference/ and reference-limit/) opens on reference/, offers the
// other set in a select that is kept in the URL, and in the set holding a
// limit server run gives every one-frame-per-message figure as a share of it.
//
// The limit run is a real fixture run given the registry entry limit-naive
// (and a run id of its own) at test time, so a set has a limit at the same
// levels as another run: only its identity is changed, never a number. The
// expected shares come from src/js/limit-share.js (its own unit tests check
// the rule) over the built data/runs.js: this file checks the page's wiring.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { SLOW, startSite, resultsDirWith, screenshotPath } = require('./harness');
const { openPage, usePage } = require('./browser');
const { realRuns } = require('./fixtures');
const algorithm = require('../src/js/algorithm');
const { limitShares, shareText } = require('../src/js/limit-share');

const perMessage = (r) => algorithm.algorithmOf({ result: r.result }) === 'per-message';
const levelsOf = (r) => r.result.levels.map((l) => l.concurrency).join(',');
// Two one-frame-per-message runs measured at the same levels: one stays itself, the other plays the limit.
const pair = (() => {
  for (const a of realRuns.filter(perMessage)) {
    const b = realRuns.find((r) => r !== a && perMessage(r) && levelsOf(r) === levelsOf(a));
    if (b) return { server: a, limit: b };
  }
  return null;
})();
const SKIP = pair ? false : 'the fixtures hold no two one-frame-per-message runs at the same levels';

let site;
let data;
before(async () => {
  if (!pair) return;
  const limit = JSON.parse(pair.limit.bytes.toString('utf8'));
  limit.run_id = `${limit.run_id}-as-limit`;
  limit.server.entry = 'limit-naive';
  const dir = resultsDirWith('result-sets', {});
  fs.mkdirSync(path.join(dir, 'reference'));
  fs.mkdirSync(path.join(dir, 'reference-limit'));
  for (const r of realRuns.filter((r) => r !== pair.server && r !== pair.limit)) fs.writeFileSync(path.join(dir, 'reference', r.file), r.bytes);
  fs.writeFileSync(path.join(dir, 'reference-limit', pair.server.file), pair.server.bytes);
  fs.writeFileSync(path.join(dir, 'reference-limit', `limit-${pair.limit.file}`), JSON.stringify(limit, null, 2));
  fs.writeFileSync(path.join(dir, 'reference-limit', 'README.md'), '# Limit test set\n\nA real run beside a run that plays the `limit-naive` server.\n');
  site = await startSite('result-sets', dir);
  const sandbox = { window: {} };
  vm.runInNewContext(fs.readFileSync(path.join(site.dist, 'data', 'runs.js'), 'utf8'), sandbox);
  data = JSON.parse(JSON.stringify(sandbox.window.SOCKBENCH_DATA));
}, SLOW);
after(async () => { if (site) await site.close(); });

const tableRunIds = (page) => page.$$eval('#summary-table tbody', (bodies) => bodies.map((b) => b.dataset.runId));

describe('result sets', { skip: SKIP }, () => {
  test('the summary opens on reference/ and shows only its runs; the select names every set', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/index.html`);
      await page.waitForSelector('#result-set', { state: 'visible' });
      assert.equal(await page.inputValue('#set-selector'), 'reference');
      const options = await page.$$eval('#set-selector option', (os) => os.map((o) => [o.value, o.textContent]));
      assert.deepEqual(options.map(([value]) => value), ['reference', 'reference-limit']);
      assert.match(options[1][1], /^Limit test set \(reference-limit\): 2 runs$/);
      const expected = data.runs.filter((r) => r.set === 'reference').map((r) => r.run_id);
      assert.deepEqual(await tableRunIds(page), expected);
      assert.equal(await page.isVisible('#limit-share-note'), false, 'no limit server in this set');
      assert.ok(!(await page.innerText('#stamp-saturation')).includes('set reference-limit'));
    });
  });

  test('picking the other set shows its runs and README text, keeps it in the URL, and gives each figure its share of the limit', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/index.html`);
      await page.waitForSelector('#set-selector');
      await Promise.all([page.waitForEvent('load'), page.selectOption('#set-selector', 'reference-limit')]);
      await page.waitForSelector('#summary-table tbody');
      assert.match(page.url(), /#set=reference-limit$/);
      assert.equal(await page.inputValue('#set-selector'), 'reference-limit');
      assert.match(await page.innerText('#set-description'), /A real run beside a run that plays the limit-naive server\./);
      const runs = data.runs.filter((r) => r.set === 'reference-limit');
      assert.deepEqual(await tableRunIds(page), runs.map((r) => r.run_id));
      assert.match(await page.innerText('#stamp-saturation'), /set reference-limit/);
      assert.equal(await page.isVisible('#limit-share-note'), true);

      const shares = limitShares(runs, data.limit_servers);
      const server = runs.find((r) => r.entry !== 'limit-naive');
      const limit = runs.find((r) => r.entry === 'limit-naive');
      const expected = server.result.levels.filter((l) => l.saturation)
        .map((l) => shares.shareOf(server.run_id, l.concurrency)).filter(Boolean).map(shareText);
      assert.ok(expected.length > 0, 'the two runs share levels with figures');
      const shown = await page.$$eval(`tbody[data-run-id="${server.run_id}"] .limit-share`, (els) => els.map((e) => e.textContent));
      assert.deepEqual(shown, expected);
      assert.ok(shown.every((text) => / % of limit-naive$/.test(text)));
      const limitRow = await page.$$eval(`tbody[data-run-id="${limit.run_id}"] .limit-share`, (els) => els.map((e) => e.textContent));
      assert.ok(limitRow.length > 0 && limitRow.every((text) => text === 'the limit (limit-naive) of this set'));
      const notes = await page.$$eval('#limit-share-notes li', (items) => items.map((i) => i.textContent));
      assert.deepEqual(notes, shares.notes);
      await page.screenshot({ path: screenshotPath('summary-result-set-limit'), fullPage: true });

      // A reload keeps the set (it is in the URL).
      await page.reload();
      await page.waitForSelector('#summary-table tbody');
      assert.equal(await page.inputValue('#set-selector'), 'reference-limit');
    });
  });

  test('a run\'s page names its set and links to the summary showing it', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      const run = data.runs.find((r) => r.set === 'reference-limit');
      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(run.run_id)}`);
      await page.waitForSelector('#run-meta a[data-set]');
      assert.equal(await page.getAttribute('#run-meta a[data-set]', 'href'), 'index.html#set=reference-limit');
      const other = data.runs.find((r) => r.set === 'reference');
      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(other.run_id)}`);
      await page.waitForSelector('#run-meta a[data-set]');
      assert.equal(await page.getAttribute('#run-meta a[data-set]', 'href'), 'index.html', 'the default set needs no hash');
    });
  });
});
