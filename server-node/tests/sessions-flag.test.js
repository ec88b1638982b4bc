'use strict';
// --sessions N against a real broadcast.js under a lowered open-files limit
// (prlimit): refused with one line and exit 2 when one process's share does
// not fit, READY when it does - also when it fits only because Node raises its
// soft limit to the hard one at startup.

const { describe, it, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const { startCommand, BROADCAST_JS } = require('./support/server-process');

const underNofile = (soft, hard, args) =>
  ['prlimit', `--nofile=${soft}:${hard}`, process.execPath, BROADCAST_JS, '--port', '0', ...args];
const runToExit = (argv) => spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', timeout: 20000 });
const softOpenFiles = (pid) => fs.readFileSync(`/proc/${pid}/limits`, 'utf8').split('\n')
  .find((line) => line.startsWith('Max open files')).split(/\s+/)[3];

describe('--sessions and the open-files limit', () => {
  const servers = [];
  after(async () => { for (const s of servers.splice(0)) await s.kill(); });

  it('too many sessions for the limit: one line on stderr, exit 2, no READY', () => {
    const result = runToExit(underNofile(200, 200, ['--sessions', '1000']));
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, 'broadcast.js: 1000 sessions need 1064 open files per process but the limit is 200 ' +
      '(ulimit -n); use --workers 8 or raise ulimit -n\n');
  });

  it('refuses before the broker is tried or workers are forked, counting the share per worker', () => {
    // Nothing listens on port 1: a server that went on would exit 1 saying so.
    const result = runToExit(underNofile(200, 200,
      ['--sessions', '1000', '--workers', '4', '--broker', 'redis://127.0.0.1:1/0']));
    assert.equal(result.status, 2);
    assert.equal(result.stderr, 'broadcast.js: 1000 sessions need 314 open files per process but the limit is 200 ' +
      '(ulimit -n); use --workers 8 or raise ulimit -n\n');
  });

  it('a share that fits starts; the session budget never drops below the default', async () => {
    const server = await startCommand(underNofile(200, 200, ['--sessions', '100']));
    servers.push(server);
    assert.equal(server.fields.max_sessions, '4096');
  });

  it('fits once Node has raised the soft limit to the hard one, and sizes the budget to the share', async () => {
    const server = await startCommand(underNofile(200, 20000, ['--sessions', '10000']));
    servers.push(server);
    assert.equal(softOpenFiles(server.child.pid), '20000');
    assert.equal(server.fields.max_sessions, '12500');
  });

  it('a bad value is a usage error naming the flag, exit 2', () => {
    const result = runToExit([process.execPath, BROADCAST_JS, '--sessions', 'many']);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /--sessions: expected an integer 1-10000000/);
    assert.match(result.stderr, /usage: /);
  });
});
