'use strict';
// The cases the fixtures lack, made from a real fixture at test time by
// removing measurements or flagging a point (see fixtures.js derivedRun):
// no server memory, a level that never connected, a client-bound point
// (dashed on the lines); and a run carrying a spread (fixtures.js repeatedRun).

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { SLOW, startSite, resultsDirWith, screenshotPath } = require('./harness');
const { realRuns, derivedRun, repeatedRun } = require('./fixtures');
const format = require('../src/js/format');
const { openPage } = require('./browser');
const { probeChart, pointOnPage } = require('./page-probes');
const { assertDrawn } = require('./checks');

let site;
before(async () => {
  site = await startSite('derived-run', resultsDirWith('derived-run', {
    'derived.json': derivedRun(realRuns[0].result).derived,
    'repeated.json': repeatedRun(realRuns[0].result).repeated,
  }));
}, SLOW);
after(async () => { if (site) await site.close(); });

describe('site built from a real run with memory removed, a level unconnected and a point flagged client-bound', () => {
  test('both pages render, say what is missing, and log no errors', SLOW, async () => {
    const page = await openPage(site.browser);
    try {
      const { derived } = derivedRun(realRuns[0].result);
      await page.goto(`${site.origin}/index.html#runs=${encodeURIComponent(derived.run_id)}`);
      await page.waitForSelector('#chart-rss canvas.flot-base');
      assert.match(await page.innerText('#chart-rss .chart-empty'), /No selected run recorded server memory/);
      assert.ok((await page.evaluate(probeChart, 'chart-rss')).inked > 1000, 'the empty RSS chart still draws its grid');
      assert.equal(await page.isDisabled(`#legend-rss input[data-key="${derived.run_id}"]`), true);
      const lastRow = page.locator(`#summary-table tbody[data-run-id="${derived.run_id}"] tr`).last();
      assert.match(await lastRow.innerText(), /none ok/);
      await page.screenshot({ path: screenshotPath('summary-derived'), fullPage: true });

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
      assert.match(await page.innerText('#legend-sent'), /client-bound point \(1\), dashed segments beside it: measures the client, not the server/);
      // The line is dashed where the client was the limit: the segments either side of the point.
      for (const [id, field] of [['chart-sent', 'sent_per_s'], ['chart-received', 'received_per_s']]) {
        const chart = await page.evaluate(probeChart, id);
        const dashed = chart.series.filter((s) => s.role === 'client-bound');
        assert.equal(dashed.length, 1, `${id}: one dashed series`);
        assert.ok(dashed[0].dashes && dashed[0].dashes.length === 2, `${id}: drawn with a dash pattern`);
        const xy = [point[field], point.rtt_ms.mean];
        assert.ok(dashed[0].data.some((p) => p && p[0] === xy[0] && p[1] === xy[1]), `${id}: the flagged point is on the dashed part`);
        const solid = chart.series.filter((s) => s.role === 'line' && s.level === flagged.concurrency);
        const index = flagged.points.filter((p) => p.rtt_ms.mean != null).indexOf(point);
        // No solid segment touches the flagged point.
        for (const s of solid) {
          s.data.forEach((p, k) => {
            if (!p || p[0] !== xy[0] || p[1] !== xy[1]) return;
            assert.fail(`${id}: solid segment through the flagged point (index ${index}, at ${k})`);
          });
        }
        assert.ok(chart.colorPixels[dashed[0].color] > 10, `${id}: dashed segment not drawn`);
      }
      assert.match(await page.innerText('#run-environment .warnings'), /1 client-bound point \(send_rate\)/);
      assert.match(await page.locator('#level-table tbody tr').first().innerText(), /1 point\(s\)/);

      // Hovering the crossed point names the reason.
      await page.locator('#chart-sent').scrollIntoViewIfNeeded();
      const target = await page.evaluate(pointOnPage, ['chart-sent', point.sent_per_s, point.rtt_ms.mean]);
      await page.mouse.move(target.clientX, target.clientY);
      await page.waitForFunction(() => /client-bound \(send_rate\)/.test(document.getElementById('details-sent').textContent));
      await page.screenshot({ path: screenshotPath('run-derived-client-bound'), fullPage: true });

      await page.goto(`${site.origin}/index.html#runs=${encodeURIComponent(derived.run_id)}`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      const saturation = await page.evaluate(probeChart, 'chart-saturation');
      assert.deepEqual(saturation.series.filter((s) => s.symbol === 'cross').map((s) => s.data),
        [[[flagged.concurrency, flagged.saturation.received_per_s]]]);
      const dashed = saturation.series.filter((s) => s.role === 'client-bound');
      assert.equal(dashed.length, 1);
      assert.ok(dashed[0].dashes);
      assert.ok(dashed[0].data.some((p) => p && p[0] === flagged.concurrency && p[1] === flagged.saturation.received_per_s));
      assert.match(await page.innerText('#legend-saturation'), /dashed, ✕: the saturation figure was client-bound \(1\)/);
      const cell = page.locator(`#summary-table tbody[data-run-id="${derived.run_id}"] td.attention`);
      assert.equal(await cell.count(), 1);
      assert.match(await cell.innerText(), /✕/);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
});


describe('a run with repetitions (the sockbench.result/2 spread fields)', () => {
  test('draws a min–max band around the median and says "median of 3, range …"; single runs are labelled', SLOW, async (t) => {
    const { repeated, spreadLevels } = repeatedRun(realRuns[0].result);
    if (spreadLevels.length === 0) {
      t.skip('the first fixture has no saturation point with ramp points on both sides');
      return;
    }
    const { derived } = derivedRun(realRuns[0].result);
    const page = await openPage(site.browser);
    try {
      await page.goto(`${site.origin}/index.html#runs=${encodeURIComponent(repeated.run_id)},${encodeURIComponent(derived.run_id)}`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      const chart = await page.evaluate(probeChart, 'chart-saturation');
      const band = chart.series.find((s) => s.role === 'band' && s.run === repeated.run_id);
      assert.ok(band, 'no band for the repeated run');
      assert.deepEqual(band.data, spreadLevels.map((l) => [l.concurrency, l.saturation.spread.max, l.saturation.spread.min]));
      assert.ok(!chart.series.some((s) => s.role === 'band' && s.run === derived.run_id), 'a single run has no band');
      assert.match(await page.innerText('#legend-saturation'), /band: min–max across repetitions, line: their median \(1 of 2 shown runs repeated/);

      const level = spreadLevels[0];
      const row = await page.innerText(`#summary-table tbody[data-run-id="${repeated.run_id}"]`);
      assert.ok(row.includes(`median of 3, range ${format.rate(level.saturation.spread.min)}–${format.rate(level.saturation.spread.max)}`), row);
      assert.match(await page.innerText(`#summary-table tbody[data-run-id="${derived.run_id}"]`), /single run/);

      await page.locator('#chart-saturation').scrollIntoViewIfNeeded();
      const target = await page.evaluate(pointOnPage, ['chart-saturation', level.concurrency, level.saturation.spread.median]);
      await page.mouse.move(target.clientX, target.clientY);
      await page.waitForFunction(() => /median of 3/.test(document.getElementById('details-saturation').textContent));
      await page.screenshot({ path: screenshotPath('summary-spread'), fullPage: true });

      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(repeated.run_id)}`);
      await page.waitForSelector('#chart-sent canvas.flot-base');
      assert.match(await page.innerText('#level-table'), /median of 3, range/);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
});
