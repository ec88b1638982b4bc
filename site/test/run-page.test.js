'use strict';
// Every fixture run's chart page (run.html?run=<id>) in headless Chromium:
// both RTT charts, axis labels, threshold (mean only), saturation marks, card
// stamps, legend checkboxes, the statistic selector, the crosshair legend,
// point details, the shared y range; and a 2011 historic run's page.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { SLOW, startSite, resultsDirWithHistoric, historicDocs, screenshotPath } = require('./harness');
const { FIXTURES_DIR, realRuns, hasTwoMeasuredPoints, expectedRttAt } = require('./fixtures');
const { openPage, usePage } = require('./browser');
const { probeChart, probeThresholdLine, pointOnPage } = require('./page-probes');
const { msFromText, assertDrawn } = require('./checks');
const format = require('../src/js/format');
const algorithm = require('../src/js/algorithm');
const messagesPerFrame = require('../src/js/messages-per-frame');

// Messages per frame, where a run has them and where it has not. No fixture
// records them yet (the field is newer than every fixture), so the run that
// has them is made at test time from a real one-frame-per-message run without
// adding a number: such a server sends every message in a frame of its own, so
// each point's frames and messages are both its own `received` count and every
// statistic is 1. The same run as committed is the one that lacks them.
const perMessageRun = realRuns.find((run) => algorithm.algorithmOf(run) === 'per-message' &&
  !messagesPerFrame.runRecords(run.result));
function withOneMessagePerFrame(result) {
  const copy = JSON.parse(JSON.stringify(result));
  copy.run_id = `${result.run_id}-frames`;
  for (const point of copy.levels.flatMap((level) => level.points)) {
    if (!(point.received > 0)) continue;
    point.messages_per_frame = {
      frames: point.received, messages: point.received, mean: 1, p50: 1, p90: 1, p99: 1, max: 1,
      per_connection: { min: 1, p50: 1, max: 1 },
    };
  }
  return copy;
}
const framesRun = perMessageRun ? withOneMessagePerFrame(perMessageRun.result) : null;

let site;
before(async () => {
  const extra = framesRun ? { 'derived-messages-per-frame.json': framesRun } : {};
  site = await startSite('run-page', resultsDirWithHistoric('run-page', FIXTURES_DIR, extra));
}, SLOW);
after(async () => { if (site) await site.close(); });

test('the fixtures include a run the crosshair test can use', () => {
  assert.ok(realRuns.some((run) => run.result.levels.some(hasTwoMeasuredPoints)),
    'no fixture has a level with two measured points');
});

