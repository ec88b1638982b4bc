'use strict';
// The cases the fixtures lack, made from a real fixture at test time by
// removing measurements or flagging a point (see fixtures.js derivedRun):
// no server memory, a level that never connected, a client-bound point
// (dashed on the lines). Beside it, on the same site, every real fixture byte
// for byte: the repeated one (REPEAT=3, sockbench.result/2: `repetitions`,
// `saturation.spread`, `runs[]`) for the min–max band and its wording, and the
// version 1 ones, whose saturation objects carry no server CPU, for floors
// judged by the CPU of the point each figure was measured at.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { SLOW, startSite, resultsDirWith, screenshotPath } = require('./harness');
const {
  realRuns, repeatedRuns, derivedRun, SERVER_BUSY_PCT, saturationServerCpu, saturationClientCpu, isOwnLimit, isRepetitionFloor,
  isFloor,
} = require('./fixtures');

// The words the pages must show for one single-run level, spelled from its data here (the site's are
// src/js/floors.js's): the server's CPU rounded down, the client's rounded up.
const clientPart = (level) => {
  const client = saturationClientCpu(level);
  return client == null ? 'client CPU not measured' : `client ${Math.ceil(client)} % busy`;
};
const busyReason = (level) =>
  `server ${Math.floor(saturationServerCpu(level))} % busy (< ${SERVER_BUSY_PCT} %), ${clientPart(level)}`;
const ownLimitLabel = (level) =>
  `server's own limit at ${Math.floor(saturationServerCpu(level))} % CPU (${clientPart(level)}, on schedule)`;
const format = require('../src/js/format');
const { openPage, usePage } = require('./browser');
const { probeChart, pointOnPage } = require('./page-probes');
const { assertDrawn } = require('./checks');

// The version 1 fixtures: no CPU on their saturation objects, only on their points.
const v1Runs = realRuns.filter((r) => r.result.schema === 'sockbench.result/1');

let site;
before(async () => {
  const dir = resultsDirWith('derived-run', { 'derived.json': derivedRun(realRuns[0].result).derived });
  for (const run of realRuns) fs.writeFileSync(path.join(dir, run.file), run.bytes);
  site = await startSite('derived-run', dir);
}, SLOW);
after(async () => { if (site) await site.close(); });

describe('site built from a real run with memory removed, a level unconnected and a point flagged client-bound', () => {
  test('both pages render, say what is missing, and log no errors', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
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
    });
  });

  test('a client-bound point is crossed out on the run charts and the summary, and explained', SLOW, async (t) => {
    const { derived, flagged } = derivedRun(realRuns[0].result);
    if (!flagged) {
      t.skip('the first fixture has no level with a saturation point before its last level');
      return;
    }
    const point = flagged.points.find((p) => p.client_bound);
    await usePage(await openPage(site.browser), async (page) => {
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
      // Its saturation figure is a floor, and the level table says so and why.
      const flaggedRow = page.locator('#level-table tbody tr').nth(derived.levels.indexOf(flagged));
      assert.match(await flaggedRow.locator('td.floor').innerText(), /^≥ [\s\S]*a floor: client-bound/);

      // Hovering the crossed point names the reason.
      await page.locator('#chart-sent').scrollIntoViewIfNeeded();
      const target = await page.evaluate(pointOnPage, ['chart-sent', point.sent_per_s, point.rtt_ms.mean]);
      await page.mouse.move(target.clientX, target.clientY);
      await page.waitForFunction(() => /client-bound \(send_rate\)/.test(document.getElementById('details-sent').textContent));
      await page.screenshot({ path: screenshotPath('run-derived-client-bound'), fullPage: true });

      await page.goto(`${site.origin}/index.html#runs=${encodeURIComponent(derived.run_id)}`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      // Every floor is crossed and dashed on the summary, the client-bound one among them
      // (the derived run has no server pid: its floors are judged from the client's side alone).
      const floors = derived.levels.filter((l) => l.saturation && isFloor(l, derived.server.pid !== null));
      assert.ok(floors.includes(flagged));
      const saturation = await page.evaluate(probeChart, 'chart-saturation');
      assert.deepEqual(saturation.series.filter((s) => s.symbol === 'cross').map((s) => s.data),
        [floors.map((l) => [l.concurrency, l.saturation.received_per_s])]);
      const dashed = saturation.series.filter((s) => s.role === 'floor');
      assert.equal(dashed.length, 1);
      assert.ok(dashed[0].dashes);
      assert.ok(dashed[0].data.some((p) => p && p[0] === flagged.concurrency && p[1] === flagged.saturation.received_per_s));
      assert.match(await page.innerText('#legend-saturation'),
        new RegExp(`dashed, ✕: the figure is a floor, not the server's limit \\(${floors.length}\\): client-bound, server < 95 % busy`));
      const cells = page.locator(`#summary-table tbody[data-run-id="${derived.run_id}"] td.floor`);
      assert.equal(await cells.count(), floors.length);
      // Why, from the data: the flagged point is client-bound; the server's CPU counts only when
      // the server was sampled, and derivedRun took its pid away (and every point's CPU).
      const sampled = derived.server.pid !== null;
      const cpu = saturationServerCpu(flagged);
      const why = ['client-bound', !sampled ? null : cpu == null ? 'server CPU not measured'
        : cpu < SERVER_BUSY_PCT ? busyReason(flagged) : null].filter(Boolean).join(', ');
      const flaggedCell = cells.nth(floors.indexOf(flagged));
      assert.ok((await flaggedCell.innerText()).startsWith('≥ '));
      assert.ok((await flaggedCell.innerText()).endsWith(`a floor: ${why}`), await flaggedCell.innerText());

      // Hovering the level says why its figure is a floor.
      await page.locator('#chart-saturation').scrollIntoViewIfNeeded();
      const mark = await page.evaluate(pointOnPage, ['chart-saturation', flagged.concurrency, flagged.saturation.received_per_s]);
      await page.mouse.move(mark.clientX, mark.clientY);
      await page.waitForFunction((text) => document.getElementById('details-saturation').textContent.includes(text), `; a floor: ${why}`);
    });
  });
});


