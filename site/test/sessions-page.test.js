'use strict';
// The Sessions page (sessions.html) built from the real sessions-profile
// results in test/fixtures/sessions/ beside the throughput fixtures, plus one
// sessions run derived at test time (its fan-out saturation point flagged
// client-bound, as fixtures.js derivedRun flags one: nothing added), in
// headless Chromium: the three charts drawn with each run's figures as its
// file holds them, the floor dashed and crossed with its reason, "single
// run", the processes in the hover and the tables, the summary keeping the
// sessions runs off its throughput charts with a link here, and a sessions
// run's own page giving every copy's latency beside the own-copy RTT.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { SLOW, startSite, resultsDirWith, screenshotPath } = require('./harness');
const { FIXTURES_DIR, realRuns, isFloor } = require('./fixtures');
const { openPage, usePage } = require('./browser');
const { probeChart, pointOnPage } = require('./page-probes');
const { assertDrawn } = require('./checks');
const format = require('../src/js/format');

const SESSIONS_DIR = path.join(FIXTURES_DIR, 'sessions');
const sessionsRuns = fs.readdirSync(SESSIONS_DIR).filter((f) => f.endsWith('.json'))
  .map((file) => ({ file, bytes: fs.readFileSync(path.join(SESSIONS_DIR, file)), result: JSON.parse(fs.readFileSync(path.join(SESSIONS_DIR, file), 'utf8')) }));

/**
 * A real sessions run with the saturation point of its first level whose
 * fan-out figure is the server's limit flagged client-bound (as if the client
 * had fallen behind there); null when no run has such a level.
 */
function clientBoundSessionsRun(runs) {
  const base = runs.find((r) => r.result.levels.some((l) => l.saturation && !isFloor(l, r.result.server.pid !== null)));
  if (!base) return null;
  const derived = JSON.parse(JSON.stringify(base.result));
  derived.run_id = `${base.result.run_id}-client-bound`;
  const level = derived.levels.find((l) => l.saturation && !isFloor(l, derived.server.pid !== null));
  for (const rep of [level, ...(level.runs || [])]) {
    if (!rep.saturation) continue;
    rep.saturation.client_bound = true;
    const point = rep.points.find((p) => p.state === 'ok' && p.received_per_s === rep.saturation.received_per_s);
    Object.assign(point, { client_bound: true, client_bound_reasons: ['send_rate'] });
  }
  derived.warnings.push(`level ${level.concurrency}: 1 client-bound point (send_rate)`);
  return { derived, level, base: base.result };
}

// The oracle, from the files' fields (the site's own reading is src/js/sessions-figures.js).
const memoryData = (r) => r.levels.filter((l) => l.idle && l.idle.server_bytes_per_session != null)
  .map((l) => [l.concurrency, l.idle.server_bytes_per_session / 1024]);
const saturationData = (r) => r.levels.filter((l) => l.fanout_saturation).map((l) => [l.concurrency, l.fanout_saturation.copies_per_s]);
const atFive = (l) => l.points.filter((p) => Math.abs(p.target_rate - 5) <= 0.05 && p.fanout_ms).sort((a, b) => a.order - b.order)[0];
const p99Data = (r) => r.levels.filter(atFive).map((l) => [l.concurrency, atFive(l).fanout_ms.p99]);
const pointsOf = (chart, runId) => chart.series.find((s) => s.role === 'points' && s.run === runId);

const { derived, level: flaggedLevel, base: flaggedBase } = clientBoundSessionsRun(sessionsRuns);
const allSessions = [...sessionsRuns.map((r) => r.result), derived];

let site;
before(async () => {
  const dir = resultsDirWith('sessions-page', { 'derived-sessions.json': derived });
  for (const run of [...realRuns, ...sessionsRuns]) fs.writeFileSync(path.join(dir, run.file), run.bytes);
  site = await startSite('sessions-page', dir);
}, SLOW);
after(async () => { if (site) await site.close(); });