for (const run of realRuns) {
  const r = run.result;
  describe(`run page of ${run.file}`, () => {
    test('draws both RTT charts with axis labels, threshold and client-bound marks', SLOW, async () => {
      await usePage(await openPage(site.browser), async (page) => {
        await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(r.run_id)}`);
        await page.waitForSelector('#chart-received canvas.flot-base');
        assert.equal(await page.textContent('#run-title'), r.server.peer ? `${r.label} (peer)` : r.label);
        const header = await page.innerText('#run-environment');
        for (const fact of [r.machine.cpu_model, r.server.runtime_version, r.client.jvm_version]) {
          assert.ok(header.includes(fact), `run header lacks "${fact}"`);
        }
        for (const warning of r.warnings) assert.ok(header.includes(warning), `warning not shown: ${warning}`);

        const clientBoundPoints = r.levels.flatMap((l) => l.points).filter((p) => p.client_bound && p.rtt_ms.mean != null).length;
        for (const [id, xTitle] of [['chart-sent', 'Messages sent per second (msgs/s)'],
          ['chart-received', 'Messages received per second (msgs/s)']]) {
          const chart = await page.evaluate(probeChart, id);
          assertDrawn(chart, id);
          assert.deepEqual(chart.axisLabels.sort(), [xTitle, 'Mean round-trip time (ms)'].sort());
          assert.equal(chart.series.filter((s) => s.role === 'points').length, r.levels.filter((l) => l.points.some((p) => p.rtt_ms.mean != null)).length);
          // Every level with a saturation point has it ringed, where the file puts it.
          const axisField = id === 'chart-sent' ? 'sent_per_s' : 'received_per_s';
          const expectedMarks = r.levels.filter((l) => l.saturation).map((l) => {
            const p = l.points.find((q) => q.state === 'ok' && q.received_per_s === l.saturation.received_per_s);
            return [[p[axisField], p.rtt_ms.mean]];
          });
          assert.deepEqual(chart.series.filter((s) => s.role === 'saturation').map((s) => s.data), expectedMarks, `${id}: saturation marks`);
          assert.match(chart.thresholdLabel, new RegExp(`^${r.parameters.ok_mean_ms} ms saturation threshold`));
          const line = await page.evaluate(probeThresholdLine, [id, r.parameters.ok_mean_ms]);
          assert.ok(line.redShare > 0.4, `${id}: threshold line covers only ${Math.round(line.redShare * 100)}% of its row`);
          const crosses = chart.series.filter((s) => s.symbol === 'cross').reduce((n, s) => n + s.data.length, 0);
          assert.equal(crosses, clientBoundPoints, `${id}: client-bound marks`);
        }
        const key = await page.innerText('#legend-sent');
        assert.ok(key.includes(clientBoundPoints ? `client-bound point (${clientBoundPoints})` : 'no client-bound points'));
        // A cropped chart keeps its identity: name, runtime, mode and date on the card.
        const stamp = await page.textContent('#stamp-sent');
        for (const fact of [r.label, `${r.server.runtime} ${r.server.runtime_version}`, format.utcMinute(r.started_at)]) {
          assert.ok(stamp.includes(fact), `card stamp lacks "${fact}": ${stamp}`);
        }
        assert.match(stamp, r.server.mode === 'fast' ? /mode fast \(coalesced\)/ : /mode .*\(one frame per message\)/);
      });
    });

    test('legend checkbox hides its series in both charts; stat selector switches to p99', SLOW, async () => {
      await usePage(await openPage(site.browser), async (page) => {
        await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(r.run_id)}`);
        await page.waitForSelector('#chart-received canvas.flot-base');
        const checkbox = page.locator('#legend-sent input[type=checkbox]:not([disabled])').first();
        const level = await checkbox.getAttribute('data-key');
        const before = await page.evaluate(probeChart, 'chart-sent');
        const levelColor = before.series.find((s) => s.role === 'points' && JSON.stringify(s.data) === JSON.stringify(
          r.levels.find((l) => String(l.concurrency) === level).points
            .filter((p) => p.rtt_ms.mean != null).map((p) => [p.sent_per_s, p.rtt_ms.mean]))).color;
        assert.ok(before.colorPixels[levelColor] > 20);

        await checkbox.uncheck();
        for (const id of ['chart-sent', 'chart-received']) {
          const after = await page.evaluate(probeChart, id);
          assert.equal(after.series.filter((s) => s.role === 'points').length, before.series.filter((s) => s.role === 'points').length - 1, id);
          assert.ok(!after.series.some((s) => s.color === levelColor), `${id} still has the hidden series`);
          assert.ok(after.colorPixels[levelColor] === undefined);
        }
        assert.equal(await page.isChecked(`#legend-received input[data-key="${level}"]`), false);
        await page.locator(`#legend-sent input[data-key="${level}"]`).check();
        assert.equal((await page.evaluate(probeChart, 'chart-sent')).series.length, before.series.length);

        await page.selectOption('#stat-selector', 'p99');
        const p99 = await page.evaluate(probeChart, 'chart-sent');
        assert.ok(p99.axisLabels.includes('p99 round-trip time (ms)'), p99.axisLabels.join(' | '));
        const firstLevel = r.levels.find((l) => l.points.some((p) => p.rtt_ms.p99 != null));
        const expected = firstLevel.points.filter((p) => p.rtt_ms.p99 != null).map((p) => [p.sent_per_s, p.rtt_ms.p99]);
        assert.ok(p99.series.some((s) => JSON.stringify(s.data) === JSON.stringify(expected)), 'p99 series not plotted');
        assert.match(await page.evaluate(() => location.search), /stat=p99/);
        // The 200 ms threshold is a mean threshold: no band or line on a percentile axis, and the legend says why.
        assert.equal(p99.thresholdLabel, null);
        const line = await page.evaluate(probeThresholdLine, ['chart-sent', r.parameters.ok_mean_ms]);
        assert.ok(line.redShare < 0.2, `p99 axis still draws the threshold (${Math.round(line.redShare * 100)}% of its row red)`);
        assert.match(await page.innerText('#legend-sent'), /no shading: the 200 ms threshold applies to mean RTT, not to p99/);
      });
    });

    test('crosshair legend shows the interpolated RTT under the cursor, on linear and log rate axes', SLOW, async (t) => {
      const level = r.levels.find((l) => hasTwoMeasuredPoints(l));
      if (!level) {
        t.skip('no level of this run has two measured points to interpolate between');
        return;
      }
      await usePage(await openPage(site.browser), async (page) => {
        await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(r.run_id)}`);
        await page.waitForSelector('#chart-sent canvas.flot-base');
        const points = level.points.filter((p) => p.rtt_ms.mean != null);
        const valueCell = page.locator(`#legend-sent li[data-key="${level.concurrency}"] .legend-value`);
        // Aim between the first two points, where the curve is defined, on a log (the default) then a linear rate axis.
        assert.equal(await page.evaluate(() => window.jQuery('#chart-sent').data('plot').getAxes().xaxis.options.mode), 'log');
        for (const logX of [true, false]) {
          if (!logX) {
            await page.mouse.move(2, 2);
            await page.selectOption('#x-scale-selector', 'linear');
            assert.match(await page.evaluate(() => location.search), /xscale=linear/);
            assert.notEqual(await page.evaluate(() => window.jQuery('#chart-sent').data('plot').getAxes().xaxis.options.mode), 'log');
            assertDrawn(await page.evaluate(probeChart, 'chart-sent'), 'chart-sent on a linear rate axis');
          }
          const x = logX
            ? Math.sqrt(points[0].sent_per_s * points[1].sent_per_s)
            : (points[0].sent_per_s + points[1].sent_per_s) / 2;
          const y = (points[0].rtt_ms.mean + points[1].rtt_ms.mean) / 2;
          await page.locator('#chart-sent').scrollIntoViewIfNeeded();
          const target = await page.evaluate(pointOnPage, ['chart-sent', x, y]);
          await page.mouse.move(target.clientX, target.clientY);
          await page.waitForFunction(() => /msgs\/s sent/.test(document.querySelector('#legend-sent .legend-caption').textContent));
          const shown = msFromText(await valueCell.innerText());
          const expected = expectedRttAt(level.points, 'sent_per_s', 'mean', target.dataX, logX);
          assert.ok(expected != null && shown != null, `value cell: "${await valueCell.innerText()}"`);
          assert.ok(Math.abs(shown - expected) <= Math.max(0.01, expected * 0.01),
            `${logX ? 'log' : 'linear'} axis: shown ${shown} ms, expected ${expected} ms`);
          if (logX) await page.screenshot({ path: screenshotPath(`run-${r.run_id}`), fullPage: true });
        }

        // Right on a measured point, the details line shows that point's measurements.
        const onPoint = await page.evaluate(pointOnPage, ['chart-sent', points[1].sent_per_s, points[1].rtt_ms.mean]);
        await page.mouse.move(onPoint.clientX, onPoint.clientY);
        await page.waitForFunction(() => /target/.test(document.getElementById('details-sent').textContent));
        const details = await page.textContent('#details-sent');
        assert.ok(details.startsWith(`${level.concurrency} connections, target ${format.rate(points[1].target_rate)} msgs/s`), details);
        assert.ok(details.includes(`RTT mean ${format.ms(points[1].rtt_ms.mean)}`), details);
        assert.ok(details.includes(`state ${points[1].state}`), details);

        await page.mouse.move(2, 2);
        await page.waitForFunction(() => /Hover/.test(document.querySelector('#legend-sent .legend-caption').textContent));
        assert.match(await page.textContent('#details-sent'), /none/);
        assert.equal(await valueCell.innerText(), '');
      });
    });
  });
}

