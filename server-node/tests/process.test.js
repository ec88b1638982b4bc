'use strict';
// broadcast.js as a process: the command line, the READY line and the stop
// sequence of docs/protocol.md §1-§3.

const { describe, it, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawn, spawnSync } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const path = require('node:path');
const { startServer, BROADCAST_JS } = require('./support/server-process');
const { WsClient } = require('./support/ws-client');
const { openStream } = require('./support/http-client');

const run = (args) => spawnSync(process.execPath, [BROADCAST_JS, ...args], { encoding: 'utf8', timeout: 20000 });
const installedVersion = (name) =>
  require(path.join(__dirname, '..', 'node_modules', name, 'package.json')).version;

describe('command line', () => {
  it('--help prints usage on stdout and exits 0', () => {
    const result = run(['--help']);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^usage: /);
    for (const flag of ['--host', '--port', '--heartbeat', '--log-level', '--naive', '--max-session-buffer', '--help']) {
      assert.ok(result.stdout.includes(flag), `usage mentions ${flag}`);
    }
    assert.equal(result.stderr, '');
  });

  const badCommandLines = [
    [['--prot', '8080'], '--prot'],
    [['--port'], '--port'],
    [['--port', '65536'], '--port'],
    [['--port', '80a'], '--port'],
    [['--port', '-1'], '--port'],
    [['--heartbeat', '0'], '--heartbeat'],
    [['--heartbeat', 'soon'], '--heartbeat'],
    [['--heartbeat', '3000000'], '--heartbeat'],
    [['--log-level', 'verbose'], '--log-level'],
    [['--max-session-buffer', '100'], '--max-session-buffer'],
    [['--naive=yes'], '--naive'],
    [['--host', ''], '--host'],
    [['8080'], '8080'],
  ];
  for (const [args, offender] of badCommandLines) {
    it(`${JSON.stringify(args)}: usage on stderr naming ${offender}, exit 2, stdout empty`, () => {
      const result = run(args);
      assert.equal(result.status, 2);
      assert.equal(result.stdout, '');
      assert.ok(result.stderr.includes(offender), result.stderr);
      assert.match(result.stderr, /usage: /);
    });
  }
});

describe('READY line and start-up', () => {
  const servers = [];
  after(async () => { for (const s of servers.splice(0)) await s.kill(); });

  it('announces the real port and what runs, once, on stdout', async () => {
    const server = await startServer(['--heartbeat', '0.5']);
    servers.push(server);
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:[1-9][0-9]*$/);
    assert.deepEqual(server.fields, {
      server: 'sockjs-node',
      runtime: 'node',
      runtime_version: process.versions.node,
      sockjs: installedVersion('sockjs'),
      'faye-websocket': installedVersion('faye-websocket'),
      'websocket-driver': installedVersion('websocket-driver'),
      mode: 'fast',
      heartbeat: '0.5',
      disconnect_delay_ms: '5000',
      response_limit: '131072',
      max_session_buffer: '1048576',
      max_sessions: '4096',
      workers: '1',
      broker: 'none',
      compression: 'none',
      worker_pids: String(server.child.pid),
    });
    const info = await fetch(`${server.url}/broadcast/info`);
    assert.equal(info.status, 200);
    const body = await info.json();
    assert.equal(body.websocket, true);
    assert.equal(body.cookie_needed, false);
    assert.deepEqual(body.origins, ['*:*']);
    assert.equal(typeof body.entropy, 'number');
    const exit = await server.stop();
    assert.equal(exit.code, 0);
    assert.deepEqual(server.stdoutLines, [server.readyLine], 'stdout carries exactly the READY line');
  });

  it('--naive and --max-session-buffer show in the READY line (mode=naive)', async () => {
    const server = await startServer(['--naive', '--max-session-buffer', '65536']);
    servers.push(server);
    assert.equal(server.fields.mode, 'naive');
    assert.equal(server.fields.max_session_buffer, '65536');
  });

  it('--sockjs-url is what every app\'s /iframe.html loads sockjs-client from', async () => {
    const url = 'http://127.0.0.1:9/vendor/sockjs.min.js';
    const server = await startServer(['--sockjs-url', url]);
    servers.push(server);
    for (const prefix of ['/broadcast', '/echo', '/close', '/disabled_websocket_echo', '/cookie_needed_echo']) {
      const page = await fetch(`${server.url}${prefix}/iframe.html`);
      assert.equal(page.status, 200, prefix);
      assert.ok((await page.text()).includes(`<script src="${url}"></script>`), prefix);
    }
  });

  it('a port already in use: one line on stderr, exit 1', async () => {
    const first = await startServer();
    servers.push(first);
    const result = run(['--port', new URL(first.url).port]);
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, /EADDRINUSE/);
  });

  it('sends a heartbeat frame after --heartbeat seconds of silence (xhr-streaming)', async () => {
    const server = await startServer(['--heartbeat', '0.5']);
    servers.push(server);
    const stream = openStream('POST', `${server.url}/broadcast/000/${randomUUID()}/xhr_streaming`);
    try {
      await stream.nextLine(); // prelude
      assert.equal(await stream.nextLine(), 'o\n');
      const openedAt = Date.now();
      assert.equal(await stream.nextLine(10000), 'h\n');
      assert.ok(Date.now() - openedAt >= 400, 'not before the heartbeat interval');
    } finally {
      stream.abort();
    }
  });
});