describe('Sessions page built from real sessions runs beside the throughput fixtures', () => {
  test('draws the three charts, one line per sessions run, each figure as its file holds it', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/sessions.html`);
      await page.waitForSelector('#chart-p99-at-5 canvas.flot-base');
      assert.equal(await page.isVisible('#sessions-empty'), false);
      const charts = {
        memory: [await page.evaluate(probeChart, 'chart-memory'), memoryData, 'Server memory per session (KB)'],
        saturation: [await page.evaluate(probeChart, 'chart-saturation'), saturationData, 'Fan-out saturation (copies/s)'],
        'p99-at-5': [await page.evaluate(probeChart, 'chart-p99-at-5'), p99Data, 'All-copies p99 at 5 msgs/s (ms)'],
      };
      for (const [name, [chart, data, yTitle]] of Object.entries(charts)) {
        assertDrawn(chart, name);
        assert.ok(chart.axisLabels.includes('Sessions (log scale)'), `${name}: ${chart.axisLabels}`);
        assert.ok(chart.axisLabels.some((label) => label.startsWith(yTitle)), `${name}: ${chart.axisLabels}`);
        const plotted = chart.series.filter((s) => s.role === 'points').map((s) => s.run).sort();
        const withData = allSessions.filter((r) => data(r).length > 0);
        assert.deepEqual(plotted, withData.map((r) => r.run_id).sort(), name);
        for (const result of withData) assert.deepEqual(pointsOf(chart, result.run_id).data, data(result), `${name}: ${result.run_id}`);
        // A run with nothing to draw here is listed, its checkbox disabled with the reason; on the saturation and
        // p99 charts a level without a figure is a ▽ (sessions-repeated.test.js), so such a run is drawn there.
        for (const result of allSessions.filter((r) => data(r).length === 0)) {
          const marked = name !== 'memory' && result.levels.length > 0;
          assert.equal(await page.isDisabled(`#legend-${name} input[data-key="${result.run_id}"]`), !marked, `${name}: ${result.run_id}`);
          if (marked) assert.ok(chart.series.some((s) => s.role === 'no-figure' && s.run === result.run_id), `${name}: ${result.run_id} ▽`);
        }
        // No throughput run is drawn here.
        for (const run of realRuns) assert.equal(pointsOf(chart, run.result.run_id), undefined);
      }
      // Every label names server, runtime and mode.
      const legend = await page.innerText('#legend-memory');
      for (const result of allSessions) {
        assert.ok(legend.includes(result.label), legend);
        assert.match(legend, new RegExp(`\\[${result.server.mode || 'no mode'} \\(`));
      }
      assert.match(legend, /every shown run is a single run: no spread measured/);

      // A level held by several server workers and client agents says so where it is hovered.
      const several = allSessions.flatMap((r) => r.levels.filter((l) => l.workers > 1 && l.idle && l.idle.server_bytes_per_session != null)
        .map((l) => [r, l]));
      assert.ok(several.length > 0, 'the fixtures hold a level run on several processes');
      await page.locator('#chart-memory').scrollIntoViewIfNeeded();
      for (const [, l] of several) {
        const at = await page.evaluate(pointOnPage, ['chart-memory', l.concurrency, l.idle.server_bytes_per_session / 1024]);
        await page.mouse.move(at.clientX, at.clientY);
        await page.waitForFunction((text) => document.getElementById('details-memory').textContent.includes(text),
          `${l.workers} workers, ${l.agents} agents`);
      }
      await page.screenshot({ path: screenshotPath('sessions'), fullPage: true });
    });
  });

  test('a client-bound fan-out saturation is a floor: dashed, crossed, and why in the hover and the table', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/sessions.html`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      const chart = await page.evaluate(probeChart, 'chart-saturation');
      // Every floor by the fairness rule (fixtures.js, from the files' fields) is crossed, and only those.
      const floorsOf = (r) => r.levels.filter((l) => l.fanout_saturation && isFloor(l, r.server.pid !== null))
        .map((l) => [l.concurrency, l.fanout_saturation.copies_per_s]);
      const crosses = chart.series.filter((s) => s.symbol === 'cross');
      for (const result of allSessions) {
        const cross = crosses.find((s) => s.run === result.run_id);
        assert.deepEqual(cross ? cross.data : [], floorsOf(result), result.run_id);
      }
      assert.ok(floorsOf(derived).some(([n]) => n === flaggedLevel.concurrency));
      assert.ok(!floorsOf(flaggedBase).some(([n]) => n === flaggedLevel.concurrency));
      assert.ok(chart.colorPixels[crosses[0].color] > 10, 'the cross is drawn');
      const floorCount = allSessions.reduce((n, r) => n + floorsOf(r).length, 0);
      assert.match(await page.innerText('#legend-saturation'), new RegExp(`dashed, ✕: the figure is a floor, not the server's limit \\(${floorCount}\\)`));
      assert.ok(chart.series.some((s) => s.role === 'floor' && s.run === derived.run_id && s.dashes), 'its segments are dashed');

      const target = await page.evaluate(pointOnPage, ['chart-saturation', flaggedLevel.concurrency, flaggedLevel.fanout_saturation.copies_per_s]);
      await page.locator('#chart-saturation').scrollIntoViewIfNeeded();
      const moved = await page.evaluate(pointOnPage, ['chart-saturation', flaggedLevel.concurrency, flaggedLevel.fanout_saturation.copies_per_s]);
      await page.mouse.move(moved.clientX, moved.clientY);
      await page.waitForFunction(() => /a floor: client-bound/.test(document.getElementById('details-saturation').textContent));
      const details = await page.innerText('#details-saturation');
      assert.match(details, /single run/);
      assert.match(details, /1 worker, 1 agent/);
      assert.ok(details.includes(`(${derived.server.mode} (`), details);
      assert.ok(target);

      const row = page.locator(`section[data-run-id="${derived.run_id}"] tr[data-level="${flaggedLevel.concurrency}"]`);
      assert.match(await row.locator('td.saturation').innerText(), /^≥ [\s\S]*a floor: client-bound/);
      const real = page.locator(`section[data-run-id="${flaggedBase.run_id}"] tr[data-level="${flaggedLevel.concurrency}"]`);
      assert.doesNotMatch(await real.locator('td.saturation').innerText(), /≥|a floor/);
    });
  });

  test('one table per sessions run: processes, connect, failures, idle CPU, memory, heartbeats, saturation, p99 at 5 msgs/s', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/sessions.html`);
      await page.waitForSelector('#sessions-tables table');
      const ids = await page.$$eval('#sessions-tables section', (sections) => sections.map((s) => s.dataset.runId));
      assert.deepEqual(ids.sort(), allSessions.map((r) => r.run_id).sort());
      for (const { result } of sessionsRuns) {
        for (const level of result.levels) {
          const cells = await page.locator(`section[data-run-id="${result.run_id}"] tr[data-level="${level.concurrency}"] td`).allInnerTexts();
          const processes = `${level.workers} worker${level.workers === 1 ? '' : 's'}, ${level.agents} agent${level.agents === 1 ? '' : 's'}`;
          assert.equal(cells[0], `${level.connected} of ${level.concurrency}`);
          assert.equal(cells[1], processes);
          assert.ok(cells[2].startsWith(`${format.trim(level.connect_s, 3)} s\n${format.rate(level.connect.achieved_per_s)}/s (paced ${format.rate(level.connect.rate_per_s)}/s)`), cells[2]);
          const failures = Object.entries(level.connect.failures);
          assert.equal(cells[3], failures.length ? failures.map(([k, n]) => `${k} ${n}`).join(', ') : 'none');
          assert.match(cells[4], level.idle.server_cpu_pct == null ? /^—/ : / %/);
          assert.match(cells[5], /^[\d.]+ KB \/ ([\d.]+ KB|—) \((fast|naive|no mode)/);
          assert.match(cells[5], /single run/);
          assert.equal(cells[6].split('\n')[0], String(level.idle.heartbeats));
          if (level.fanout_saturation) assert.match(cells[7], /copies\/s[\s\S]*p99 [\d.,]+ ms · completion p99 [\d.,]+ ms/);
          else assert.equal(cells[7], 'none ok');
          if (atFive(level)) assert.ok(cells[8].startsWith(`${format.ms(atFive(level).fanout_ms.p99)} (`), cells[8]);
          else assert.match(cells[8], /^—\n(ramp ended at [\d.]+ msgs\/s, below 5|no point at 5 msgs\/s)$/);
          assert.equal(cells[9], level.end_reason);
        }
      }
    });
  });

  test('the summary keeps sessions runs off its charts, verdict and table, and links to the Sessions page', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/index.html`);
      await page.waitForSelector('#chart-saturation canvas.flot-base');
      const tableIds = await page.$$eval('#summary-table tbody', (bodies) => bodies.map((b) => b.dataset.runId));
      for (const result of allSessions) assert.ok(!tableIds.includes(result.run_id), result.run_id);
      for (const run of realRuns) assert.ok(tableIds.includes(run.result.run_id), run.file);
      assert.match(await page.innerText('#sessions-note'), new RegExp(`^${allSessions.length} runs of the sessions profile in this set are not on these charts`));
      assert.equal(await page.getAttribute('#sessions-note a', 'href'), 'sessions.html');
      assert.equal(await page.getAttribute('.site-header a[href="sessions.html"]', 'href'), 'sessions.html');
    });
  });

  test('fits a 420 px screen: the wide tables scroll in their own box', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      await page.setViewportSize({ width: 420, height: 900 });
      await page.goto(`${site.origin}/sessions.html`);
      await page.waitForSelector('#sessions-tables table');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 420);
      await page.screenshot({ path: screenshotPath('sessions-420'), fullPage: true });
    });
  });

  test('a sessions run\'s page gives every copy\'s latency and completion beside the own-copy RTT', SLOW, async () => {
    const result = sessionsRuns[0].result;
    const level = result.levels.find((l) => l.saturation);
    const point = level.points.find((p) => p.state === 'ok' && p.received_per_s === level.saturation.received_per_s);
    await usePage(await openPage(site.browser), async (page) => {
      await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(result.run_id)}`);
      await page.waitForSelector('#chart-sent canvas.flot-base');
      const row = page.locator('#level-table tbody tr').nth(result.levels.indexOf(level));
      assert.ok((await row.innerText()).includes(`all copies p99 ${format.ms(point.fanout_ms.p99)} · completion p99 ${format.ms(point.completion_ms.p99)}`));
      await page.locator('#chart-sent').scrollIntoViewIfNeeded();
      const target = await page.evaluate(pointOnPage, ['chart-sent', point.sent_per_s, point.rtt_ms.mean]);
      await page.mouse.move(target.clientX, target.clientY);
      await page.waitForFunction(() => /all copies/.test(document.getElementById('details-sent').textContent));
      const details = await page.innerText('#details-sent');
      assert.match(details, /RTT mean [\s\S]* · all copies \(\d+\) mean [\s\S]*p99 [\s\S]* · completion p50 /);
    });
  });
});
