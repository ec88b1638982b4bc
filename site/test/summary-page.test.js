'use strict';
// The summary page (index.html) built from site/test/fixtures (real result
// files plus the deliberately broken invalid-*.json) and the committed 2011
// historic set, in headless Chromium: charts, table, raw links, broken files,
// the like-for-like default, groups and their explanations, the log toggle,
// axes that follow the selection, and the 2011 overlay.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { SLOW, startSite, resultsDirWithHistoric, historicDocs, screenshotPath } = require('./harness');
const { FIXTURES_DIR, brokenFiles, realRuns, isFloor } = require('./fixtures');
const { openPage, usePage } = require('./browser');
const { probeChart, pointOnPage } = require('./page-probes');
const { httpGet, assertDrawn } = require('./checks');
const format = require('../src/js/format');

// The oracle for grouping, written from the result files' fields, not from the site's code.
const coalesced = realRuns.filter((r) => r.result.server.mode === 'fast');
const perMessage = realRuns.filter((r) => r.result.server.mode !== 'fast');
const historic = historicDocs();
const saturationData = (result) => result.levels.filter((l) => l.saturation).map((l) => [l.concurrency, l.saturation.received_per_s]);
const pointsOf = (chart, runId) => chart.series.find((s) => s.role === 'points' && s.run === runId);

let site;
before(async () => { site = await startSite('summary-page', resultsDirWithHistoric('summary-page', FIXTURES_DIR)); }, SLOW);
after(async () => { if (site) await site.close(); });

async function openSummary(hash = '') {
  const page = await openPage(site.browser);
  await page.goto(`${site.origin}/index.html${hash}`);
  await page.waitForSelector('#chart-saturation canvas.flot-base');
  return page;
}

