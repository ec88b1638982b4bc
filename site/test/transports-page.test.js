'use strict';
// Runs on other SockJS transports beside a plain websocket run, built by the
// real build (so the v6 files pass results/schema.json) and checked in
// headless Chromium: the summary opens on websocket, as it always has, and
// its transport filter switches to the mix, to xhr-streaming or to every
// transport, kept in the URL; every label names the transports; the mix's run
// page draws each transport's RTT per level and tables each transport's part
// of the points; a run of one transport only names it. The v6 files are
// derived from a committed reference run (transports-derived.js).

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { SLOW, startSite, resultsDirWith, screenshotPath } = require('./harness');
const { openPage, usePage } = require('./browser');
const { probeChart, pointOnPage } = require('./page-probes');
const { assertDrawn } = require('./checks');
const { MIX, referenceRun, mixedRun, singleTransportRun } = require('./transports-derived');
const format = require('../src/js/format');
const palette = require('../src/js/palette');

const websocket = referenceRun();
const mix = mixedRun(websocket);
const single = singleTransportRun(websocket);
// Written out here from the weights 16:2:1:1 (of 20), not by the site's code.
const MIX_TEXT = 'mix websocket 80 % · xhr-streaming 10 % · eventsource 5 % · xhr-polling 5 %';
const TRANSPORT_ORDER = ['websocket', 'xhr-streaming', 'eventsource', 'xhr-polling'];

// The oracle's saturation point: state ok at the level's saturation received rate.
const saturationPoint = (level) => level.saturation
  && level.points.find((p) => p.state === 'ok' && p.received_per_s === level.saturation.received_per_s);
