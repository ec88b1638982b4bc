'use strict';
// Builds the site from site/test/fixtures (real result files plus deliberately
// broken ones) and from an empty directory, serves each build over HTTP and
// checks the pages in headless Chromium. Screenshots: site/test-output/*.png.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const { startStaticServer } = require('./static-server');
const { launchChromium, openPage } = require('./browser');
const { probeChart, probeThresholdLine, pointOnPage } = require('./page-probes');
const format = require('../src/js/format');

const SITE_DIR = path.join(__dirname, '..');
const OUTPUT_DIR = path.join(SITE_DIR, 'test-output');
const FIXTURES_DIR = path.resolve(process.env.SITE_TEST_FIXTURES || path.join(__dirname, 'fixtures'));
const FIXTURE_BUILD = path.join(OUTPUT_DIR, 'dist-fixtures');
const EMPTY_RESULTS = path.join(OUTPUT_DIR, 'empty-results');
const EMPTY_BUILD = path.join(OUTPUT_DIR, 'dist-empty');
const DERIVED_RESULTS = path.join(OUTPUT_DIR, 'derived-results');
const DERIVED_BUILD = path.join(OUTPUT_DIR, 'dist-derived');
// CPU is shared with other builds: be patient.
const SLOW = { timeout: 240000 };

// The fixtures, read straight from disk: the oracle the pages are checked against.
const fixtureFiles = fs.readdirSync(FIXTURES_DIR)
  .filter((name) => name.endsWith('.json') && name !== 'schema.json').sort();
const brokenFiles = fixtureFiles.filter((name) => name.startsWith('invalid-'));
const realRuns = fixtureFiles
  .filter((name) => !name.startsWith('invalid-'))
  .map((name) => ({
    file: name,
    bytes: fs.readFileSync(path.join(FIXTURES_DIR, name)),
    result: JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, name), 'utf8')),
  }));

function build(resultsDir, outDir) {
  const run = spawnSync(process.execPath,
    [path.join(SITE_DIR, 'build', 'build-site.js'), '--results', resultsDir, '--out', outDir],
    { encoding: 'utf8', timeout: 120000 });
  assert.equal(run.status, 0, `build-site failed:\n${run.stdout}\n${run.stderr}`);
  assert.ok(run.stdout.trim().endsWith(path.join(outDir, 'index.html')), `build must print index.html's path:\n${run.stdout}`);
  return run;
}

