'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { detectRuntime, clusterRefusal, CURRENT_RUNTIME } = require('./runtime');
const { readyLine, parseReadyLine } = require('./ready-line');

// Abridged from what each runtime really reports (Bun 1.4.4, Deno 2.9.6 and
// Node 26.10.0 from server-node/runtimes): both imitators claim Node 26.3.0.
const BUN_VERSIONS = { node: '26.3.0', bun: '1.4.4', webkit: 'd6375c72', uv: '1.48.0' };
const DENO_VERSIONS = { node: '26.3.0', deno: '2.9.6', v8: '15.0.245.2-rusty', typescript: '6.0.3' };
const NODE_VERSIONS = { node: '26.10.0', v8: '14.6.202.34-node.20', uv: '1.52.1' };

describe('runtime detection', () => {
  it('names Bun and Deno by their own version, not the Node version they imitate', () => {
    assert.deepEqual(detectRuntime(BUN_VERSIONS), { name: 'bun', version: '1.4.4' });
    assert.deepEqual(detectRuntime(DENO_VERSIONS), { name: 'deno', version: '2.9.6' });
    assert.deepEqual(detectRuntime(NODE_VERSIONS), { name: 'node', version: '26.10.0' });
  });

  it('this test process (Node) is detected as node with its own version', () => {
    assert.deepEqual({ ...CURRENT_RUNTIME }, { name: 'node', version: process.versions.node });
  });

  it('the READY line carries the runtime it is given', () => {
    const line = readyLine({
      host: '127.0.0.1', port: 1, heartbeatSeconds: 25, mode: 'fast', maxSessionBufferBytes: 4096,
      maxSessions: 10, broadcastOptions: { disconnect_delay: 5000, response_limit: 131072 },
      runtime: detectRuntime(BUN_VERSIONS),
    });
    const { fields } = parseReadyLine(line);
    assert.equal(fields.runtime, 'bun');
    assert.equal(fields.runtime_version, '1.4.4');
  });
});

describe('--workers per runtime', () => {
  it('one process is fine everywhere; node:cluster is refused on Bun and Deno with one line naming why', () => {
    for (const versions of [BUN_VERSIONS, DENO_VERSIONS, NODE_VERSIONS]) {
      assert.equal(clusterRefusal(detectRuntime(versions), 1), null);
    }
    assert.equal(clusterRefusal(detectRuntime(NODE_VERSIONS), 4), null);
    const bun = clusterRefusal(detectRuntime(BUN_VERSIONS), 2);
    assert.match(bun, /^--workers 2 is not supported on bun 1\.4\.4: .*spread.*; run one process per port, or use node$/);
    const deno = clusterRefusal(detectRuntime(DENO_VERSIONS), 3);
    assert.match(deno, /^--workers 3 is not supported on deno 2\.9\.6: .*SIGTERM/);
    assert.ok(!bun.includes('\n') && !deno.includes('\n'), 'one line each');
  });
});