describe('SIGTERM', () => {
  it('closes every session with the goodbye and exits 0 within 2 s', async () => {
    const server = await startServer();
    const clients = [];
    try {
      const framed = await WsClient.connect(`${server.wsUrl}/broadcast/000/${randomUUID()}/websocket`);
      clients.push(framed);
      assert.equal(await framed.next(), 'o');
      const raw = await WsClient.connect(`${server.wsUrl}/broadcast/websocket`);
      clients.push(raw);
      const echoRaw = await WsClient.connect(`${server.wsUrl}/echo/websocket`);
      clients.push(echoRaw);
      const streaming = openStream('POST', `${server.url}/echo/000/${randomUUID()}/xhr_streaming`);
      clients.push({ destroy: () => streaming.abort() });
      await streaming.nextLine(); // prelude
      assert.equal(await streaming.nextLine(), 'o\n');
      // A round trip proves the server registered each session before the signal.
      raw.send('ping');
      assert.equal(await raw.next(), 'ping');
      assert.equal(await framed.next(), 'a["ping"]');
      echoRaw.send('ping');
      assert.equal(await echoRaw.next(), 'ping');

      const exit = await server.stop('SIGTERM');
      assert.equal(exit.code, 0);
      assert.ok(exit.elapsedMs < 2000, `exited after ${exit.elapsedMs} ms`);

      assert.equal(await framed.next(), 'c[3000,"Go away!"]');
      assert.equal((await raw.waitClosed()).code, 1001);
      assert.equal((await echoRaw.waitClosed()).code, 1001);
      assert.equal(await streaming.nextLine(), 'c[3000,"Go away!"]\n');
      assert.equal(await streaming.nextLine(), null);
    } finally {
      for (const client of clients) client.destroy();
      await server.kill();
    }
  });

  it('a signal sent the instant READY arrives still gets a clean exit 0', async () => {
    // No readline here: SIGTERM goes out from the very first stdout chunk, to
    // catch a server that prints READY before it handles signals.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const child = spawn(process.execPath, [BROADCAST_JS, '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
      const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
      child.stdout.once('data', () => child.kill('SIGTERM'));
      const killer = setTimeout(() => child.kill('SIGKILL'), 20000);
      const exit = await exited;
      clearTimeout(killer);
      assert.deepEqual(exit, { code: 0, signal: null }, `attempt ${attempt}`);
    }
  });

  it('SIGINT stops the same way', async () => {
    const server = await startServer();
    try {
      const framed = await WsClient.connect(`${server.wsUrl}/broadcast/000/${randomUUID()}/websocket`);
      assert.equal(await framed.next(), 'o');
      const exit = await server.stop('SIGINT');
      assert.equal(exit.code, 0);
      assert.equal(await framed.next(), 'c[3000,"Go away!"]');
    } finally {
      await server.kill();
    }
  });
});
