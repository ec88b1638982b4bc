'use strict';
// Slow clients hold a socket for a bounded time only (--header-timeout):
// request headers sent one byte per second, a connection that sends nothing,
// and websocket handshakes left half-open (a hixie-76 upgrade whose 8-byte
// key never comes) are all cut off within the timeout plus Node's 1 s check
// interval, while a normal client is served meanwhile. A half-open handshake
// also gives its place in the session budget back.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const net = require('node:net');
const { randomUUID } = require('node:crypto');
const { startServer } = require('./support/server-process');
const { fetchText } = require('./support/http-client');
const { WireClient } = require('./support/ws-wire');

const HEADER_TIMEOUT_S = 1;
// Cut off no later than this after connecting: the timeout, Node's check
// interval (1 s at most), and margin for a busy machine.
const CUT_OFF_WITHIN_MS = HEADER_TIMEOUT_S * 1000 + 1000 + 1500;
const SLOW_CLIENTS = 20;

/**
 * Connect and feed `bytes` at `bytesPerSecond` (all at once when Infinity);
 * resolves with what came back and when the server closed the connection.
 */
function slowClient(port, bytes, bytesPerSecond) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const startedAt = Date.now();
    let received = '';
    let sent = 0;
    let timer = null;
    socket.on('error', () => {});
    socket.on('data', (data) => { received += data.toString('latin1'); });
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - startedAt, received, sent });
    });
    socket.on('connect', () => {
      if (bytesPerSecond === Infinity) {
        socket.write(bytes);
        sent = bytes.length;
        return;
      }
      timer = setInterval(() => {
        if (sent < bytes.length && !socket.destroyed) socket.write(bytes.subarray(sent, sent + 1));
        sent += 1;
      }, 1000 / bytesPerSecond);
    });
  });
}

const HIXIE_76_WITHOUT_KEY = (port, path) => Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
  'Connection: Upgrade\r\nUpgrade: WebSocket\r\nOrigin: http://127.0.0.1\r\n' +
  'Sec-WebSocket-Key1: 4 @1  46546xW%0l 1 5\r\nSec-WebSocket-Key2: 12998 5 Y3 1  .P00\r\n\r\n');

describe(`slow clients (--header-timeout ${HEADER_TIMEOUT_S})`, () => {
  let server;
  let port;
  before(async () => {
    server = await startServer(['--header-timeout', String(HEADER_TIMEOUT_S), '--max-sessions', '5']);
    port = Number(new URL(server.url).port);
  });
  after(async () => {
    if (server) await server.stop();
  });

  it(`${SLOW_CLIENTS} clients sending headers at one byte per second are cut off within ${CUT_OFF_WITHIN_MS} ms ` +
    'with 408; a normal client is served meanwhile', async () => {
    const request = Buffer.from(`GET /broadcast/info HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Padding: ${'p'.repeat(200)}\r\n\r\n`);
    const slow = Array.from({ length: SLOW_CLIENTS }, () => slowClient(port, request, 1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const startedAt = Date.now();
    const info = await fetchText('GET', `${server.url}/broadcast/info`);
    assert.equal(info.status, 200);
    assert.ok(Date.now() - startedAt < 1000, 'served at once');
    for (const result of await Promise.all(slow)) {
      assert.ok(result.closedAfterMs <= CUT_OFF_WITHIN_MS, `cut off after ${result.closedAfterMs} ms`);
      assert.ok(result.sent < request.length, 'before the headers were complete');
      assert.match(result.received, /^HTTP\/1\.1 408 /);
    }
  });

  it('a connection that sends nothing is cut off likewise', async () => {
    const result = await slowClient(port, Buffer.alloc(0), Infinity);
    assert.ok(result.closedAfterMs <= CUT_OFF_WITHIN_MS, `cut off after ${result.closedAfterMs} ms`);
  });

  it('half-open websocket handshakes (hixie-76, key never sent) are cut off and give their budget places back', async () => {
    // Five of them fill the whole budget (--max-sessions 5) while they last ...
    const halfOpen = Array.from({ length: 5 }, () => slowClient(port,
      HIXIE_76_WITHOUT_KEY(port, `/broadcast/000/${randomUUID()}/websocket`), Infinity));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await assert.rejects(WireClient.open(port, `/echo/000/${randomUUID()}/websocket`), /no upgrade: HTTP\/1\.1 503/);
    for (const result of await Promise.all(halfOpen)) {
      assert.ok(result.closedAfterMs <= CUT_OFF_WITHIN_MS, `cut off after ${result.closedAfterMs} ms`);
    }
    // ... and once they are cut off, a real session gets a place.
    const client = await WireClient.open(port, `/echo/000/${randomUUID()}/websocket`);
    await client.until(() => client.texts().includes('o'), 5000, 'the open frame');
    client.destroy();
  });
});
