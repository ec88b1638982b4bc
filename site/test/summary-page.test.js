'use strict';
// The summary page (index.html) built from site/test/fixtures: real result
// files plus the deliberately broken invalid-*.json, in headless Chromium.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { SLOW, startSite, screenshotPath } = require('./harness');
const { FIXTURES_DIR, brokenFiles, realRuns } = require('./fixtures');
const { openPage } = require('./browser');
const { probeChart, pointOnPage } = require('./page-probes');
const { httpGet, assertDrawn } = require('./checks');
const format = require('../src/js/format');

let site;
before(async () => { site = await startSite('summary-page', FIXTURES_DIR); }, SLOW);
after(async () => { if (site) await site.close(); });

describe('summary page built from the fixtures', () => {
  test('draws both charts, lists every run with its raw JSON, lists the broken files', SLOW, async () => {
    const page = await openPage(site.browser);
    try {
      await page.goto(`${site.origin}/index.html`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');

      const saturation = await page.evaluate(probeChart, 'chart-saturation');
      const rss = await page.evaluate(probeChart, 'chart-rss');
      assertDrawn(saturation, 'saturation chart');
      assertDrawn(rss, 'RSS chart');
      assert.deepEqual(saturation.axisLabels.sort(),
        ['Concurrent connections (log scale)', 'Saturation throughput (received msgs/s)']);
      assert.deepEqual(rss.axisLabels.sort(), ['Concurrent connections (log scale)', 'Peak server RSS (MiB)']);

      // One line per run that has a saturation point / an RSS sample, computed from the raw files.
      const withSaturation = realRuns.filter((r) => r.result.levels.some((l) => l.saturation));
      const withRss = realRuns.filter((r) => r.result.levels.some((l) => l.points.some((p) => p.server_rss_bytes != null)));
      assert.equal(saturation.series.filter((s) => s.lines).length, withSaturation.length);
      assert.equal(rss.series.filter((s) => s.lines).length, withRss.length);
      for (const run of withSaturation) {
        const expected = run.result.levels.filter((l) => l.saturation).map((l) => [l.concurrency, l.saturation.received_per_s]);
        assert.ok(saturation.series.some((s) => JSON.stringify(s.data) === JSON.stringify(expected)),
          `saturation series of ${run.file} is not plotted as ${JSON.stringify(expected)}`);
      }

      const tableRunIds = await page.$$eval('#summary-table tbody', (bodies) => bodies.map((b) => b.dataset.runId));
      assert.deepEqual(tableRunIds.sort(), realRuns.map((r) => r.result.run_id).sort());
      for (const run of realRuns) {
        const row = page.locator(`#summary-table tbody[data-run-id="${run.result.run_id}"]`);
        const text = await row.innerText();
        for (const fact of [run.result.machine.cpu_model, run.result.server.runtime_version]) {
          assert.ok(text.includes(fact), `table row of ${run.file} lacks "${fact}"`);
        }
        const href = await row.locator('a.raw-link').getAttribute('href');
        const raw = await httpGet(new URL(href, `${site.origin}/index.html`).href);
        assert.equal(raw.status, 200);
        assert.ok(raw.body.equals(run.bytes), `raw link of ${run.file} does not serve the file as committed`);
      }

      const listedErrors = await page.$$eval('#result-errors li.result-error', (items) => items.map((i) => i.dataset.source));
      assert.deepEqual(listedErrors.sort(), brokenFiles);
      assert.ok(await page.isVisible('#result-errors'));

      await page.screenshot({ path: screenshotPath('summary'), fullPage: true });
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });

  test('unticking a run removes it from the overlay; "All runs" brings it back; hover reads values', SLOW, async () => {
    const page = await openPage(site.browser);
    try {
      await page.goto(`${site.origin}/index.html`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      const runId = realRuns[0].result.run_id;
      const before = (await page.evaluate(probeChart, 'chart-saturation')).series.length;
      await page.locator(`#legend-saturation input[data-key="${runId}"]`).uncheck();
      const after = await page.evaluate(probeChart, 'chart-saturation');
      const hadSaturation = realRuns[0].result.levels.some((l) => l.saturation);
      assert.ok(hadSaturation ? after.series.length < before : after.series.length === before);
      assert.equal(await page.locator(`#summary-table tbody[data-run-id="${runId}"]`).getAttribute('class'), 'not-selected');
      assert.equal(await page.isChecked(`#summary-table input[data-run-id="${runId}"]`), false);
      assert.ok((await page.evaluate(() => location.hash)).startsWith('#runs='));

      // Hovering a concurrency level shows each run's saturation throughput there.
      const run = realRuns.find((x) => x.result.levels.some((l) => l.saturation));
      if (run) {
        await page.getByRole('button', { name: 'All runs' }).click();
        const level = run.result.levels.find((l) => l.saturation);
        await page.locator('#chart-saturation').scrollIntoViewIfNeeded();
        const target = await page.evaluate(pointOnPage, ['chart-saturation', level.concurrency, level.saturation.received_per_s]);
        await page.mouse.move(target.clientX, target.clientY);
        await page.waitForFunction(() => /connections/.test(document.querySelector('#legend-saturation .legend-caption').textContent));
        assert.equal(await page.textContent('#legend-saturation .legend-caption'), `at ${level.concurrency} connections`);
        assert.equal(await page.textContent(`#legend-saturation li[data-key="${run.result.run_id}"] .legend-value`),
          `${format.rate(level.saturation.received_per_s)} msgs/s`);
      }

      await page.getByRole('button', { name: 'None' }).click();
      assert.equal((await page.evaluate(probeChart, 'chart-saturation')).series.length, 0);
      assert.match(await page.innerText('#chart-saturation .chart-empty'), /No run selected/);
      assert.equal(await page.locator('#summary-table tbody:not(.not-selected)').count(), 0);

      await page.getByRole('button', { name: 'All runs' }).click();
      assert.equal((await page.evaluate(probeChart, 'chart-saturation')).series.length, before);
      assert.equal(await page.isChecked(`#legend-saturation input[data-key="${runId}"]`), true);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });

  test('works when opened straight from disk (file://)', SLOW, async () => {
    const page = await openPage(site.browser);
    try {
      await page.goto(`file://${path.join(site.dist, 'index.html')}`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      assertDrawn(await page.evaluate(probeChart, 'chart-saturation'), 'saturation chart from file://');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
});
