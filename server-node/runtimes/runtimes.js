'use strict';
// The JavaScript runtimes server-node is benchmarked on besides the system
// node: Node's current line, Bun and Deno, each an npm package pinned exactly
// in this directory's package.json (the one place that names their versions)
// and installed by `make setup-js-runtimes` into ./node_modules. Each package
// brings its platform binary through an optional dependency or an install
// script, so an install that "succeeded" may still have no binary that runs
// here: runnableProblem() asks the binary itself.

const { spawnSync } = require('node:child_process');
const path = require('node:path');

const RUNTIMES_DIR = __dirname;
const BIN_DIR = path.join(RUNTIMES_DIR, 'node_modules', '.bin');
const MANIFEST = path.join(RUNTIMES_DIR, 'package.json');

/** How long one `--version` may take before the binary counts as not running, ms. */
const VERSION_TIMEOUT_MS = 20000;

/**
 * @returns {{name: string, version: string, bin: string}[]} every pinned runtime: its
 *          npm package name (= the runtime's name and its binary's), exact version, binary path
 */
function pinnedRuntimes() {
  const { dependencies } = require(MANIFEST);
  return Object.entries(dependencies).map(([name, version]) => ({ name, version, bin: path.join(BIN_DIR, name) }));
}

/**
 * Why `runtime` cannot run here, as one line with the fix; null when its binary
 * runs and reports the pinned version (node: v26.10.0, bun: 1.4.4, deno: "deno 2.9.6 (...)").
 * @param {{name: string, version: string, bin: string}} runtime from pinnedRuntimes
 */
function runnableProblem(runtime) {
  const fix = 'run `make setup-js-runtimes` (npm ci in server-node/runtimes)';
  const result = spawnSync(runtime.bin, ['--version'], { encoding: 'utf8', timeout: VERSION_TIMEOUT_MS });
  if (result.error) {
    const why = result.error.code === 'ENOENT' ? 'not installed' : result.error.message;
    return `${runtime.name} ${runtime.version}: ${why} (${runtime.bin}); ${fix}`;
  }
  const said = `${result.stdout}${result.stderr}`.trim().split('\n')[0];
  if (result.status !== 0) {
    return `${runtime.name} ${runtime.version}: its binary does not run here (exit ${result.status}: ${said}); ` +
      `npm may have no ${runtime.name} binary for ${process.platform}-${process.arch}, or the install broke: ${fix}`;
  }
  const version = /\d+\.\d+\.\d+\S*/.exec(said);
  if (!version || version[0] !== runtime.version) {
    return `${runtime.name}: expected ${runtime.version}, the binary says ${JSON.stringify(said)}; ${fix}`;
  }
  return null;
}

module.exports = { pinnedRuntimes, runnableProblem, RUNTIMES_DIR, BIN_DIR };