describe('messages per frame beside the rate', () => {
  /** The level table's saturation cells, level by level, and the note under the table. */
  async function levelTableFrames(page) {
    return page.evaluate(() => ({
      cells: [...document.querySelectorAll('#level-table tbody tr')].map((row) => row.cells[3].innerText),
      notes: [...document.querySelectorAll('.frames-not-recorded')].map((p) => p.textContent),
    }));
  }

  /** The hover details of the first level's second measured point on the sent chart. */
  async function hoverDetails(page, result) {
    const level = result.levels.find((l) => l.points.filter((p) => p.rtt_ms.mean != null).length >= 2);
    const point = level.points.filter((p) => p.rtt_ms.mean != null)[1];
    await page.locator('#chart-sent').scrollIntoViewIfNeeded();
    const target = await page.evaluate(pointOnPage, ['chart-sent', point.sent_per_s, point.rtt_ms.mean]);
    await page.mouse.move(target.clientX, target.clientY);
    await page.waitForFunction(() => /target/.test(document.getElementById('details-sent').textContent));
    return { point, details: await page.textContent('#details-sent') };
  }

  test('a run whose points record it shows "1 msg/frame" under each saturation figure and on hover', SLOW, async (t) => {
    if (!framesRun) {
      t.skip('no one-frame-per-message fixture to make the run from');
      return;
    }
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(framesRun.run_id)}`);
      await page.waitForSelector('#chart-sent canvas.flot-base');
      const { cells, notes } = await levelTableFrames(page);
      assert.deepEqual(notes, []);
      framesRun.levels.forEach((level, i) => {
        assert.equal(/1 msg\/frame/.test(cells[i]), level.saturation != null, `level ${level.concurrency}: ${cells[i]}`);
      });
      const { point, details } = await hoverDetails(page, framesRun);
      assert.ok(details.includes(`received ${format.rate(point.received_per_s)}/s, 1 msg/frame`), details);
    });
  });

  test('a run without it says "not recorded" once and shows no value in the table or on hover', SLOW, async (t) => {
    if (!perMessageRun) {
      t.skip('no one-frame-per-message fixture without the field');
      return;
    }
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(perMessageRun.result.run_id)}`);
      await page.waitForSelector('#chart-sent canvas.flot-base');
      const { cells, notes } = await levelTableFrames(page);
      assert.deepEqual(notes, [messagesPerFrame.NOT_RECORDED]);
      for (const cell of cells) assert.doesNotMatch(cell, /msgs?\/frame/);
      const { point, details } = await hoverDetails(page, perMessageRun.result);
      assert.ok(details.includes(`received ${format.rate(point.received_per_s)}/s · RTT`), details);
      assert.doesNotMatch(details, /frame/);
    });
  });
});