describe('summary page built from the fixtures and the 2011 set', () => {
  test('draws both charts like for like by default, lists every run with its raw JSON, lists the broken files', SLOW, async () => {
    await usePage(await openSummary(), async (page) => {
      const saturation = await page.evaluate(probeChart, 'chart-saturation');
      const rss = await page.evaluate(probeChart, 'chart-rss');
      assertDrawn(saturation, 'saturation chart');
      assertDrawn(rss, 'RSS chart');
      assert.deepEqual(saturation.axisLabels.sort(),
        ['Concurrent connections (log scale)', 'Saturation throughput (received msgs/s), log scale']);
      assert.deepEqual(rss.axisLabels.sort(), ['Concurrent connections (log scale)', 'Server RSS (MiB)']);

      // Like for like by default: exactly the one-frame-per-message runs, each plotted as its file says.
      const plotted = saturation.series.filter((s) => s.role === 'points').map((s) => s.run).sort();
      assert.deepEqual(plotted, perMessage.filter((r) => r.result.levels.some((l) => l.saturation)).map((r) => r.result.run_id).sort());
      for (const run of perMessage.filter((r) => r.result.levels.some((l) => l.saturation))) {
        assert.deepEqual(pointsOf(saturation, run.result.run_id).data, saturationData(run.result), run.file);
      }
      assert.equal(await page.getAttribute('#group-picks button[data-group="per-message"]', 'aria-pressed'), 'true');
      assert.equal(await page.evaluate(() => location.hash), '', 'the default needs no hash');
      assert.equal(await page.isHidden('#transport-filter'), true, 'websocket runs only: no transport to choose');
      for (const run of coalesced) {
        assert.equal(await page.getAttribute(`#summary-table tbody[data-run-id="${run.result.run_id}"]`, 'class'), 'not-selected');
      }

      const tableRunIds = await page.$$eval('#summary-table tbody', (bodies) => bodies.map((b) => b.dataset.runId));
      assert.deepEqual(tableRunIds.sort(), [...realRuns.map((r) => r.result.run_id), ...historic.map((h) => h.run_id)].sort());
      for (const run of realRuns) {
        const row = page.locator(`#summary-table tbody[data-run-id="${run.result.run_id}"]`);
        const text = await row.innerText();
        for (const fact of [run.result.machine.cpu_model, run.result.server.runtime_version]) {
          assert.ok(text.includes(fact), `table row of ${run.file} lacks "${fact}"`);
        }
        // The mode is named beside every figure, with its algorithm; single runs say so, repeated
        // levels give their median's count and min–max.
        assert.match(text, run.result.server.mode === 'fast' ? /fast \(coalesced\)/ : /\(one frame per message\)/);
        for (const l of run.result.levels.filter((lv) => lv.saturation)) {
          const spread = l.saturation.spread;
          const expected = spread && l.repetitions > 1
            ? `median of ${l.repetitions}, range ${format.rate(spread.min)}–${format.rate(spread.max)}` : 'single run';
          assert.ok(text.includes(expected), `${run.file} N=${l.concurrency}: no "${expected}" in ${text}`);
        }
        // CPU at the saturation point, as the file records it there.
        const level = run.result.levels.find((l) => l.saturation);
        const point = level && level.points.find((p) => p.state === 'ok' && p.received_per_s === level.saturation.received_per_s);
        if (point && point.server_cpu_pct != null) {
          assert.ok(text.includes(`${format.trim(point.server_cpu_pct, 3)} % / ${format.trim(point.client_cpu_pct, 3)} %`),
            `${run.file}: CPU at saturation not shown`);
        }
        // Every figure that is a floor by the fairness rule reads "≥ …" and says why; no other does.
        const floorCells = row.locator('td.floor');
        const floors = run.result.levels.filter((l) => l.saturation && isFloor(l));
        assert.equal(await floorCells.count(), floors.length, `${run.file}: floors marked`);
        for (let i = 0; i < floors.length; i++) assert.match(await floorCells.nth(i).innerText(), /^≥ [\s\S]*a floor: /);
        assert.equal((text.match(/≥/g) || []).length, floors.length, `${run.file}: "≥" only on floors`);
        const href = await row.locator('a.raw-link').getAttribute('href');
        const raw = await httpGet(new URL(href, `${site.origin}/index.html`).href);
        assert.equal(raw.status, 200);
        assert.ok(raw.body.equals(run.bytes), `raw link of ${run.file} does not serve the file as committed`);
      }

      const listedErrors = await page.$$eval('#result-errors li.result-error', (items) => items.map((i) => i.dataset.source));
      assert.deepEqual(listedErrors.sort(), brokenFiles);
      assert.ok(await page.isVisible('#result-errors'));
      assert.match(await page.innerText('#chart-rss + div, .chart-note'), /one server process that serves every level/);

      await page.screenshot({ path: screenshotPath('summary'), fullPage: true });
    });
  });

  test('groups runs by algorithm, explains each on the page and links the methodology', SLOW, async () => {
    await usePage(await openSummary(), async (page) => {
      const groups = await page.$$eval('#algorithm-groups .algorithm-group', (cards) => cards.map((c) => c.dataset.group));
      assert.deepEqual(groups, ['per-message', ...(coalesced.length ? ['coalesced'] : []), 'historic-2011']);
      const perMessageText = await page.innerText('.algorithm-group[data-group="per-message"]');
      assert.match(perMessageText, /One frame per message/);
      assert.match(perMessageText, /sockjs-node 0\.3\.24/);
      assert.match(perMessageText, /--naive/);
      if (coalesced.length) assert.match(await page.innerText('.algorithm-group[data-group="coalesced"]'), /coalesces every message/);
      assert.match(await page.innerText('.algorithm-group[data-group="historic-2011"]'), /2011, i7-2600K, mean RTT only, one frame per message/);

      const href = await page.getAttribute('.algorithm-group[data-group="per-message"] a', 'href');
      assert.equal(href, 'methodology.html#methodology');
      const methodology = await httpGet(new URL(href, `${site.origin}/index.html`).href);
      assert.equal(methodology.status, 200);
      assert.match(methodology.body.toString(), /id="methodology"/);
      assert.match(methodology.body.toString(), /client must not be the bottleneck/);

      // The quick pick switches groups: coalesced only, then back.
      if (coalesced.length) {
        await page.click('#group-picks button[data-group="coalesced"]');
        const chart = await page.evaluate(probeChart, 'chart-saturation');
        assert.deepEqual(chart.series.filter((s) => s.role === 'points').map((s) => s.run).sort(),
          coalesced.map((r) => r.result.run_id).sort());
        assert.match(await page.textContent('#stamp-saturation'), /coalesced/);
      }
      await page.click('#group-picks button[data-group="per-message"]');
      assert.equal(await page.evaluate(() => location.hash), '');
    });
  });

  test('y axis is logarithmic by default, a toggle makes it linear, and the axes follow the selected runs', SLOW, async () => {
    await usePage(await openSummary(), async (page) => {
      const logChart = await page.evaluate(probeChart, 'chart-saturation');
      assert.equal(logChart.yaxis.mode, 'log');
      const likeForLikeTop = Math.max(...perMessage.flatMap((r) => saturationData(r.result).map((p) => p[1])));
      assert.ok(logChart.yaxis.max >= likeForLikeTop, 'the axis shows the selected runs');
      // 1-2-5 rounding above 110 % of the top selected figure: at most 2.75 × it.
      assert.ok(logChart.yaxis.max <= likeForLikeTop * 2.75, `y max ${logChart.yaxis.max} does not follow the selection`);
      if (coalesced.length) {
        // Selecting the coalesced runs too stretches the axis to them (and only then).
        await page.getByRole('button', { name: 'All runs' }).click();
        const coalescedTop = Math.max(...coalesced.flatMap((r) => saturationData(r.result).map((p) => p[1])));
        const allChart = await page.evaluate(probeChart, 'chart-saturation');
        assert.ok(allChart.yaxis.max >= coalescedTop);
        await page.click('#group-picks button[data-group="per-message"]');
        assert.equal((await page.evaluate(probeChart, 'chart-saturation')).yaxis.max, logChart.yaxis.max);
      }

      await page.selectOption('#y-scale-selector', 'linear');
      const linear = await page.evaluate(probeChart, 'chart-saturation');
      assert.equal(linear.yaxis.mode, 'linear');
      assert.equal(linear.yaxis.min, 0);
      assert.ok(linear.axisLabels.includes('Saturation throughput (received msgs/s)'));
      assert.match(await page.evaluate(() => location.hash), /y=linear/);
      assertDrawn(linear, 'linear saturation chart');

      // The scale survives a reload from the URL.
      await page.reload();
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      assert.equal((await page.evaluate(probeChart, 'chart-saturation')).yaxis.mode, 'linear');
      assert.equal(await page.inputValue('#y-scale-selector'), 'linear');
    });
  });

  test('2011 overlays today\'s like-for-like runs, hollow and labelled, with its own run page', SLOW, async () => {
    await usePage(await openSummary(), async (page) => {
      await page.getByRole('button', { name: 'One frame per message, today and 2011' }).click();
      const chart = await page.evaluate(probeChart, 'chart-saturation');
      for (const doc of historic) {
        const points = pointsOf(chart, doc.run_id);
        assert.ok(points, `${doc.run_id} not overlaid`);
        assert.ok(points.hollow, `${doc.run_id}: 2011 points are drawn hollow`);
        assert.deepEqual(points.data, doc.levels.filter((l) => l.saturation).map((l) => [l.concurrency, l.saturation.received_per_s]));
      }
      const legend = await page.innerText('#legend-saturation');
      assert.match(legend, /2011 · sockjs-tornado · PyPy 1\.7/);
      assert.match(legend, /2011 published data: hollow markers/);
      await page.locator('#chart-saturation').scrollIntoViewIfNeeded();
      await page.screenshot({ path: screenshotPath('summary-with-2011'), fullPage: true });

      const row = page.locator(`#summary-table tbody[data-run-id="${historic[0].run_id}"]`);
      assert.match(await row.innerText(), /mean RTT only/);
      // 2011 published no CPU: its figures are drawn as published, not marked as floors.
      assert.doesNotMatch(await row.innerText(), /≥|a floor/);
      assert.ok(!chart.series.some((s) => s.symbol === 'cross' && historic.some((h) => h.run_id === s.run)), '2011 figures crossed');
      const href = await row.locator('a.raw-link').getAttribute('href');
      assert.equal((await httpGet(new URL(href, `${site.origin}/index.html`).href)).status, 200);
    });
  });

  test('unticking a run removes it from the overlay; "All runs" brings it back; hover reads values and CPU', SLOW, async () => {
    await usePage(await openSummary(), async (page) => {
      const run = perMessage.find((x) => x.result.levels.some((l) => l.saturation));
      const runId = run.result.run_id;
      const before = (await page.evaluate(probeChart, 'chart-saturation')).series.length;
      await page.locator(`#legend-saturation input[data-key="${runId}"]`).uncheck();
      const after = await page.evaluate(probeChart, 'chart-saturation');
      assert.ok(after.series.length < before);
      assert.equal(await page.locator(`#summary-table tbody[data-run-id="${runId}"]`).getAttribute('class'), 'not-selected');
      assert.equal(await page.isChecked(`#summary-table input[data-run-id="${runId}"]`), false);
      assert.ok((await page.evaluate(() => location.hash)).startsWith('#runs='));

      // Hovering a concurrency level shows each run's saturation throughput there, and the CPU behind it.
      await page.getByRole('button', { name: 'All runs' }).click();
      const all = (await page.evaluate(probeChart, 'chart-saturation')).series.length;
      const level = run.result.levels.find((l) => l.saturation);
      await page.locator('#chart-saturation').scrollIntoViewIfNeeded();
      const target = await page.evaluate(pointOnPage, ['chart-saturation', level.concurrency, level.saturation.received_per_s]);
      await page.mouse.move(target.clientX, target.clientY);
      await page.waitForFunction(() => /connections/.test(document.querySelector('#legend-saturation .legend-caption').textContent));
      assert.equal(await page.textContent('#legend-saturation .legend-caption'), `at ${level.concurrency} connections`);
      assert.equal(await page.textContent(`#legend-saturation li[data-key="${runId}"] .legend-value`),
        `${format.rate(level.saturation.received_per_s)} msgs/s`);
      const details = await page.innerText('#details-saturation');
      assert.match(details, new RegExp(`${format.rate(level.saturation.received_per_s)} msgs/s, single run; server CPU`));
      assert.match(details, /client CPU .*steal/);
      // Why the figure is a floor, when the rule makes it one (and nothing when not).
      const runLine = details.split('\n').find((line) => line.startsWith(run.result.label)
        && line.includes(`${format.rate(level.saturation.received_per_s)} msgs/s`)) || '';
      assert.ok(runLine, details);
      if (isFloor(level)) assert.match(runLine, /; a floor: \S/, runLine);
      else assert.doesNotMatch(runLine, /a floor/, runLine);

      await page.getByRole('button', { name: 'None' }).click();
      assert.equal((await page.evaluate(probeChart, 'chart-saturation')).series.length, 0);
      assert.match(await page.innerText('#chart-saturation .chart-empty'), /No run selected/);
      assert.equal(await page.locator('#summary-table tbody:not(.not-selected)').count(), 0);

      await page.getByRole('button', { name: 'All runs' }).click();
      assert.equal((await page.evaluate(probeChart, 'chart-saturation')).series.length, all);
      assert.equal(await page.isChecked(`#legend-saturation input[data-key="${runId}"]`), true);
    });
  });

  test('works when opened straight from disk (file://)', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`file://${path.join(site.dist, 'index.html')}`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      assertDrawn(await page.evaluate(probeChart, 'chart-saturation'), 'saturation chart from file://');
    });
  });
});
