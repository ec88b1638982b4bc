'use strict';
// Which JavaScript runtime runs this server, and what it cannot do. Bun and
// Deno both run Node code and both fill in process.versions.node with the Node
// release they imitate (Bun 1.4.4 and Deno 2.9.6 say 26.3.0), so that field
// alone would label a Bun or Deno run as Node; each also adds its own key,
// which is what tells them apart. Every other module asks here.

/**
 * @param {Object<string, string>} versions a process.versions object
 * @returns {{name: 'bun'|'deno'|'node', version: string}} the runtime and its own release
 */
function detectRuntime(versions) {
  if (typeof versions.bun === 'string') return { name: 'bun', version: versions.bun };
  if (typeof versions.deno === 'string') return { name: 'deno', version: versions.deno };
  return { name: 'node', version: versions.node };
}

// Why --workers (node:cluster) is refused on a runtime, measured with
// tests/scale-out.test.js run on each (SOCKBENCH_TEST_RUNTIME): on Bun 1.4.4
// every connection went to one worker (Bun's cluster shares the port through
// SO_REUSEPORT, not the primary's round-robin hand-off, so "two workers" can
// mean one busy and one idle); on Deno 2.9.6 connections were spread and
// relayed, but workers were still alive after the primary had exited on
// SIGTERM, which breaks the contract's "every process gone".
const CLUSTER_LIMITS = {
  bun: 'its node:cluster does not spread connections over the workers (all went to one)',
  deno: 'its node:cluster leaves workers running after the primary exits on SIGTERM',
};

/**
 * One line saying why `--workers N` cannot run on this runtime, or null.
 * @param {{name: string, version: string}} runtime from detectRuntime
 * @param {number} workers requested worker processes (1 = no cluster)
 * @returns {string | null}
 */
function clusterRefusal(runtime, workers) {
  if (workers <= 1 || !(runtime.name in CLUSTER_LIMITS)) return null;
  return `--workers ${workers} is not supported on ${runtime.name} ${runtime.version}: ` +
    `${CLUSTER_LIMITS[runtime.name]}; run one process per port, or use node`;
}

/** The runtime running this process. */
const CURRENT_RUNTIME = Object.freeze(detectRuntime(process.versions));

module.exports = { detectRuntime, clusterRefusal, CURRENT_RUNTIME };
