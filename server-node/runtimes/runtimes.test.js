'use strict';
const { describe, it, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pinnedRuntimes, runnableProblem, RUNTIMES_DIR } = require('./runtimes');

const tempDirs = [];
after(() => { for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true }); });

/** An executable shell script in a fresh temp dir, standing in for a runtime binary. */
function script(body) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sockbench-runtime-'));
  tempDirs.push(dir);
  const file = path.join(dir, 'runtime');
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

describe('pinned runtimes (server-node/runtimes/package.json)', () => {
  it('Node, Bun and Deno, each at one exact version that the lockfile installs', () => {
    const runtimes = pinnedRuntimes();
    assert.deepEqual(runtimes.map((r) => r.name).sort(), ['bun', 'deno', 'node']);
    const lock = JSON.parse(fs.readFileSync(path.join(RUNTIMES_DIR, 'package-lock.json'), 'utf8'));
    for (const runtime of runtimes) {
      assert.match(runtime.version, /^\d+\.\d+\.\d+$/, `${runtime.name}: an exact version, not a range`);
      assert.equal(lock.packages[''].dependencies[runtime.name], runtime.version, `${runtime.name}: lock root`);
      assert.equal(lock.packages[`node_modules/${runtime.name}`].version, runtime.version, `${runtime.name}: locked`);
      assert.equal(runtime.bin, path.join(RUNTIMES_DIR, 'node_modules', '.bin', runtime.name));
    }
    assert.match(runtimes.find((r) => r.name === 'node').version, /^26\./, "Node's current line");
  });
});

describe('runnableProblem: one line saying what is wrong and how to fix it', () => {
  const pinned = { name: 'bun', version: '1.4.4' };

  it('a binary that is not there', () => {
    const line = runnableProblem({ ...pinned, bin: path.join(os.tmpdir(), 'no-such-dir', 'bun') });
    assert.match(line, /^bun 1\.4\.4: not installed \(.*no-such-dir\/bun\); run `make setup-js-runtimes`/);
  });

  it('a binary that does not run on this machine', () => {
    const line = runnableProblem({ ...pinned, bin: script('echo "cannot execute: wrong ELF class" >&2; exit 126') });
    assert.match(line, /^bun 1\.4\.4: its binary does not run here \(exit 126: cannot execute: wrong ELF class\)/);
    assert.match(line, /make setup-js-runtimes/);
    assert.ok(!line.includes('\n'));
  });

  it('a binary of another version', () => {
    const line = runnableProblem({ ...pinned, bin: script('echo 1.4.5') });
    assert.match(line, /^bun: expected 1\.4\.4, the binary says "1\.4\.5"/);
  });

  it('nothing to say for a binary that reports the pinned version, in each runtime\'s own format', () => {
    assert.equal(runnableProblem({ ...pinned, bin: script('echo 1.4.4') }), null);
    assert.equal(runnableProblem({ name: 'node', version: '26.10.0', bin: script('echo v26.10.0') }), null);
    assert.equal(runnableProblem({ name: 'deno', version: '2.9.6',
      bin: script('echo "deno 2.9.6 (stable, release, x86_64-unknown-linux-gnu)"; echo "v8 15.0.245.2-rusty"') }), null);
  });
});
