'use strict';
// The Sessions page with repetitions, a level with no ok point and a churn
// run, in headless Chromium: a three-repetition set merged by the runner's
// own merger (test/sessions-derived.js: a real run and two scaled copies),
// the real run it came from, and that run as a churn run. Each chart draws the
// median with a min–max band and error bars that span exactly the
// repetitions' min and max; the level where no repetition had an ok point is
// a ▽ at the foot of the chart, keyed in the legend and explained on hover;
// the churn run is its own line, named "· churn 5 %". Then `make charts`'s
// renderer draws the three Sessions charts as images, linked under the charts.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { SLOW, startSite, resultsDirWith } = require('./harness');
const { isFloor } = require('./fixtures');
const { openPage, usePage } = require('./browser');
const { probeChart, pointOnPage } = require('./page-probes');
const { assertDrawn } = require('./checks');
const { repeatedSessionsRun, churnSessionsRun, pointAtFive, REPETITION_FACTORS } = require('./sessions-derived');
const format = require('../src/js/format');

const { result: repeated, base } = repeatedSessionsRun();
const churn = churnSessionsRun(base);

// The oracle, from the merged file's repetitions (the site's reading is src/js/sessions-figures.js).
const FIGURES = {
  memory: (rep) => (rep.idle && rep.idle.server_bytes_per_session != null ? rep.idle.server_bytes_per_session / 1024 : null),
  saturation: (rep) => (rep.fanout_saturation ? rep.fanout_saturation.copies_per_s : null),
  'p99-at-5': (rep) => (pointAtFive(rep.points) ? pointAtFive(rep.points).fanout_ms.p99 : null),
};
const valuesAt = (level, chart) => level.runs.map(FIGURES[chart]).filter((v) => v != null).sort((a, b) => a - b);
/** [sessions, max, min] of every level measured in at least two repetitions. */
const bandOf = (chart) => repeated.levels.filter((l) => valuesAt(l, chart).length >= 2)
  .map((l) => [l.concurrency, valuesAt(l, chart).at(-1), valuesAt(l, chart)[0]]);
/** [sessions, median] (lower middle) of every level with a figure. */
const mediansOf = (chart) => repeated.levels.filter((l) => valuesAt(l, chart).length >= 2)
  .map((l) => [l.concurrency, valuesAt(l, chart)[Math.floor((valuesAt(l, chart).length - 1) / 2)]]);
/** Levels with no figure in any repetition. */
const noneAt = (chart) => repeated.levels.filter((l) => valuesAt(l, chart).length === 0).map((l) => l.concurrency);

/** Canvas pixels within `tolerance` of rgb, inside the plot area (runs in the page). */
function countPixelsNear([id, rgb, tolerance, box]) {
  const plot = window.jQuery(document.getElementById(id)).data('plot');
  const canvas = plot.getCanvas();
  const ratio = canvas.width / plot.getPlaceholder().width();
  const offset = plot.getPlotOffset();
  const area = box || { left: offset.left, top: offset.top, width: plot.width(), height: plot.height() };
  const data = canvas.getContext('2d').getImageData(Math.round(area.left * ratio), Math.round(area.top * ratio),
    Math.max(1, Math.round(area.width * ratio)), Math.max(1, Math.round(area.height * ratio))).data;
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i] - rgb[0]) + Math.abs(data[i + 1] - rgb[1]) + Math.abs(data[i + 2] - rgb[2]) <= tolerance) n++;
  }
  return n;
}

/**
 * The canvas box (CSS pixels, `half` each side) on the vertical x = `x` of chart
 * #id at `share` of the way from y = lo to y = hi as drawn: where an error bar
 * from lo to hi passes, away from the median's marker.
 */
function boxAlong([id, x, lo, hi, share, half]) {
  const plot = window.jQuery(document.getElementById(id)).data('plot');
  const offset = plot.getPlotOffset();
  const axes = plot.getAxes();
  const y = axes.yaxis.p2c(lo) + share * (axes.yaxis.p2c(hi) - axes.yaxis.p2c(lo));
  return { left: offset.left + axes.xaxis.p2c(x) - half, top: offset.top + y - half, width: 2 * half, height: 2 * half };
}