describe('a real run with repetitions (REPEAT=3, the sockbench.result/2 spread fields)', () => {
  test('draws a min–max band around the median and says "median of 3, range …"; single runs are labelled', SLOW, async (t) => {
    if (repeatedRuns.length === 0) {
      t.skip('no fixture was measured with repetitions (see fixtures/README.md)');
      return;
    }
    const repeated = repeatedRuns[0].result;
    const spreadLevels = repeated.levels.filter((l) => l.saturation && l.saturation.spread);
    // "median of N, range min–max", every number the file's own.
    const spreadText = (l) => `median of ${l.repetitions}, range ${format.rate(l.saturation.spread.min)}–${format.rate(l.saturation.spread.max)}`;
    const { derived } = derivedRun(realRuns[0].result);
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/index.html#runs=${encodeURIComponent(repeated.run_id)},${encodeURIComponent(derived.run_id)}`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      const chart = await page.evaluate(probeChart, 'chart-saturation');
      const band = chart.series.find((s) => s.role === 'band' && s.run === repeated.run_id);
      assert.ok(band, 'no band for the repeated run');
      assert.deepEqual(band.data, spreadLevels.map((l) => [l.concurrency, l.saturation.spread.max, l.saturation.spread.min]));
      // The line and points go through the median.
      assert.deepEqual(chart.series.find((s) => s.role === 'points' && s.run === repeated.run_id).data,
        spreadLevels.map((l) => [l.concurrency, l.saturation.spread.median]));
      assert.ok(!chart.series.some((s) => s.role === 'band' && s.run === derived.run_id), 'a single run has no band');
      assert.match(await page.innerText('#legend-saturation'), /band: min–max across repetitions, line: their median \(1 of 2 shown runs repeated/);

      const table = await page.innerText(`#summary-table tbody[data-run-id="${repeated.run_id}"]`);
      for (const l of spreadLevels) assert.ok(table.includes(spreadText(l)), `N=${l.concurrency}: ${table}`);
      assert.doesNotMatch(table, /single run/);
      assert.match(await page.innerText(`#summary-table tbody[data-run-id="${derived.run_id}"]`), /single run/);
      // A level is a floor when any repetition's figure is, and says in how many ("in k of 3").
      for (const l of spreadLevels) {
        const k = l.runs.filter(isRepetitionFloor).length;
        if (k > 0) assert.ok(table.includes(` in ${k} of ${l.runs.length}`), `N=${l.concurrency}: a floor in ${k} of ${l.runs.length}: ${table}`);
      }
      assert.equal((table.match(/a floor: /g) || []).length, spreadLevels.filter(isFloor).length, table);

      // Hovering each level gives the median, how many runs it is the median of, and their range.
      await page.locator('#chart-saturation').scrollIntoViewIfNeeded();
      for (const l of spreadLevels) {
        const target = await page.evaluate(pointOnPage, ['chart-saturation', l.concurrency, l.saturation.spread.median]);
        await page.mouse.move(target.clientX, target.clientY);
        await page.waitForFunction((text) => document.getElementById('details-saturation').textContent.includes(text),
          `${format.rate(l.saturation.spread.median)} msgs/s, ${spreadText(l)}`);
      }
      await page.screenshot({ path: screenshotPath('summary-spread'), fullPage: true });

      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(repeated.run_id)}`);
      await page.waitForSelector('#chart-sent canvas.flot-base');
      const rows = page.locator('#level-table tbody tr');
      for (const [i, l] of repeated.levels.entries()) {
        if (!l.saturation) continue;
        const text = await rows.nth(i).locator('td').nth(3).innerText();
        assert.ok(text.startsWith(`${isFloor(l) ? '≥ ' : ''}${format.rate(l.saturation.received_per_s)}`), `N=${l.concurrency}: ${text}`);
        if (l.saturation.spread) assert.ok(text.includes(spreadText(l)), `N=${l.concurrency}: ${text}`);
        const k = (l.runs || []).filter(isRepetitionFloor).length;
        if (k > 0) assert.ok(text.includes(` in ${k} of ${l.runs.length}`), `N=${l.concurrency}: ${text}`);
        else assert.doesNotMatch(text, /a floor/, `N=${l.concurrency}: no repetition's figure is a floor`);
      }
    });
  });
});


