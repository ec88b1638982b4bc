'use strict';
// A phone-sized window (420 px): no page-level horizontal scrolling on the
// summary, a run page or a 2011 page; wide tables scroll inside their own
// box; controls wrap inside the screen; charts fit; no console errors.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { SLOW, startSite, resultsDirWithHistoric, historicDocs, screenshotPath } = require('./harness');
const { FIXTURES_DIR, realRuns } = require('./fixtures');
const { openPage, usePage } = require('./browser');
const { probeChart, pointOnPage } = require('./page-probes');
const { assertDrawn } = require('./checks');

const WIDTH = 420;

let site;
before(async () => { site = await startSite('small-screen', resultsDirWithHistoric('small-screen', FIXTURES_DIR)); }, SLOW);
after(async () => { if (site) await site.close(); });

/** Elements (other than those inside a scroll box) that reach past the right edge. */
function overflowingElements(width) {
  const outside = [];
  for (const node of document.querySelectorAll('body *')) {
    if (node.closest('.table-scroll')) continue;
    const box = node.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 0.5) outside.push(`${node.tagName.toLowerCase()}#${node.id}.${node.className} right=${Math.round(box.right)}`);
  }
  return outside.slice(0, 5);
}

async function openNarrow(path) {
  const page = await openPage(site.browser);
  await page.setViewportSize({ width: WIDTH, height: 900 });
  await page.goto(`${site.origin}/${path}`);
  await page.waitForSelector('canvas.flot-base');
  return page;
}

async function assertFits(page, what) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= WIDTH, `${what}: page is ${scrollWidth} px wide at ${WIDTH} px: ${(await page.evaluate(overflowingElements, WIDTH)).join('; ')}`);
}

describe(`at ${WIDTH} px`, () => {
  test('the summary fits the screen; its table scrolls in its own box; the controls wrap', SLOW, async () => {
    await usePage(await openNarrow('index.html'), async (page) => {
      await assertFits(page, 'summary (like for like)');
      const buttons = await page.$$eval('#group-picks button, #quick-picks button, #y-scale-selector',
        (nodes) => nodes.map((n) => n.getBoundingClientRect().right));
      assert.ok(buttons.every((right) => right <= 420), `controls past the edge: ${buttons}`);
      const table = await page.$eval('#summary-table', (t) => {
        const box = t.closest('.table-scroll');
        return { scrolls: box.scrollWidth > box.clientWidth, boxWidth: box.getBoundingClientRect().width };
      });
      assert.ok(table.scrolls, 'the wide table scrolls inside .table-scroll');
      assert.ok(table.boxWidth <= WIDTH);
      const chart = await page.evaluate(probeChart, 'chart-saturation');
      assertDrawn(chart, 'saturation chart at 420 px');
      const plotRight = await page.$eval('#chart-saturation', (n) => n.getBoundingClientRect().right);
      assert.ok(plotRight <= WIDTH, `chart reaches ${plotRight} px`);

      // Hover still reads values on a narrow screen.
      const run = realRuns.find((r) => r.result.server.mode !== 'fast' && r.result.levels.some((l) => l.saturation));
      const level = run.result.levels.find((l) => l.saturation);
      await page.locator('#chart-saturation').scrollIntoViewIfNeeded();
      const target = await page.evaluate(pointOnPage, ['chart-saturation', level.concurrency, level.saturation.received_per_s]);
      await page.mouse.move(target.clientX, target.clientY);
      await page.waitForFunction(() => /connections/.test(document.querySelector('#legend-saturation .legend-caption').textContent));
      await page.mouse.move(2, 2);
      await page.screenshot({ path: screenshotPath('summary-420'), fullPage: true });

      await page.getByRole('button', { name: 'All runs' }).click();
      await assertFits(page, 'summary (all runs)');
    });
  });

  for (const run of realRuns) {
    test(`the run page of ${run.file} fits the screen, run selector included`, SLOW, async () => {
      await usePage(await openNarrow(`run.html?run=${encodeURIComponent(run.result.run_id)}`), async (page) => {
        await assertFits(page, run.file);
        const select = await page.$eval('#run-switcher', (n) => n.getBoundingClientRect().right);
        assert.ok(select <= WIDTH, `run selector reaches ${select} px`);
        assertDrawn(await page.evaluate(probeChart, 'chart-sent'), 'sent chart at 420 px');
        if (run === realRuns[0]) await page.screenshot({ path: screenshotPath('run-420'), fullPage: true });
      });
    });
  }

  test('a 2011 run page fits the screen', SLOW, async () => {
    const doc = historicDocs()[0];
    await usePage(await openNarrow(`run.html?run=${encodeURIComponent(doc.run_id)}`), async (page) => {
      await assertFits(page, doc.run_id);
    });
  });
});
