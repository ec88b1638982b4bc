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

/** Runs build/build-site.js as `make site` does and checks what it prints. */
function buildWithCli(resultsDir, outDir) {
  const run = spawnSync(process.execPath,
    [path.join(SITE_DIR, 'build', 'build-site.js'), '--results', resultsDir, '--out', outDir],
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

module.exports = { SLOW, startSite, resultsDirWith, screenshotPath };