const transportHash = () => new URLSearchParams(location.hash.replace(/^#/, '')).get('transport');
const tableIds = (page) => page.$$eval('#summary-table tbody', (bodies) => bodies.map((b) => b.dataset.runId));

let site;
before(async () => {
  const dir = resultsDirWith('transports', { 'a-websocket.json': websocket, 'b-mix.json': mix, 'c-xhr-streaming.json': single });
  site = await startSite('transports', dir);
}, SLOW);
after(async () => { if (site) await site.close(); });

describe('a set with a websocket run, a mix of transports and an xhr-streaming run', () => {
  test('the summary opens on websocket only; the filter shows the mix, another transport or all, kept in the URL', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/index.html`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      assert.equal(await page.isVisible('#transport-filter'), true);
      const options = await page.$$eval('#transport-selector option', (os) => os.map((o) => [o.value, o.textContent]));
      assert.deepEqual(options.map(([value]) => value), ['websocket', MIX, 'xhr-streaming', 'all']);
      assert.equal(options[1][1], `${MIX_TEXT} (1 run)`);
      assert.equal(await page.inputValue('#transport-selector'), 'websocket');
      // The default is today's view of the websocket run: nothing in the hash, its plain label.
      assert.deepEqual(await tableIds(page), [websocket.run_id]);
      assert.equal(await page.evaluate(() => location.hash), '');
      assert.equal(await page.innerText(`#summary-table tbody[data-run-id="${websocket.run_id}"] .run-cell a`), websocket.label);
      assert.deepEqual((await page.evaluate(probeChart, 'chart-saturation')).series.filter((s) => s.role === 'points').map((s) => s.run),
        [websocket.run_id]);
      assert.match(await page.innerText('#stamp-saturation'), / · transports websocket/);

      // The mix alone: the page reloads on #transport=<spec>.
      await page.selectOption('#transport-selector', MIX);
      await page.waitForSelector(`#summary-table tbody[data-run-id="${mix.run_id}"]`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      assert.equal(await page.evaluate(transportHash), MIX);
      assert.deepEqual(await tableIds(page), [mix.run_id]);
      const mixBody = `#summary-table tbody[data-run-id="${mix.run_id}"]`;
      assert.equal(await page.innerText(`${mixBody} .run-cell a`), `sockjs-node · node ${websocket.server.runtime_version} · naive · ${MIX_TEXT}`,
        'the client\'s raw spec in the label is replaced by the readable mix');
      assert.match(await page.innerText(mixBody), new RegExp(`sockjs · ${MIX_TEXT}`), 'the client column names the transports');
      const chart = await page.evaluate(probeChart, 'chart-saturation');
      assertDrawn(chart, 'saturation chart of the mix');
      assert.deepEqual(chart.series.filter((s) => s.role === 'points').map((s) => s.run), [mix.run_id]);
      assert.match(await page.innerText('#legend-saturation'), new RegExp(MIX_TEXT));
      assert.match(await page.innerText('#stamp-saturation'), new RegExp(` · transports ${MIX_TEXT}`));
      assert.match(await page.innerText('#verdict-sentences'), new RegExp(`sockjs-node over ${MIX_TEXT}`));
      await page.screenshot({ path: screenshotPath('summary-transports-mix'), fullPage: true });

      // Every transport: each run once, said to be not like for like.
      await page.selectOption('#transport-selector', 'all');
      await page.waitForFunction(() => document.querySelectorAll('#summary-table tbody').length === 3);
      assert.equal(await page.evaluate(transportHash), 'all');
      assert.deepEqual((await tableIds(page)).sort(), [websocket.run_id, mix.run_id, single.run_id].sort());
      assert.match(await page.innerText('#stamp-saturation'), /every transport — not like for like/);
      assert.match(await page.innerText('#quick-picks'), /mixes algorithms and transports/);

      // A link straight to one transport; a transport the set lacks falls back to websocket. (A goto that
      // changes only the hash stays on the document: the reload reads the new hash, as opening the link would.)
      await page.goto(`${site.origin}/index.html#transport=xhr-streaming`);
      await page.reload();
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      assert.deepEqual(await tableIds(page), [single.run_id]);
      assert.equal(await page.innerText(`#summary-table tbody[data-run-id="${single.run_id}"] .run-cell a`),
        `sockjs-node · node ${websocket.server.runtime_version} · naive · xhr-streaming`);
      await page.goto(`${site.origin}/index.html#transport=eventsource`);
      await page.reload();
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      assert.deepEqual(await tableIds(page), [websocket.run_id]);
    });
  });

  test('the mix\'s run page: a chart per level with a line per transport, and a table of each transport\'s part', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(mix.run_id)}`);
      await page.waitForSelector('#transport-charts canvas.flot-base');
      assert.equal(await page.isVisible('#transports'), true);
      assert.equal(await page.innerText('#transports-mix'), MIX_TEXT);
      assert.match(await page.innerText('#run-title'), new RegExp(`naive · ${MIX_TEXT}$`));
      assert.match(await page.innerText('#run-environment'), new RegExp(`SockJS transports\\s+${MIX_TEXT}`));
      assert.match(await page.innerText('#run-meta'), new RegExp(`transports ${MIX_TEXT}`));
      assert.match(await page.innerText('#stamp-sent'), new RegExp(MIX_TEXT));

      const levels = mix.levels.filter((l) => l.points.length);
      assert.equal(await page.locator('#transport-charts .transport-card').count(), levels.length);
      for (const level of levels) {
        const id = `transport-chart-${level.concurrency}`;
        const chart = await page.evaluate(probeChart, id);
        assertDrawn(chart, id);
        const lines = chart.series.filter((s) => s.role === 'points');
        // One line per transport, in the schema's order, each in its palette colour and marker, at the point's send rate.
        assert.deepEqual(lines.map((s) => [s.color, s.symbol]),
          TRANSPORT_ORDER.map((_, i) => [palette.seriesColor(i), palette.seriesMarker(i)]));
        TRANSPORT_ORDER.forEach((transport, i) => {
          const expected = level.points.map((p) => [p.sent_per_s, p.transports.find((e) => e.transport === transport).rtt_ms.mean]);
          assert.deepEqual(lines[i].data, expected, `${level.concurrency}: ${transport}`);
        });
        assert.equal(chart.thresholdLabel, `${format.trim(mix.parameters.ok_mean_ms, 3)} ms saturation threshold (mean)`);
        const card = `#transport-charts .transport-card[data-concurrency="${level.concurrency}"]`;
        const legend = await page.$$eval(`${card} .legend-series .legend-label`, (ls) => ls.map((l) => l.textContent));
        const first = level.points[0].transports;
        assert.deepEqual(legend, first.map((e) => `${e.transport} (${e.sessions} session${e.sessions === 1 ? '' : 's'})`));

        // The table: the saturation point's rows, each transport's figures as the file holds them.
        const table = `table.transport-table[data-concurrency="${level.concurrency}"]`;
        const sat = saturationPoint(level);
        if (sat) {
          for (const entry of sat.transports) {
            const cells = await page.$$eval(`${table} tbody[data-role="saturation"] tr[data-transport="${entry.transport}"] td`,
              (tds) => tds.map((td) => td.innerText));
            const figures = cells.slice(-8);
            assert.deepEqual(figures, [entry.transport, String(entry.sessions), String(entry.sent),
              `${format.trim(entry.delivered_pct, 4)} %`, String(entry.lost), format.ms(entry.rtt_ms.p50), format.ms(entry.rtt_ms.p99), entry.state]);
          }
        }
        // And the first point measured that was not ok, where the climb ended.
        const ended = [...level.points].sort((a, b) => a.order - b.order).find((p) => p.state !== 'ok');
        assert.equal(await page.locator(`${table} tbody[data-role="ended"] tr`).count(), ended ? ended.transports.length : 0);
      }

      // Hovering a transport's point shows its figures.
      const level = levels[0];
      const point = saturationPoint(level) || level.points[0];
      const polling = point.transports.find((e) => e.transport === 'xhr-polling');
      const id = `transport-chart-${level.concurrency}`;
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      const target = await page.evaluate(pointOnPage, [id, point.sent_per_s, polling.rtt_ms.mean]);
      await page.mouse.move(target.clientX, target.clientY);
      const details = `#transport-charts .transport-card[data-concurrency="${level.concurrency}"] .point-details-box`;
      await page.waitForFunction((sel) => /^xhr-polling at /.test(document.querySelector(sel).textContent), details);
      assert.match(await page.innerText(details), new RegExp(`${polling.sessions} session\\(s\\), ${polling.sent} sent, ` +
        `${polling.received} of ${polling.expected_received} copies received`));
      await page.screenshot({ path: screenshotPath('run-transports-mix'), fullPage: true });

      // p99 from the page's selector: the lines follow, no threshold on a percentile.
      await page.selectOption('#stat-selector', 'p99');
      await page.waitForFunction((sel) => !document.querySelector(`${sel} .threshold-label`), `#${id}`);
      const p99 = (await page.evaluate(probeChart, id)).series.filter((s) => s.role === 'points');
      assert.deepEqual(p99[3].data, level.points.map((p) => [p.sent_per_s, p.transports[3].rtt_ms.p99]));
      assert.match(await page.evaluate(() => location.search), /stat=p99/);

      // Unticking a transport hides it in every level's chart.
      await page.uncheck(`#transport-charts .transport-card[data-concurrency="${level.concurrency}"] input[data-key="xhr-polling"]`);
      for (const l of levels) {
        const colours = (await page.evaluate(probeChart, `transport-chart-${l.concurrency}`)).series.map((s) => s.color);
        assert.ok(!colours.includes(palette.seriesColor(3)), `${l.concurrency}: xhr-polling still drawn`);
      }
    });
  });

  test('at 420 px the mix\'s long names wrap: neither its summary nor its run page is wider than the screen', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.setViewportSize({ width: 420, height: 900 });
      for (const path of [`index.html#transport=${encodeURIComponent(MIX)}`, `run.html?run=${encodeURIComponent(mix.run_id)}`]) {
        await page.goto(`${site.origin}/${path}`);
        await page.waitForSelector('canvas.flot-base');
        // Wide tables scroll in their own box (.table-scroll); nothing else may reach past the edge.
        const outside = await page.evaluate(() => [...document.querySelectorAll('body *')]
          .filter((n) => !n.closest('.table-scroll') && n.getBoundingClientRect().right > 420.5)
          .map((n) => `${n.tagName.toLowerCase()}#${n.id}.${n.className}`).slice(0, 5));
        assert.deepEqual(outside, [], path);
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 420, path);
      }
      await page.screenshot({ path: screenshotPath('run-transports-mix-420'), fullPage: true });
    });
  });

  test('a websocket run shows nothing new; a run of one other transport names it and draws no breakdown', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(websocket.run_id)}`);
      await page.waitForSelector('#chart-sent canvas.flot-base');
      assert.equal(await page.isHidden('#transports'), true);
      assert.doesNotMatch(await page.innerText('#run-environment'), /SockJS transports/);
      assert.doesNotMatch(await page.innerText('#run-meta'), /transports/);
      assert.equal(await page.innerText('#run-title'), websocket.label);

      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(single.run_id)}`);
      await page.waitForSelector('#chart-sent canvas.flot-base');
      assert.equal(await page.isHidden('#transports'), true);
      assert.match(await page.innerText('#run-environment'), /SockJS transports\s+xhr-streaming/);
      assert.match(await page.innerText('#run-title'), / · xhr-streaming$/);
      assert.equal(await page.locator('#transport-charts canvas').count(), 0);
    });
  });
});