describe('version 1 runs: floors judged by the server and client CPU of the point each figure was measured at', () => {
  test('"≥", ✕ and "server N % busy (< 95 %), client …" where that point\'s server CPU was under 95 % and no own limit (a busy client, or the server under 80 %); the own-limit label otherwise; none at full CPU', SLOW, async (t) => {
    if (v1Runs.length === 0) {
      t.skip('no version 1 fixture');
      return;
    }
    const checked = { busy: 0, own: 0, limit: 0, other: 0 };
    await usePage(await openPage(site.browser), async (page) => {
      for (const { file, result } of v1Runs) {
        await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(result.run_id)}`);
        await page.waitForSelector('#chart-sent canvas.flot-base');
        const rows = page.locator('#level-table tbody tr');
        for (const [i, level] of result.levels.entries()) {
          if (!level.saturation) continue;
          const where = `${file} N=${level.concurrency}`;
          assert.equal(level.saturation.server_cpu_pct, undefined, `${where}: a version 1 saturation object has no CPU`);
          // The point the figure came from, and the CPU the client sampled there.
          const point = level.points.find((p) => p.state === 'ok' && p.received_per_s === level.saturation.received_per_s);
          const cpu = point ? point.server_cpu_pct : null;
          const text = await rows.nth(i).locator('td').nth(3).innerText();
          if (cpu == null || level.saturation.client_bound || level.end_reason !== 'overloaded') {
            // Not this test's case: only "≥" exactly where the rule makes a floor.
            checked.other += 1;
            assert.equal(text.startsWith('≥ '), isFloor(level), `${where}: ${text}`);
          } else if (cpu < SERVER_BUSY_PCT && isOwnLimit(level)) {
            checked.own += 1;
            assert.ok(!isFloor(level), `${where}: the test-side rule disagrees`);
            assert.doesNotMatch(text, /≥|a floor/, `${where}: the server's own limit is not marked as a floor`);
            assert.ok(text.endsWith(ownLimitLabel(level)), `${where}: ${text}`);
          } else if (cpu < SERVER_BUSY_PCT) {
            checked.busy += 1;
            assert.ok(isFloor(level), `${where}: the test-side rule disagrees`);
            assert.ok(text.startsWith('≥ '), `${where}: ${text}`);
            assert.ok(text.endsWith(`a floor: ${busyReason(level)}`), `${where}: ${text}`);
          } else {
            checked.limit += 1;
            assert.ok(!isFloor(level), `${where}: the test-side rule disagrees`);
            assert.doesNotMatch(text, /≥|a floor|own limit/, `${where}: the server's limit is not marked`);
          }
        }
      }
      t.diagnostic(`levels checked: ${checked.busy} under ${SERVER_BUSY_PCT} % busy and floors, ${checked.own} ` +
        `the server's own limit below full CPU, ${checked.limit} the server's limit, ${checked.other} other`);
      assert.ok(checked.busy + checked.own + checked.limit > 0, 'no version 1 level to judge by its point\'s CPU');
      await page.screenshot({ path: screenshotPath('run-v1-floors'), fullPage: true });

      // The summary crosses and marks exactly those floors, with the same reason.
      const ids = v1Runs.map((r) => encodeURIComponent(r.result.run_id)).join(',');
      await page.goto(`${site.origin}/index.html#runs=${ids}`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      const chart = await page.evaluate(probeChart, 'chart-saturation');
      for (const { file, result } of v1Runs) {
        const floors = result.levels.filter((l) => l.saturation && isFloor(l));
        const marks = chart.series.filter((s) => s.role === 'floor-mark' && s.run === result.run_id).flatMap((s) => s.data);
        assert.deepEqual(marks, floors.map((l) => [l.concurrency, l.saturation.received_per_s]), file);
        const cells = page.locator(`#summary-table tbody[data-run-id="${result.run_id}"] td.floor`);
        assert.equal(await cells.count(), floors.length, file);
        for (const [i, level] of floors.entries()) {
          const cpu = saturationServerCpu(level);
          if (cpu == null || cpu >= SERVER_BUSY_PCT || level.saturation.client_bound || level.end_reason !== 'overloaded') continue;
          assert.ok((await cells.nth(i).innerText()).endsWith(`a floor: ${busyReason(level)}`),
            `${file} N=${level.concurrency}: ${await cells.nth(i).innerText()}`);
        }
        // The server's own limits below full CPU are labelled, not crossed.
        const own = result.levels.filter((l) => l.saturation && isOwnLimit(l));
        const labels = page.locator(`#summary-table tbody[data-run-id="${result.run_id}"] .limit-note`);
        assert.deepEqual(await labels.allInnerTexts(), own.map(ownLimitLabel), file);
      }
    });
  });
});