/** The canvas box (CSS pixels) around a data point of chart #id, `half` pixels each side. */
function boxAround([id, x, y, half]) {
  const plot = window.jQuery(document.getElementById(id)).data('plot');
  const offset = plot.getPlotOffset();
  const axes = plot.getAxes();
  return { left: offset.left + axes.xaxis.p2c(x) - half, top: offset.top + axes.yaxis.p2c(y) - half, width: 2 * half, height: 2 * half };
}

const rgbOf = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
/** The band's fill (the run's colour at 20 % over the white plot), as the canvas shows it. */
const bandRgb = (hex) => rgbOf(hex).map((c) => Math.round(255 + 0.2 * (c - 255)));

let site;
before(async () => {
  const dir = resultsDirWith('sessions-repeated', { 'repeated.json': repeated, 'plain.json': base, 'churn.json': churn });
  site = await startSite('sessions-repeated', dir);
}, SLOW);
after(async () => { if (site) await site.close(); });

describe('Sessions page with three repetitions, a level with no ok point, and a churn run', () => {
  test('the derived set is what the runner writes for REPEAT=3 and keeps a level with no ok point', () => {
    assert.ok(repeated.levels.every((l) => l.repetitions === REPETITION_FACTORS.length && l.runs.length === REPETITION_FACTORS.length));
    assert.ok(bandOf('saturation').length >= 2, 'two neighbouring levels with a spread');
    assert.ok(noneAt('saturation').length >= 1, 'a level with no ok point in any repetition');
  });

  for (const chart of ['memory', 'saturation', 'p99-at-5']) {
    test(`${chart}: the median line with a min–max band and error bars over the three repetitions`, SLOW, async () => {
      await usePage(await openPage(site.browser), async (page) => {
        await page.goto(`${site.origin}/sessions.html`);
        await page.waitForSelector(`#chart-${chart} canvas.flot-base`);
        const probe = await page.evaluate(probeChart, `chart-${chart}`);
        assertDrawn(probe, chart);
        const ofRun = (role) => probe.series.find((s) => s.role === role && s.run === repeated.run_id);
        assert.deepEqual(ofRun('points').data, mediansOf(chart));
        const band = ofRun('band');
        assert.ok(band, 'a band for the repeated run');
        assert.deepEqual(band.data, bandOf(chart));
        // The band is filled: its translucent colour covers real area of the plot.
        const bandPixels = await page.evaluate(countPixelsNear, [`chart-${chart}`, bandRgb(band.color), 12, null]);
        assert.ok(bandPixels > 400, `band fill drawn (${bandPixels} pixels)`);
        // Error bars: a vertical min–max stroke at each repeated level, drawn in the run's colour.
        const bars = ofRun('error-bars');
        assert.ok(bars, 'error bars for the repeated run');
        for (const [n, max, min] of bandOf(chart)) {
          const i = bars.data.findIndex((p) => p && p[0] === n && p[1] === min);
          assert.ok(i >= 0 && bars.data[i + 1][0] === n && bars.data[i + 1][1] === max, `error bar at ${n}`);
          // Between the median's marker and the cap: only the bar is drawn there in the run's full colour.
          // (Tolerance: an antialiased 1.5 px stroke covers a pixel partly; the band's 20 % tint is far further off.)
          const along = await page.evaluate(boxAlong, [`chart-${chart}`, n, min, max, 0.85, 2]);
          assert.ok(await page.evaluate(countPixelsNear, [`chart-${chart}`, rgbOf(bars.color), 130, along]) > 0, `error bar drawn at ${n}`);
        }
        // The single runs have neither.
        for (const single of [base, churn]) {
          assert.ok(!probe.series.some((s) => (s.role === 'band' || s.role === 'error-bars') && s.run === single.run_id), single.run_id);
        }
        assert.match(await page.innerText(`#legend-${chart}`),
          /band: min–max across repetitions, line: their median \(1 of 3 shown runs repeated; the rest are single runs\); error bars: the same min–max/);
      });
    });
  }

  test('a fan-out saturation that is a floor in its repetitions is dashed and crossed, "in k of 3"', SLOW, async () => {
    const floors = repeated.levels.filter((l) => l.fanout_saturation && isFloor(l, repeated.server.pid !== null));
    assert.ok(floors.length > 0, 'the real run has a fan-out saturation that is a floor');
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/sessions.html`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      const probe = await page.evaluate(probeChart, 'chart-saturation');
      const cross = probe.series.find((s) => s.role === 'floor-mark' && s.run === repeated.run_id);
      const medians = new Map(mediansOf('saturation'));
      assert.deepEqual(cross ? cross.data : [], floors.map((l) => [l.concurrency, medians.get(l.concurrency)]));
      for (const level of floors) {
        const cell = await page.locator(`section[data-run-id="${repeated.run_id}"] tr[data-level="${level.concurrency}"] td.saturation`).innerText();
        assert.match(cell, /^≥ /);
        assert.match(cell, / in \d of 3/);
      }
    });
  });

  for (const [chart, words] of [['saturation', 'no ok point'], ['p99-at-5', 'no point at 5 msgs/s']]) {
    test(`${chart}: a level with no figure in any repetition is a ▽ at the foot of the chart, keyed and explained`, SLOW, async () => {
      const levels = noneAt(chart);
      assert.ok(levels.length > 0);
      await usePage(await openPage(site.browser), async (page) => {
        await page.goto(`${site.origin}/sessions.html`);
        await page.waitForSelector(`#chart-${chart} canvas.flot-base`);
        const probe = await page.evaluate(probeChart, `chart-${chart}`);
        const marks = probe.series.filter((s) => s.role === 'no-figure');
        // One ▽ per run at each such level, side by side (none hides another), at the foot of the y axis.
        for (const result of [repeated, base, churn]) {
          const mark = marks.find((s) => s.run === result.run_id);
          assert.ok(mark, `${result.run_id}: no ▽`);
          assert.deepEqual(mark.data.map(([x]) => levels.find((n) => Math.abs(Math.log(x / n)) < Math.log(1.2))), levels);
          for (const [x, y] of mark.data) {
            const share = probe.yaxis.mode === 'log'
              ? Math.log(y / probe.yaxis.min) / Math.log(probe.yaxis.max / probe.yaxis.min)
              : (y - probe.yaxis.min) / (probe.yaxis.max - probe.yaxis.min);
            assert.ok(share > 0 && share < 0.1, `${result.run_id}: ▽ at ${share} of the axis`);
            const box = await page.evaluate(boxAround, [`chart-${chart}`, x, y, 7]);
            assert.ok(await page.evaluate(countPixelsNear, [`chart-${chart}`, rgbOf(mark.color), 80, box]) > 8, `${result.run_id}: ▽ drawn at ${x}`);
          }
          assert.equal(mark.symbol, 'no-figure');
          assert.equal(mark.hollow, true);
        }
        assert.equal(new Set(marks.flatMap((s) => s.data.map(([x]) => x))).size, marks.reduce((n, s) => n + s.data.length, 0),
          'runs missing one level stand side by side');
        const legend = await page.innerText(`#legend-${chart}`);
        assert.ok(legend.includes(`▽ at the foot of the chart: ${words} (${3 * levels.length})`), legend);
        // Hovering the level says what the ▽ means for each run, and for the repeated one in how many repetitions.
        await page.locator(`#chart-${chart}`).scrollIntoViewIfNeeded();
        const at = await page.evaluate(pointOnPage, [`chart-${chart}`, levels[0], marks[0].data[0][1]]);
        await page.mouse.move(at.clientX, at.clientY);
        await page.waitForFunction(([id, text]) => document.getElementById(id).textContent.includes(text), [`details-${chart}`, '▽']);
        const details = await page.innerText(`#details-${chart}`);
        assert.ok(details.includes(`in 3 of 3 repetitions`), details);
        assert.match(details, chart === 'saturation' ? /▽ no ok point/ : /▽ (ramp ended at [\d.]+ msgs\/s, below 5|no point at 5 msgs\/s)/);
        assert.match(await page.innerText(`#legend-${chart} li[data-key="${repeated.run_id}"] .legend-value`), /^▽ /);
      });
    });
  }

  test('hover and table say "median of 3, range a–b" for a repeated level', SLOW, async () => {
    const [n, max, min] = bandOf('saturation')[0];
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/sessions.html`);
      await page.waitForSelector('#sessions-tables table');
      const text = `median of 3, range ${format.rate(min)}–${format.rate(max)}`;
      const cell = await page.locator(`section[data-run-id="${repeated.run_id}"] tr[data-level="${n}"] td.saturation`).innerText();
      assert.ok(cell.includes(text), cell);
      await page.locator('#chart-saturation').scrollIntoViewIfNeeded();
      const at = await page.evaluate(pointOnPage, ['chart-saturation', n, new Map(mediansOf('saturation')).get(n)]);
      await page.mouse.move(at.clientX, at.clientY);
      const hover = `median of 3, range ${format.rate(min)} copies/s–${format.rate(max)} copies/s`;
      await page.waitForFunction((t) => document.getElementById('details-saturation').textContent.includes(t), hover);
    });
  });

  test('a churn run is named "· churn 5 %" and drawn as its own line, never in the plain run\'s', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/sessions.html`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      const label = (id) => page.innerText(`#legend-saturation li[data-key="${id}"] .legend-label`);
      assert.match(await label(churn.run_id), / · churn 5 % \[fast \(/);
      assert.doesNotMatch(await label(base.run_id), /churn/);
      const probe = await page.evaluate(probeChart, 'chart-saturation');
      const points = (id) => probe.series.filter((s) => s.role === 'points' && s.run === id);
      assert.equal(points(churn.run_id).length, 1);
      assert.equal(points(base.run_id).length, 1);
      assert.notEqual(points(churn.run_id)[0].color, points(base.run_id)[0].color);
      assert.match(await page.textContent(`section[data-run-id="${churn.run_id}"] h3`), /· churn 5 %/);
      assert.match(await page.innerText(`section[data-run-id="${churn.run_id}"] p.hint`), /churn 5 % of each level's sessions/);
      assert.doesNotMatch(await page.innerText(`section[data-run-id="${base.run_id}"]`), /churn/);
    });
  });

  test('make charts draws the three Sessions charts as PNG and SVG, linked under the charts', SLOW, async () => {
    const render = spawnSync(process.execPath, [path.join(__dirname, '..', 'tools', 'render-charts.js'), '--site', site.dist],
      { encoding: 'utf8', timeout: 300000 });
    assert.equal(render.status, 0, `render-charts failed:\n${render.stdout}\n${render.stderr}`);
    for (const chart of ['memory', 'saturation', 'p99-at-5']) {
      const png = fs.readFileSync(path.join(site.dist, 'charts', `sessions-${chart}.png`));
      assert.deepEqual(png.subarray(0, 8), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const svg = fs.readFileSync(path.join(site.dist, 'charts', `sessions-${chart}.svg`), 'utf8');
      assert.match(svg, /<path /, `${chart}: vector paths`);
      assert.match(svg, /fill-opacity="0\.2"/, `${chart}: the min–max band`);
      assert.ok(svg.includes('Sessions (log scale)'), `${chart}: x axis label`);
      assert.ok(svg.includes(repeated.machine.hostname), `${chart}: the machine`);
    }
    assert.ok(fs.readFileSync(path.join(site.dist, 'charts', 'sessions-saturation.svg'), 'utf8').includes('▽'), 'the ▽ key in the image');
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/sessions.html`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      for (const chart of ['memory', 'saturation', 'p99-at-5']) {
        assert.equal(await page.getAttribute(`#legend-${chart} + p.chart-images a[data-chart-image="png"]`, 'href'), `charts/sessions-${chart}.png`);
      }
      const response = await page.request.get(`${site.origin}/charts/sessions-saturation.svg`);
      assert.equal(response.status(), 200);
    });
  });
});