test('"same y range for all runs" gives every run page one RTT axis', SLOW, async () => {
  await usePage(await openPage(site.browser), async (page) => {
    const axes = [];
    for (const run of realRuns) {
      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(run.result.run_id)}&yrange=all`);
      await page.waitForSelector('#chart-sent canvas.flot-base');
      assert.equal(await page.isChecked('#same-y-range'), true);
      axes.push((await page.evaluate(probeChart, 'chart-sent')).yaxis);
      assert.match(await page.textContent('#stamp-sent'), /y range shared by all runs/);
    }
    assert.ok(axes.every((a) => a.min === axes[0].min && a.max === axes[0].max), JSON.stringify(axes));
    // The y axis spans every run's points: no fixture point lies outside it.
    const all = realRuns.flatMap((run) => run.result.levels.flatMap((l) => l.points.map((p) => p.rtt_ms.mean))).filter((v) => v > 0);
    assert.ok(axes[0].min <= Math.min(...all) && axes[0].max >= Math.max(...all));
    await page.uncheck('#same-y-range');
    assert.doesNotMatch(await page.evaluate(() => location.search), /yrange/);
  });
});

for (const doc of historicDocs()) {
  test(`2011 run page of ${doc.run_id}: the original's sent and received charts, mean RTT only`, SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(doc.run_id)}`);
      await page.waitForSelector('#chart-received canvas.flot-base');
      assert.equal(await page.textContent('#run-title'), doc.label);
      for (const [id, key] of [['chart-sent', 'sent'], ['chart-received', 'received']]) {
        const chart = await page.evaluate(probeChart, id);
        assertDrawn(chart, `${doc.run_id} ${id}`);
        const lines = chart.series.filter((s) => s.role === 'points');
        assert.deepEqual(lines.map((s) => s.data), doc.levels.map((l) => l[key]), `${id}: the published series`);
        assert.equal(chart.series.filter((s) => s.role === 'saturation').length, doc.levels.filter((l) => l.saturation).length);
      }
      assert.match(await page.textContent('#stamp-sent'), /one frame per message · published 2011-12-15 · Intel Core i7-2600K/);
      const header = await page.innerText('#run-environment');
      assert.match(header, /mean RTT only/);
      assert.match(header, /results\/historic\/convert-2011\.js/);
      assert.match(header, new RegExp(doc.source.repository));
      const disabled = await page.$$eval('#stat-selector option', (options) => options.filter((o) => o.disabled).map((o) => o.value));
      assert.deepEqual(disabled, ['p50', 'p99', 'p999']);
      assert.equal(await page.locator('#level-table tbody tr').count(), doc.levels.length);
      // 2011 published no CPU: its saturation figures are shown as published, never marked as floors.
      assert.doesNotMatch(await page.innerText('#level-table tbody'), /≥|a floor/);
      if (doc.run_id === '2011-pypy') await page.screenshot({ path: screenshotPath('run-2011-pypy'), fullPage: true });
    });
  });
}
