'use strict';
// What every browser test file needs: the site built by the real build CLI
// into a directory of its own (so test files may run in parallel), served on
// 127.0.0.1 at an OS-chosen port, and a headless Chromium. close() stops both.

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { startStaticServer } = require('./static-server');
const { launchChromium } = require('./browser');

const SITE_DIR = path.join(__dirname, '..');
const OUTPUT_DIR = path.join(SITE_DIR, 'test-output');
// CPU is shared with other builds: be patient.
const SLOW = { timeout: 240000 };

/** Runs tools/build-site.js as `make site` does and checks what it prints. */
function buildWithCli(resultsDir, outDir) {
  const run = spawnSync(process.execPath,
    [path.join(SITE_DIR, 'tools', 'build-site.js'), '--results', resultsDir, '--out', outDir],
    { encoding: 'utf8', timeout: 120000 });
  assert.equal(run.status, 0, `build-site failed:\n${run.stdout}\n${run.stderr}`);
  assert.ok(run.stdout.trim().endsWith(path.join(outDir, 'index.html')), `build must print index.html's path:\n${run.stdout}`);
}

/** A fresh results directory under test-output/<name>/ holding `files` (name → JSON value). */
function resultsDirWith(name, files) {
  const dir = path.join(OUTPUT_DIR, name, 'results');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, value] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, file), JSON.stringify(value, null, 2));
  }
  return dir;
}

const HISTORIC_DIR = path.join(SITE_DIR, '..', 'results', 'historic');

/**
 * A results directory under test-output/<name>/ laid out like results/: the
 * files of `fixturesDir` copied byte for byte (raw links are checked against
 * them), `extra` files (name → JSON value, e.g. a derived run) and the
 * committed historic run sets (results/historic/<set>/*.json).
 */
function resultsDirWithHistoric(name, fixturesDir, extra = {}) {
  const dir = resultsDirWith(name, extra);
  for (const file of fs.readdirSync(fixturesDir)) {
    if (file.endsWith('.json')) fs.copyFileSync(path.join(fixturesDir, file), path.join(dir, file));
  }
  for (const set of fs.readdirSync(HISTORIC_DIR, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    fs.mkdirSync(path.join(dir, 'historic', set.name), { recursive: true });
    for (const file of fs.readdirSync(path.join(HISTORIC_DIR, set.name)).filter((f) => f.endsWith('.json'))) {
      fs.copyFileSync(path.join(HISTORIC_DIR, set.name, file), path.join(dir, 'historic', set.name, file));
    }
  }
  return dir;
}

/** The committed historic documents, as the site reads them (for oracles). */
function historicDocs() {
  return fs.readdirSync(HISTORIC_DIR, { withFileTypes: true }).filter((e) => e.isDirectory())
    .flatMap((set) => fs.readdirSync(path.join(HISTORIC_DIR, set.name)).filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(fs.readFileSync(path.join(HISTORIC_DIR, set.name, f), 'utf8'))));
}

/**
 * @param {string} name directory under test-output/ for this file's build
 * @param {string} resultsDir what to build the site from
 * @returns {Promise<{origin: string, dist: string, browser: object, close: () => Promise<void>}>}
 *   origin serves the built site at its root
 */
async function startSite(name, resultsDir) {
  const dist = path.join(OUTPUT_DIR, name, 'dist');
  buildWithCli(resultsDir, dist);
  const server = await startStaticServer({ '/': dist });
  let browser;
  try {
    browser = await launchChromium();
  } catch (err) {
    await server.close();
    throw err;
  }
  return {
    origin: server.origin,
    dist,
    browser,
    async close() {
      try {
        await browser.close();
      } finally {
        await server.close();
      }
    },
  };
}

/** Where a screenshot goes: test-output/<name>.png (git-ignored). */
function screenshotPath(name) {
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  return path.join(OUTPUT_DIR, `${name.replace(/[^A-Za-z0-9._-]+/g, '_')}.png`);
}

module.exports = { SLOW, startSite, resultsDirWith, resultsDirWithHistoric, historicDocs, screenshotPath };
