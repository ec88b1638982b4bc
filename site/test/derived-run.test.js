'use strict';
// The cases the fixtures lack, made from a real fixture at test time by
// removing measurements or flagging a point (see fixtures.js derivedRun):
// no server memory, a level that never connected, a client-bound point.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { SLOW, startSite, resultsDirWith, screenshotPath } = require('./harness');
const { realRuns, derivedRun } = require('./fixtures');
const { openPage } = require('./browser');
const { probeChart, pointOnPage } = require('./page-probes');
const { assertDrawn } = require('./checks');

let site;
before(async () => {
  site = await startSite('derived-run', resultsDirWith('derived-run', { 'derived.json': derivedRun(realRuns[0].result).derived }));
}, SLOW);
after(async () => { if (site) await site.close(); });

describe('site built from a real run with memory removed, a level unconnected and a point flagged client-bound', () => {
  test('both pages render, say what is missing, and log no errors', SLOW, async () => {
    const page = await openPage(site.browser);
    try {
      await page.goto(`${site.origin}/index.html`);
      await page.waitForSelector('#chart-rss canvas.flot-base');
      assert.match(await page.innerText('#chart-rss .chart-empty'), /No run recorded server memory/);
      assert.ok((await page.evaluate(probeChart, 'chart-rss')).inked > 1000, 'the empty RSS chart still draws its grid');
      assert.equal(await page.isDisabled('#legend-rss input[type=checkbox]'), true);
      const lastRow = page.locator('#summary-table tbody tr').last();
      assert.match(await lastRow.innerText(), /none ok/);
      await page.screenshot({ path: screenshotPath('summary-derived'), fullPage: true });

      const { derived } = derivedRun(realRuns[0].result);
      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(derived.run_id)}`);
      await page.waitForSelector('#chart-sent canvas.flot-base');
      const last = derived.levels[derived.levels.length - 1].concurrency;
      assert.equal(await page.isDisabled(`#legend-sent input[data-key="${last}"]`), true);
      assert.match(await page.locator('#level-table tbody tr').last().innerText(), /connect_failed/);
      assertDrawn(await page.evaluate(probeChart, 'chart-sent'), 'chart-sent of the derived run');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });

  test('a client-bound point is crossed out on the run charts and the summary, and explained', SLOW, async (t) => {
    const { derived, flagged } = derivedRun(realRuns[0].result);
    if (!flagged) {
      t.skip('the first fixture has no level with a saturation point before its last level');
      return;
    }
    const point = flagged.points.find((p) => p.client_bound);
    const page = await openPage(site.browser);
    try {
      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(derived.run_id)}`);
      await page.waitForSelector('#chart-received canvas.flot-base');
      for (const [id, field] of [['chart-sent', 'sent_per_s'], ['chart-received', 'received_per_s']]) {
        const chart = await page.evaluate(probeChart, id);
        const crosses = chart.series.filter((s) => s.symbol === 'cross');
        assert.deepEqual(crosses.map((s) => s.data), [[[point[field], point.rtt_ms.mean]]], id);
        assert.ok(chart.colorPixels[crosses[0].color] > 10, `${id}: the cross is not drawn`);
      }
      assert.match(await page.innerText('#legend-sent'), /client-bound point \(1\): measures the client, not the server/);
      assert.match(await page.innerText('#run-environment .warnings'), /1 client-bound point \(send_rate\)/);
      assert.match(await page.locator('#level-table tbody tr').first().innerText(), /1 point\(s\)/);

      // Hovering the crossed point names the reason.
      await page.locator('#chart-sent').scrollIntoViewIfNeeded();
      const target = await page.evaluate(pointOnPage, ['chart-sent', point.sent_per_s, point.rtt_ms.mean]);
      await page.mouse.move(target.clientX, target.clientY);
      await page.waitForFunction(() => /client-bound \(send_rate\)/.test(document.getElementById('details-sent').textContent));
      await page.screenshot({ path: screenshotPath('run-derived-client-bound'), fullPage: true });

      await page.goto(`${site.origin}/index.html`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      const saturation = await page.evaluate(probeChart, 'chart-saturation');
      assert.deepEqual(saturation.series.filter((s) => s.symbol === 'cross').map((s) => s.data),
        [[[flagged.concurrency, flagged.saturation.received_per_s]]]);
      assert.match(await page.innerText('#legend-saturation'), /saturation point was client-bound/);
      const cell = page.locator('#summary-table td.attention');
      assert.equal(await cell.count(), 1);
      assert.match(await cell.innerText(), /✕$/);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
});

