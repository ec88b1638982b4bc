'use strict';
// The committed set of websocket runs with compression and with slow readers
// (results/reference-websocket-options/, measured: docs/session-kinds.md),
// built by the real build and checked in headless Chromium: a run's header
// names what its sessions did beyond plain websocket (permessage-deflate, the
// slow readers' share and rate) and its title carries the client's label
// suffix, while a plain run of the same set names neither.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { SLOW, startSite } = require('./harness');
const { openPage, usePage } = require('./browser');

const SET = path.join(__dirname, '..', '..', 'results', 'reference-websocket-options');
const runs = fs.readdirSync(SET).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(fs.readFileSync(path.join(SET, f), 'utf8')));
// The set holds one file per server and kind: pick ours on PyPy in each kind.
const ofKind = (test_) => runs.find((r) => r.server.runtime === 'pypy' && test_(r.parameters));
const plain = ofKind((p) => !p.slow_clients && (p.compression ?? 'none') === 'none');
const deflate = ofKind((p) => p.compression === 'permessage-deflate');
const slow = ofKind((p) => p.slow_clients);

let site;
before(async () => { site = await startSite('websocket-options', SET); }, SLOW);
after(async () => { if (site) await site.close(); });

async function header(page, run) {
  await page.goto(`${site.origin}/run.html?run=${encodeURIComponent(run.run_id)}`);
  await page.waitForSelector('#chart-sent canvas.flot-base');
  return { env: await page.innerText('#run-environment'), title: await page.innerText('#run-title') };
}

describe('the websocket-options set: plain, permessage-deflate and slow-reader runs', () => {
  test('the set has a plain, a compressed and a slow-reader run of our server on PyPy', () => {
    assert.ok(plain && deflate && slow, 'results/reference-websocket-options lacks one of the three kinds');
  });

  test('a slow-reader run names the share and the rate of its slow readers; the others do not', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      const { pct, kib_per_s: kib } = slow.parameters.slow_clients;
      const s = await header(page, slow);
      assert.match(s.env, new RegExp(`slow readers\\s+${pct} % of each level's sessions, each reading at most ${kib} KiB/s`));
      assert.match(s.title, new RegExp(` · slow ${pct}%:${kib}$`));
      for (const run of [plain, deflate]) assert.doesNotMatch((await header(page, run)).env, /slow readers/);
    });
  });

  test('a compressed run says permessage-deflate in its header and title; a plain one says none', SLOW, async () => {
    await usePage(await openPage(site.browser), async (page) => {
      const d = await header(page, deflate);
      assert.match(d.env, /websocket compression\s+permessage-deflate/);
      assert.match(d.title, / · permessage-deflate$/);
      assert.match((await header(page, plain)).env, /websocket compression\s+none/);
    });
  });
});
