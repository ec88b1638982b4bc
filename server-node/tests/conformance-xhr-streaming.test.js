'use strict';
// SockJS 0.3.3 protocol suite (sockjs-protocol.py), xhr-streaming cases: class
// XhrStreaming, the streaming half of HandlingClose, JsessionidCookie's
// streaming case, each named after the suite's case.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { randomUUID } = require('node:crypto');
const { startServer } = require('./support/server-process');
const { fetchText, openStream } = require('./support/http-client');
const checks = require('./support/sockjs-checks');

const PRELUDE = `${'h'.repeat(2048)}\n`;

describe('SockJS protocol: xhr-streaming', () => {
  let server;
  const streams = [];
  before(async () => { server = await startServer(); });
  after(async () => {
    for (const stream of streams.splice(0)) stream.abort();
    if (server) await server.kill();
  });
  const session = (app = 'echo') => `${server.url}/${app}/000/${randomUUID()}`;
  const stream = (url, headers) => {
    const s = openStream('POST', `${url}/xhr_streaming`, { headers });
    streams.push(s);
    return s;
  };

  it('XhrStreaming.test_options', async () => {
    await checks.verifyOptions(`${server.url}/echo/abc/abc/xhr_streaming`, 'OPTIONS, POST');
  });

  it('XhrStreaming.test_transport', async () => {
    const url = session();
    const r = stream(url, { Origin: 'test' });
    const head = await r.head();
    assert.equal(head.status, 200);
    checks.verifyContentType(head, 'application/javascript;charset=UTF-8');
    checks.verifyCors(head, 'test');
    checks.verifyNotCached(head);
    assert.equal(await r.nextLine(), PRELUDE);
    assert.equal(await r.nextLine(), 'o\n');

    const sent = await fetchText('POST', `${url}/xhr_send`, { body: '["x"]' });
    assert.equal(sent.status, 204);
    assert.equal(sent.body, '');
    assert.equal(await r.nextLine(), 'a["x"]\n');
    r.abort();
  });

  it('XhrStreaming.test_response_limit', async () => {
    const url = session();
    const r = stream(url);
    assert.equal((await r.head()).status, 200);
    assert.equal(await r.nextLine(), PRELUDE);
    assert.equal(await r.nextLine(), 'o\n');
    // /echo runs with response_limit 4096: 31 frames of 128+ bytes cross it.
    const message = `"${'x'.repeat(128)}"`;
    for (let i = 0; i < 31; i += 1) {
      const sent = await fetchText('POST', `${url}/xhr_send`, { body: `[${message}]` });
      assert.equal(sent.status, 204);
      assert.equal(await r.nextLine(), `a[${message}]\n`);
    }
    assert.equal(await r.ended(), true);
    assert.equal(await r.nextLine(), null, 'nothing after the limit');
  });

  it('HandlingClose.test_close_frame', async () => {
    const url = session('close');
    const r1 = stream(url);
    assert.equal(await r1.nextLine(), PRELUDE);
    assert.equal(await r1.nextLine(), 'o\n');
    assert.equal(await r1.nextLine(), 'c[3000,"Go away!"]\n');

    const r2 = stream(url);
    assert.equal(await r2.nextLine(), PRELUDE);
    assert.equal(await r2.nextLine(), 'c[3000,"Go away!"]\n');

    assert.equal(await r1.nextLine(), null);
    assert.equal(await r2.nextLine(), null);
  });

  it('HandlingClose.test_close_request', async () => {
    const url = session();
    const r1 = stream(url);
    assert.equal(await r1.nextLine(), PRELUDE);
    assert.equal(await r1.nextLine(), 'o\n');

    const r2 = stream(url);
    assert.equal(await r2.nextLine(), PRELUDE);
    assert.equal(await r2.nextLine(), 'c[2010,"Another connection still open"]\n');
    assert.equal(await r2.nextLine(), null);
    r1.abort();
  });

  it('HandlingClose.test_abort_xhr_streaming', async () => {
    const url = session();
    const r1 = stream(url);
    assert.equal(await r1.nextLine(), PRELUDE);
    assert.equal(await r1.nextLine(), 'o\n');

    const r2 = stream(url);
    assert.equal(await r2.nextLine(), PRELUDE);
    assert.equal(await r2.nextLine(), 'c[2010,"Another connection still open"]\n');
    assert.equal(await r2.nextLine(), null);

    r1.abort();
    // The server has to notice the dropped connection before the next request.
    await new Promise((resolve) => setTimeout(resolve, 250));

    const r3 = stream(url);
    assert.equal(await r3.nextLine(), PRELUDE);
    const frame = await r3.nextLine();
    assert.ok(['o\n', 'c[1002,"Connection interrupted"]\n'].includes(frame), JSON.stringify(frame));
    r3.abort();
  });

  it('JsessionidCookie.test_xhr_streaming', async () => {
    const r = stream(session('cookie_needed_echo'));
    const head = await r.head();
    assert.equal(head.status, 200);
    const [cookie, path] = head.headers['set-cookie'][0].split(';').map((s) => s.trim());
    assert.equal(cookie, 'JSESSIONID=dummy');
    assert.equal(path.toLowerCase(), 'path=/');
    r.abort();
  });
});
