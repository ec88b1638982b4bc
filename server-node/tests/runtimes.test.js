'use strict';
// server-node on Node 26, Bun and Deno (server-node/runtimes), each started
// exactly as the server registry says (runtimes/launch.py reads
// docs/contract/server-registry.json): the READY line names the runtime really
// running and its pinned version, never the Node version Bun and Deno
// imitate; a broadcast reaches every session in both modes, over a websocket
// and over xhr_streaming read frame by frame (Node 26 sends the prelude and
// the open frame in one HTTP chunk, which the conformance suite's chunk reader
// cannot follow: tests/python-suite); SIGTERM says goodbye to a streaming
// session and exits 0; and --workers is
// served on Node 26 but refused in one line on Bun and Deno. A runtime whose
// binary does not run here is skipped with the reason. The conformance suite
// runs against the same entries in `make test-js-runtimes`.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { startCommand } = require('./support/server-process');
const { SockjsFramedClient } = require('./support/sockjs-framed');
const { openStream } = require('./support/http-client');
const { pinnedRuntimes, runnableProblem } = require('../runtimes/runtimes');

const LAUNCH_PY = path.join(__dirname, '..', 'runtimes', 'launch.py');

/** The registry's launch of `entry`: argv, program first, --naive included for a naive entry. */
function registryLaunch(entry) {
  const result = spawnSync('python3', [LAUNCH_PY, entry, '--json'], { encoding: 'utf8', timeout: 20000 });
  assert.equal(result.status, 0, `launch.py ${entry}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

// registry entry prefix -> npm package of its runtime (runtimes/package.json)
const ENTRIES = { node26: 'node', bun: 'bun', deno: 'deno' };

for (const [prefix, runtimeName] of Object.entries(ENTRIES)) {
  const runtime = pinnedRuntimes().find((r) => r.name === runtimeName);
  const problem = runnableProblem(runtime);
  describe(`server-node on ${runtimeName} ${runtime.version} (${prefix}-fast, ${prefix}-naive)`,
    { skip: problem ?? false }, () => {
      for (const mode of ['fast', 'naive']) {
        it(`${prefix}-${mode}: READY says runtime=${runtimeName} runtime_version=${runtime.version}, mode=${mode}; ` +
          'a broadcast reaches a websocket and an xhr_streaming session in order; SIGTERM: goodbye, exit 0',
        async () => {
          const server = await startCommand([...registryLaunch(`${prefix}-${mode}`), '--port', '0']);
          try {
            assert.equal(server.fields.server, 'sockjs-node');
            assert.equal(server.fields.runtime, runtimeName);
            assert.equal(server.fields.runtime_version, runtime.version);
            assert.equal(server.fields.mode, mode);
            const stream = openStream('POST', `${server.url}/broadcast/000/rt${mode}/xhr_streaming`);
            assert.equal(await stream.nextLine(), `${'h'.repeat(2048)}\n`);
            assert.equal(await stream.nextLine(), 'o\n');
            const a = await SockjsFramedClient.connect(`${server.wsUrl}/broadcast`);
            for (let i = 0; i < 5; i += 1) a.send(`m${i}`);
            const got = [];
            while (got.length < 5) got.push(await a.next());
            assert.deepEqual(got, ['m0', 'm1', 'm2', 'm3', 'm4']);
            // Fast mode may put several messages in one a[...] frame; naive sends one each.
            const streamed = [];
            while (streamed.length < 5) {
              const frame = await stream.nextLine();
              assert.match(frame, /^a\[.*\]\n$/);
              streamed.push(...JSON.parse(frame.slice(1)));
            }
            assert.deepEqual(streamed, ['m0', 'm1', 'm2', 'm3', 'm4']);
            await a.close();
            const exit = await server.stop('SIGTERM');
            assert.equal(exit.code, 0, server.stderr);
            assert.ok(exit.elapsedMs < 2000, `exited ${exit.elapsedMs} ms after SIGTERM`);
            assert.equal(await stream.nextLine(), 'c[3000,"Go away!"]\n');
          } finally {
            await server.kill();
          }
        });
      }

      it(`--workers 2: ${prefix === 'node26'
        ? 'allowed (goes on to the broker: unreachable here, one line, exit 1)'
        : 'refused in one line naming the runtime, exit 2, no READY'}`,
        () => {
          const launch = registryLaunch(`${prefix}-fast`);
          // An unreachable broker: Node gets past the runtime check and stops at the broker (exit 1).
          const result = spawnSync(launch[0], [...launch.slice(1), '--port', '0', '--workers', '2',
            '--broker', 'redis://127.0.0.1:1/0'], { encoding: 'utf8', timeout: 20000 });
          assert.equal(result.stdout, '');
          const lines = result.stderr.trim().split('\n');
          assert.equal(lines.length, 1, result.stderr);
          if (prefix === 'node26') {
            assert.equal(result.status, 1);
            assert.match(lines[0], /redis:\/\/127\.0\.0\.1:1\/0/);
          } else {
            assert.equal(result.status, 2);
            assert.match(lines[0], new RegExp(`--workers 2 is not supported on ${runtimeName} ${runtime.version}: `));
          }
        });
    });
}
