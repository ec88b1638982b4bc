'use strict';
// SockJS 0.3.3 protocol suite (sockjs-protocol.py), websocket cases: classes
// WebsocketHttpErrors, Websocket and RawWebsocket, each test named after the
// suite's case and asserting what the suite asserts, against the contract apps.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const net = require('node:net');
const { randomUUID } = require('node:crypto');
const { startServer } = require('./support/server-process');
const { WsClient } = require('./support/ws-client');
const { fetchText } = require('./support/http-client');
const { verify405 } = require('./support/sockjs-checks');

describe('SockJS protocol: websocket', () => {
  let server;
  const sockets = [];
  before(async () => { server = await startServer(); });
  after(async () => {
    for (const ws of sockets.splice(0)) ws.destroy();
    if (server) await server.kill();
  });
  const connect = async (url) => {
    const ws = await WsClient.connect(url);
    sockets.push(ws);
    return ws;
  };
  const framedUrl = (app, session = randomUUID()) => `${server.wsUrl}/${app}/000/${session}/websocket`;

  it('WebsocketHttpErrors.test_httpMethod', async () => {
    const r = await fetchText('GET', `${server.url}/echo/0/0/websocket`);
    assert.equal(r.status, 400);
  });

  it('WebsocketHttpErrors.test_invalidConnectionHeader', async () => {
    const r = await fetchText('GET', `${server.url}/echo/0/0/websocket`,
      { headers: { Upgrade: 'WebSocket', Connection: 'close' } });
    assert.equal(r.status, 400);
    assert.match(r.body, /Not a valid websocket request/);
  });

  it('WebsocketHttpErrors.test_invalidMethod', async () => {
    for (const headers of [{ Upgrade: 'WebSocket', Connection: 'Upgrade' }, {}]) {
      verify405(await fetchText('POST', `${server.url}/echo/0/0/websocket`, { headers }));
    }
  });

  it('Websocket.test_transport', async () => {
    const ws = await connect(framedUrl('echo'));
    assert.equal(await ws.next(), 'o');
    ws.send('["a"]');
    assert.equal(await ws.next(), 'a["a"]');
    await ws.close();
  });

  it('Websocket.test_close', async () => {
    const ws = await connect(framedUrl('close'));
    assert.equal(await ws.next(), 'o');
    assert.equal(await ws.next(), 'c[3000,"Go away!"]');
    await ws.waitClosed();
  });

  it('Websocket.test_headersSanity', async () => {
    const url = `${server.url}/echo/000/${randomUUID()}/websocket`;
    const { response, socket } = await new Promise((resolve, reject) => {
      const request = http.request(url, {
        headers: {
          Upgrade: 'websocket',
          Connection: 'Upgrade',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Origin': 'http://asd',
          'Sec-WebSocket-Key': 'x3JJHMbDL1EzLkh9GBhXDw==',
        },
      });
      request.on('upgrade', (res, sock) => resolve({ response: res, socket: sock }));
      request.on('response', (res) => reject(new Error(`expected 101, got ${res.statusCode}`)));
      request.on('error', reject);
      request.end();
    });
    try {
      assert.equal(response.statusCode, 101);
      assert.equal(response.headers['sec-websocket-accept'], 'HSmrc0sMlYUkAGmm5OPpG2HaGWk=');
      assert.equal(response.headers.connection.toLowerCase(), 'upgrade');
      assert.equal(response.headers.upgrade.toLowerCase(), 'websocket');
      assert.equal(response.headers['content-length'], undefined);
    } finally {
      socket.destroy();
    }
  });

  it('Websocket.test_empty_frame', async () => {
    const ws = await connect(framedUrl('echo'));
    assert.equal(await ws.next(), 'o');
    ws.send('');
    ws.send('[]');
    ws.send('["a"]');
    assert.equal(await ws.next(), 'a["a"]');
    await ws.close();
  });

  it('Websocket.test_reuseSessionId', async () => {
    const url = framedUrl('echo');
    const ws1 = await connect(url);
    assert.equal(await ws1.next(), 'o');
    const ws2 = await connect(url);
    assert.equal(await ws2.next(), 'o');
    ws1.send('["a"]');
    assert.equal(await ws1.next(), 'a["a"]');
    ws2.send('["b"]');
    assert.equal(await ws2.next(), 'a["b"]');
    assert.equal(ws1.closeEvent, null, 'the first session must survive the second');
    await ws1.close();
    await ws2.close();

    const again = await connect(url);
    assert.equal(await again.next(), 'o');
    again.send('["a"]');
    assert.equal(await again.next(), 'a["a"]');
    await again.close();
  });

  // Hixie-76 handshake (what HAProxy-era proxies forced): headers first, then
  // the 8-byte nonce, then the 16-byte answer.
  it('Websocket.test_haproxy', async () => {
    const path = `/echo/000/${randomUUID()}/websocket`;
    const { port } = new URL(server.url);
    const origin = server.url;
    const socket = net.connect(port, '127.0.0.1');
    sockets.push({ destroy: () => socket.destroy() });
    let received = Buffer.alloc(0);
    const arrived = (predicate) => new Promise((resolve, reject) => {
      const check = () => { if (predicate(received)) { socket.off('data', onData); resolve(received); } };
      const onData = (chunk) => { received = Buffer.concat([received, chunk]); check(); };
      socket.on('data', onData);
      setTimeout(() => reject(new Error(`timeout; got ${JSON.stringify(received.toString('latin1'))}`)), 10000).unref();
      check();
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nConnection: Upgrade\r\n`
      + `Upgrade: WebSocket\r\nOrigin: ${origin}\r\n`
      + 'Sec-WebSocket-Key1: 4 @1  46546xW%0l 1 5\r\nSec-WebSocket-Key2: 12998 5 Y3 1  .P00\r\n\r\n');
    await arrived((buf) => buf.includes('\r\n\r\n'));
    const headEnd = received.indexOf('\r\n\r\n');
    const [statusLine, ...headerLines] = received.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(headerLines.map((l) => {
      const colon = l.indexOf(':');
      return [l.slice(0, colon).trim().toLowerCase(), l.slice(colon + 1).trim()];
    }));
    assert.match(statusLine, /^HTTP\/1\.1 101 /);
    assert.equal(headers.connection.toLowerCase(), 'upgrade');
    assert.equal(headers.upgrade.toLowerCase(), 'websocket');
    assert.equal(headers['sec-websocket-location'], `${server.wsUrl}${path}`);
    assert.equal(headers['sec-websocket-origin'], origin);
    assert.equal(headers['content-length'], undefined);

    received = received.subarray(headEnd + 4);
    socket.write('aaaaaaaa');
    await arrived((buf) => buf.length >= 16);
    assert.deepEqual(received.subarray(0, 16), Buffer.from('\xca4\x00\xd8\xa5\x08G\x97,\xd5qZ\xba\xbfC{', 'latin1'));
    socket.destroy();
  });

  it('Websocket.test_broken_json', async () => {
    const ws = await connect(framedUrl('echo'));
    assert.equal(await ws.next(), 'o');
    ws.send('["a');
    await ws.waitClosed();
  });

  it('RawWebsocket.test_transport', async () => {
    const ws = await connect(`${server.wsUrl}/echo/websocket`);
    ws.send('Hello world!\uffff');
    assert.equal(await ws.next(), 'Hello world!\uffff');
    await ws.close();
  });

  it('RawWebsocket.test_close', async () => {
    const ws = await connect(`${server.wsUrl}/close/websocket`);
    const { reason } = await ws.waitClosed();
    assert.equal(reason, 'Go away!');
  });

  // Not a suite case, but docs/protocol.md §4: the disabled app answers 404.
  it('disabled_websocket_echo refuses both websocket URLs with 404', async () => {
    for (const path of [`/disabled_websocket_echo/000/${randomUUID()}/websocket`, '/disabled_websocket_echo/websocket']) {
      const r = await fetchText('GET', `${server.url}${path}`);
      assert.equal(r.status, 404, path);
    }
  });
});