function httpGet(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (response) => {
      const chunks = [];
      response.on('data', (c) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

function screenshotName(text) {
  return path.join(OUTPUT_DIR, `${text.replace(/[^A-Za-z0-9._-]+/g, '_')}.png`);
}

/**
 * RTT at x along the straight segments between points in ramp order (first
 * crossing); on a log rate axis the segments are straight in log x.
 */
function expectedRttAt(points, field, stat, x, logX) {
  const f = logX ? Math.log : (v) => v;
  const xy = points.filter((p) => p.rtt_ms[stat] != null).map((p) => [p[field], p.rtt_ms[stat]]);
  for (let i = 0; i + 1 < xy.length; i++) {
    const [x0, y0] = xy[i];
    const [x1, y1] = xy[i + 1];
    if ((x0 <= x && x <= x1) || (x1 <= x && x <= x0)) {
      return x0 === x1 ? y0 : y0 + ((y1 - y0) * (f(x) - f(x0))) / (f(x1) - f(x0));
    }
  }
  return null;
}

function msFromText(text) {
  const match = /([\d,.]+) ms/.exec(text);
  return match ? Number(match[1].replace(/,/g, '')) : null;
}

function assertDrawn(chart, what) {
  assert.ok(chart, `${what}: no flot plot`);
  assert.ok(chart.inked > 1000, `${what}: canvas is blank (${chart.inked} inked pixels)`);
  const lines = chart.series.filter((s) => s.lines);
  lines.forEach((series, i) => {
    // Two runs can measure (nearly) the same figures, e.g. saturation at the
    // offered rate; a line drawn later then covers this one on the canvas.
    const near = ([x0, y0], [x1, y1]) => Math.abs(x0 - x1) <= 3 && Math.abs(y0 - y1) <= 3;
    const coveredLater = lines.slice(i + 1).some((later) => later.pixels.length === series.pixels.length &&
      series.pixels.every((p, k) => near(p, later.pixels[k])));
    if (coveredLater) return;
    assert.ok(chart.colorPixels[series.color] > 20,
      `${what}: series ${series.color} has ${chart.colorPixels[series.color]} pixels of its colour`);
  });
}

/**
 * A real run turned into the cases the fixtures lack, without inventing a
 * number: measurements are only taken away or flagged. No server pid, so no
 * RSS or server CPU; its last level never connected and has no points; and
 * the saturation point of an earlier level is flagged client-bound (as if the
 * client had fallen behind there), with the warning the client would write.
 */
function derivedRun(result) {
  const derived = JSON.parse(JSON.stringify(result));
  derived.run_id = `${result.run_id}-derived`;
  derived.server.pid = null;
  for (const point of derived.levels.flatMap((l) => l.points)) {
    point.server_rss_bytes = null;
    point.server_cpu_pct = null;
  }
  const last = derived.levels[derived.levels.length - 1];
  Object.assign(last, { connected: 0, points: [], saturation: null, end_reason: 'connect_failed' });
  derived.warnings.push(`N=${last.concurrency}: connect_failed (0 of ${last.concurrency} connected)`);

  const flagged = derived.levels.slice(0, -1).find((l) => l.saturation);
  if (flagged) {
    const point = flagged.points.find((p) => p.state === 'ok' && p.received_per_s === flagged.saturation.received_per_s);
    Object.assign(point, { client_bound: true, client_bound_reasons: ['send_rate'] });
    flagged.saturation.client_bound = true;
    derived.warnings.push(`N=${flagged.concurrency}: 1 client-bound point (send_rate)`);
  }
  return { derived, flagged };
}

function hasTwoMeasuredPoints(level) {
  return level.points.filter((p) => p.rtt_ms.mean != null).length >= 2;
}

let browser;
let server;

before(async () => {
  assert.ok(realRuns.length > 0,
    `no real result file in ${FIXTURES_DIR}: the browser tests need at least one (see fixtures/README.md)`);
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  fs.rmSync(EMPTY_RESULTS, { recursive: true, force: true });
  fs.mkdirSync(EMPTY_RESULTS, { recursive: true });
  build(FIXTURES_DIR, FIXTURE_BUILD);
  build(EMPTY_RESULTS, EMPTY_BUILD);
  fs.rmSync(DERIVED_RESULTS, { recursive: true, force: true });
  fs.mkdirSync(DERIVED_RESULTS, { recursive: true });
  fs.writeFileSync(path.join(DERIVED_RESULTS, 'derived.json'), JSON.stringify(derivedRun(realRuns[0].result).derived, null, 2));
  build(DERIVED_RESULTS, DERIVED_BUILD);
  server = await startStaticServer({ '/fixtures/': FIXTURE_BUILD, '/empty/': EMPTY_BUILD, '/derived/': DERIVED_BUILD });
  browser = await launchChromium();
}, SLOW);

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

test('the fixtures include a run the crosshair test can use', () => {
  assert.ok(realRuns.some((run) => run.result.levels.some(hasTwoMeasuredPoints)),
    'no fixture has a level with two measured points');
});

describe('summary page built from the fixtures', () => {
  test('draws both charts, lists every run with its raw JSON, lists the broken files', SLOW, async () => {
    const page = await openPage(browser);
    try {
      await page.goto(`${server.origin}/fixtures/index.html`);
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
        const raw = await httpGet(new URL(href, `${server.origin}/fixtures/index.html`).href);
        assert.equal(raw.status, 200);
        assert.ok(raw.body.equals(run.bytes), `raw link of ${run.file} does not serve the file as committed`);
      }

      const listedErrors = await page.$$eval('#result-errors li.result-error', (items) => items.map((i) => i.dataset.source));
      assert.deepEqual(listedErrors.sort(), brokenFiles);
      assert.ok(await page.isVisible('#result-errors'));

      await page.screenshot({ path: screenshotName('summary'), fullPage: true });
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });

  test('unticking a run removes it from the overlay; "All runs" brings it back; hover reads values', SLOW, async () => {
    const page = await openPage(browser);
    try {
      await page.goto(`${server.origin}/fixtures/index.html`);
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
    const page = await openPage(browser);
    try {
      await page.goto(`file://${path.join(FIXTURE_BUILD, 'index.html')}`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      assertDrawn(await page.evaluate(probeChart, 'chart-saturation'), 'saturation chart from file://');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
});

for (const run of realRuns) {
  const r = run.result;
  describe(`run page of ${run.file}`, () => {
    test('draws both RTT charts with axis labels, threshold and client-bound marks', SLOW, async () => {
      const page = await openPage(browser);
      try {
        await page.goto(`${server.origin}/fixtures/run.html?run=${encodeURIComponent(r.run_id)}`);
        await page.waitForSelector('#chart-received canvas.flot-base');
        assert.equal(await page.textContent('#run-title'), r.label);
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
          assert.equal(chart.series.filter((s) => s.lines).length, r.levels.filter((l) => l.points.some((p) => p.rtt_ms.mean != null)).length);
          assert.match(chart.thresholdLabel, new RegExp(`^${r.parameters.ok_mean_ms} ms saturation threshold`));
          const line = await page.evaluate(probeThresholdLine, [id, r.parameters.ok_mean_ms]);
          assert.ok(line.redShare > 0.4, `${id}: threshold line covers only ${Math.round(line.redShare * 100)}% of its row`);
          const crosses = chart.series.filter((s) => s.symbol === 'cross').reduce((n, s) => n + s.data.length, 0);
          assert.equal(crosses, clientBoundPoints, `${id}: client-bound marks`);
        }
        const key = await page.innerText('#legend-sent');
        assert.ok(key.includes(clientBoundPoints ? `client-bound point (${clientBoundPoints})` : 'no client-bound points'));
        assert.deepEqual(page.problems, []);
      } finally {
        await page.close();
      }
    });

    test('legend checkbox hides its series in both charts; stat selector switches to p99', SLOW, async () => {
      const page = await openPage(browser);
      try {
        await page.goto(`${server.origin}/fixtures/run.html?run=${encodeURIComponent(r.run_id)}`);
        await page.waitForSelector('#chart-received canvas.flot-base');
        const checkbox = page.locator('#legend-sent input[type=checkbox]:not([disabled])').first();
        const level = await checkbox.getAttribute('data-key');
        const before = await page.evaluate(probeChart, 'chart-sent');
        const levelColor = before.series.find((s) => s.lines && JSON.stringify(s.data) === JSON.stringify(
          r.levels.find((l) => String(l.concurrency) === level).points
            .filter((p) => p.rtt_ms.mean != null).map((p) => [p.sent_per_s, p.rtt_ms.mean]))).color;
        assert.ok(before.colorPixels[levelColor] > 20);

        await checkbox.uncheck();
        for (const id of ['chart-sent', 'chart-received']) {
          const after = await page.evaluate(probeChart, id);
          assert.equal(after.series.filter((s) => s.lines).length, before.series.filter((s) => s.lines).length - 1, id);
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
        assert.deepEqual(page.problems, []);
      } finally {
        await page.close();
      }
    });

    test('crosshair legend shows the interpolated RTT under the cursor, on linear and log rate axes', SLOW, async (t) => {
      const level = r.levels.find((l) => hasTwoMeasuredPoints(l));
      if (!level) {
        t.skip('no level of this run has two measured points to interpolate between');
        return;
      }
      const page = await openPage(browser);
      try {
        await page.goto(`${server.origin}/fixtures/run.html?run=${encodeURIComponent(r.run_id)}`);
        await page.waitForSelector('#chart-sent canvas.flot-base');
        const points = level.points.filter((p) => p.rtt_ms.mean != null);
        const valueCell = page.locator(`#legend-sent li[data-key="${level.concurrency}"] .legend-value`);
        // Aim between the first two points, where the curve is defined, on a linear then a log rate axis.
        for (const logX of [false, true]) {
          if (logX) {
            await page.mouse.move(2, 2);
            await page.selectOption('#x-scale-selector', 'log');
            assert.match(await page.evaluate(() => location.search), /xscale=log/);
            assert.equal(await page.evaluate(() => window.jQuery('#chart-sent').data('plot').getAxes().xaxis.options.mode), 'log');
            assertDrawn(await page.evaluate(probeChart, 'chart-sent'), 'chart-sent on a log rate axis');
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
          if (!logX) await page.screenshot({ path: screenshotName(`run-${r.run_id}`), fullPage: true });
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
        assert.deepEqual(page.problems, []);
      } finally {
        await page.close();
      }
    });
  });
}

describe('site built from a real run with memory removed, a level unconnected and a point flagged client-bound', () => {
  test('both pages render, say what is missing, and log no errors', SLOW, async () => {
    const page = await openPage(browser);
    try {
      await page.goto(`${server.origin}/derived/index.html`);
      await page.waitForSelector('#chart-rss canvas.flot-base');
      assert.match(await page.innerText('#chart-rss .chart-empty'), /No run recorded server memory/);
      assert.ok((await page.evaluate(probeChart, 'chart-rss')).inked > 1000, 'the empty RSS chart still draws its grid');
      assert.equal(await page.isDisabled('#legend-rss input[type=checkbox]'), true);
      const lastRow = page.locator('#summary-table tbody tr').last();
      assert.match(await lastRow.innerText(), /none ok/);
      await page.screenshot({ path: screenshotName('summary-derived'), fullPage: true });

      const { derived } = derivedRun(realRuns[0].result);
      await page.goto(`${server.origin}/derived/run.html?run=${encodeURIComponent(derived.run_id)}`);
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
    const page = await openPage(browser);
    try {
      await page.goto(`${server.origin}/derived/run.html?run=${encodeURIComponent(derived.run_id)}`);
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
      await page.screenshot({ path: screenshotName('run-derived-client-bound'), fullPage: true });

      await page.goto(`${server.origin}/derived/index.html`);
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

describe('site built from an empty results directory', () => {
  test('summary explains how to produce results; no charts, no errors', SLOW, async () => {
    const page = await openPage(browser);
    try {
      await page.goto(`${server.origin}/empty/index.html`);
      await page.waitForSelector('#empty-state', { state: 'visible' });
      const text = await page.innerText('#empty-state');
      assert.match(text, /No results yet/);
      assert.match(text, /make bench-pypy/);
      assert.match(text, /make site/);
      assert.equal(await page.isVisible('#summary'), false);
      assert.equal(await page.isVisible('#result-errors'), false);
      assert.equal(await page.locator('canvas').count(), 0);
      await page.screenshot({ path: screenshotName('empty'), fullPage: true });

      await page.goto(`${server.origin}/empty/run.html`);
      await page.waitForSelector('#page-notice', { state: 'visible' });
      assert.match(await page.innerText('#page-notice'), /no valid runs yet/);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
});
