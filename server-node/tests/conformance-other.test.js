'use strict';
// SockJS 0.3.3 protocol suite (sockjs-protocol.py), the classes beyond the
// three transports the benchmark cares about: BaseUrlGreeting, IframePage,
// InfoTest, EventSource, HtmlFile, JsonPolling, the rest of JsessionidCookie,
// Http10 and Http11. docs/protocol.md §4 asks every server to serve these URLs.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const net = require('node:net');
const { randomUUID } = require('node:crypto');
const { startServer } = require('./support/server-process');
const { fetchText, openStream } = require('./support/http-client');
const checks = require('./support/sockjs-checks');

const IFRAME_BODY = new RegExp(`^${escapeRegExp(`<!DOCTYPE html>
<html>
<head>
  <meta http-equiv="X-UA-Compatible" content="IE=edge" />
  <meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
  <script src="SOCKJS_URL"></script>
  <script>
    document.domain = document.domain;
    SockJS.bootstrap_iframe();
  </script>
</head>
<body>
  <h2>Don't panic!</h2>
  <p>This is a SockJS hidden iframe. It's used for cross domain magic.</p>
</body>
</html>`).replace('SOCKJS_URL', '(?<sockjsUrl>[^"]*)')}$`);

const HTMLFILE_HEAD = `<!doctype html>
<html><head>
  <meta http-equiv="X-UA-Compatible" content="IE=edge" />
  <meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
</head><body><h2>Don't panic!</h2>
  <script>
    document.domain = document.domain;
    var c = parent.callback;
    c.start();
    function p(d) {c.message(d);};
    window.onload = function() {c.stop();};
  </script>`;

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** One raw HTTP exchange on a plain socket, for the HTTP/1.0 and 1.1 framing cases. */
class RawHttpConnection {
  constructor(baseUrl) {
    const { hostname, port } = new URL(baseUrl);
    this.host = `${hostname}:${port}`;
    this.socket = net.connect(Number(port), hostname);
    this.buffer = Buffer.alloc(0);
    this.closed = false;
    this._wake = () => {};
    this.socket.on('data', (chunk) => { this.buffer = Buffer.concat([this.buffer, chunk]); this._wake(); });
    this.socket.on('close', () => { this.closed = true; this._wake(); });
    this.socket.on('error', () => {});
  }

  async _until(predicate, what, timeoutMs = 10000) {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (this.closed || Date.now() > deadline) throw new Error(`${what}: got ${JSON.stringify(this.buffer.toString('latin1').slice(0, 200))}`);
      await new Promise((resolve) => { this._wake = resolve; setTimeout(resolve, 50); });
    }
  }

  /** Send a request; resolve with the parsed status line and headers. */
  async request(method, path, version, headers = {}) {
    const lines = [`${method} ${path} HTTP/${version}`, `Host: ${this.host}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''];
    this.socket.write(lines.join('\r\n'));
    await this._until(() => this.buffer.includes('\r\n\r\n'), 'response head');
    const end = this.buffer.indexOf('\r\n\r\n');
    const [statusLine, ...headerLines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    this.buffer = this.buffer.subarray(end + 4);
    const [, http, status] = /^HTTP\/(\d\.\d) (\d{3})/.exec(statusLine);
    const parsed = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      parsed[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    return { http, status: Number(status), headers: parsed };
  }

  /** Exactly `count` body bytes. */
  async read(count) {
    await this._until(() => this.buffer.length >= count, `${count} bytes`);
    const out = this.buffer.subarray(0, count).toString('latin1');
    this.buffer = this.buffer.subarray(count);
    return out;
  }

  /** One chunk of a chunked body; '' for the last chunk. */
  async readChunk() {
    await this._until(() => this.buffer.includes('\r\n'), 'chunk size');
    const sizeEnd = this.buffer.indexOf('\r\n');
    const size = parseInt(this.buffer.subarray(0, sizeEnd).toString('latin1'), 16);
    await this._until(() => this.buffer.length >= sizeEnd + 2 + size + 2, `chunk of ${size} bytes`);
    const data = this.buffer.subarray(sizeEnd + 2, sizeEnd + 2 + size).toString('latin1');
    this.buffer = this.buffer.subarray(sizeEnd + 2 + size + 2);
    return data;
  }

  async waitClosed() {
    await this._until(() => this.closed || false, 'connection close').catch(() => {});
    return this.closed;
  }

  destroy() {
    this.socket.destroy();
  }
}

describe('SockJS protocol: greeting, iframe, info, eventsource, htmlfile, jsonp, cookies, HTTP framing', () => {
  let server;
  const cleanups = [];
  before(async () => { server = await startServer(); });
  after(async () => {
    for (const cleanup of cleanups.splice(0)) cleanup();
    if (server) await server.kill();
  });
  const base = () => `${server.url}/echo`;
  const session = (app = 'echo') => `${server.url}/${app}/000/${randomUUID()}`;
  const stream = (method, url, options) => {
    const s = openStream(method, url, options);
    cleanups.push(() => s.abort());
    return s;
  };
  const rawConnection = () => {
    const c = new RawHttpConnection(server.url);
    cleanups.push(() => c.destroy());
    return c;
  };

  it('BaseUrlGreeting.test_greeting', async () => {
    for (const url of [base(), `${base()}/`]) {
      const r = await fetchText('GET', url);
      assert.equal(r.status, 200);
      checks.verifyContentType(r, 'text/plain;charset=UTF-8');
      assert.equal(r.body, 'Welcome to SockJS!\n');
      checks.verifyNoCookie(r);
    }
  });

  it('BaseUrlGreeting.test_notFound', async () => {
    for (const suffix of ['/a', '/a.html', '//', '///', '/a/a', '/a/a/', '/a', '/a/']) {
      checks.verify404(await fetchText('GET', `${base()}${suffix}`));
    }
  });

  const verifyIframe = async (url) => {
    const r = await fetchText('GET', url);
    assert.equal(r.status, 200, url);
    checks.verifyContentType(r, 'text/html;charset=UTF-8');
    assert.match(r.headers['cache-control'], /public/);
    assert.match(r.headers['cache-control'], /max-age=[1-9][0-9]{6}/);
    assert.ok(r.headers.expires);
    assert.ok(r.headers.etag);
    assert.equal(r.headers['last-modified'], undefined);
    const match = IFRAME_BODY.exec(r.body.trim());
    assert.ok(match, `iframe body: ${r.body}`);
    assert.ok(match.groups.sockjsUrl.startsWith('/') || match.groups.sockjsUrl.startsWith('http'));
    checks.verifyNoCookie(r);
  };

  it('IframePage.test_simpleUrl', () => verifyIframe(`${base()}/iframe.html`));

  it('IframePage.test_versionedUrl', async () => {
    for (const suffix of ['/iframe-a.html', '/iframe-.html', '/iframe-0.1.2.html', '/iframe-0.1.2abc-dirty.2144.html']) {
      await verifyIframe(`${base()}${suffix}`);
    }
  });

  it('IframePage.test_queriedUrl', async () => {
    for (const suffix of ['/iframe-a.html?t=1234', '/iframe-0.1.2.html?t=123414', '/iframe-0.1.2abc-dirty.2144.html?t=qweqweq123']) {
      await verifyIframe(`${base()}${suffix}`);
    }
  });

  it('IframePage.test_invalidUrl', async () => {
    for (const suffix of ['/iframe.htm', '/iframe', '/IFRAME.HTML', '/IFRAME', '/iframe.HTML', '/iframe.xml', '/iframe-/.html']) {
      checks.verify404(await fetchText('GET', `${base()}${suffix}`));
    }
  });

  it('IframePage.test_cacheability', async () => {
    const r1 = await fetchText('GET', `${base()}/iframe.html`);
    const r2 = await fetchText('GET', `${base()}/iframe.html`);
    assert.ok(r1.headers.etag);
    assert.equal(r1.headers.etag, r2.headers.etag);
    const r = await fetchText('GET', `${base()}/iframe.html`, { headers: { 'If-None-Match': r1.headers.etag } });
    assert.equal(r.status, 304);
    assert.equal(r.headers['content-type'], undefined);
    assert.equal(r.body, '');
  });

  it('InfoTest.test_basic', async () => {
    const r = await fetchText('GET', `${base()}/info`, { headers: { Origin: 'test' } });
    assert.equal(r.status, 200);
    checks.verifyContentType(r, 'application/json;charset=UTF-8');
    checks.verifyNoCookie(r);
    checks.verifyNotCached(r);
    checks.verifyCors(r, 'test');
    const data = JSON.parse(r.body);
    assert.equal(data.websocket, true);
    assert.ok([true, false].includes(data.cookie_needed));
    assert.deepEqual(data.origins, ['*:*']);
    assert.ok(Number.isInteger(data.entropy));
  });

  it('InfoTest.test_entropy', async () => {
    const [a, b] = [JSON.parse((await fetchText('GET', `${base()}/info`)).body),
      JSON.parse((await fetchText('GET', `${base()}/info`)).body)];
    assert.ok(Number.isInteger(a.entropy) && Number.isInteger(b.entropy));
    assert.notEqual(a.entropy, b.entropy);
  });

  it('InfoTest.test_options', () => checks.verifyOptions(`${base()}/info`, 'OPTIONS, GET'));

  it('InfoTest.test_options_null_origin', async () => {
    const r = await fetchText('OPTIONS', `${base()}/info`, { headers: { Origin: 'null', 'Access-Control-Request-Method': 'POST' } });
    assert.ok(r.status === 204 || r.status === 200);
    assert.equal(r.body, '');
    assert.equal(r.headers['access-control-allow-origin'], 'null');
  });

  it('InfoTest.test_disabled_websocket', async () => {
    const r = await fetchText('GET', `${server.url}/disabled_websocket_echo/info`);
    assert.equal(r.status, 200);
    assert.equal(JSON.parse(r.body).websocket, false);
  });

  it('EventSource.test_transport', async () => {
    const url = session();
    const r = stream('GET', `${url}/eventsource`);
    const head = await r.head();
    assert.equal(head.status, 200);
    checks.verifyContentType(head, 'text/event-stream');
    checks.verifyNotCached(head);
    assert.equal(await r.nextUntil('\r\n'), '\r\n');
    assert.equal(await r.nextUntil('\r\n\r\n'), 'data: o\r\n\r\n');
    let sent = await fetchText('POST', `${url}/xhr_send`, { body: '["x"]' });
    assert.equal(sent.body, '');
    assert.equal(sent.status, 204);
    assert.equal(await r.nextUntil('\r\n\r\n'), 'data: a["x"]\r\n\r\n');
    sent = await fetchText('POST', `${url}/xhr_send`, { body: '["  \\u0000\\n\\r "]' });
    assert.equal(sent.status, 204);
    assert.equal(await r.nextUntil('\r\n\r\n'), 'data: a["  \\u0000\\n\\r "]\r\n\r\n');
    r.abort();
  });

  it('EventSource.test_response_limit', async () => {
    const url = session();
    const r = stream('GET', `${url}/eventsource`);
    assert.equal((await r.head()).status, 200);
    assert.equal(await r.nextUntil('\r\n'), '\r\n');
    assert.equal(await r.nextUntil('\r\n\r\n'), 'data: o\r\n\r\n');
    const message = `"${'x'.repeat(4096)}"`;
    assert.equal((await fetchText('POST', `${url}/xhr_send`, { body: `[${message}]` })).status, 204);
    assert.equal(await r.nextUntil('\r\n\r\n'), `data: a[${message}]\r\n\r\n`);
    assert.equal(await r.ended(), true);
    assert.equal(await r.nextUntil('\r\n\r\n'), null);
  });

  it('HtmlFile.test_transport', async () => {
    const url = session();
    const r = stream('GET', `${url}/htmlfile?c=%63allback`);
    const head = await r.head();
    assert.equal(head.status, 200);
    checks.verifyContentType(head, 'text/html;charset=UTF-8');
    checks.verifyNotCached(head);
    const prelude = await r.nextUntil('\r\n\r\n');
    assert.equal(prelude.trim(), HTMLFILE_HEAD);
    assert.ok(prelude.length > 1024);
    assert.equal(await r.nextUntil('</script>\r\n'), '<script>\np("o");\n</script>\r\n');
    const sent = await fetchText('POST', `${url}/xhr_send`, { body: '["x"]' });
    assert.equal(sent.body, '');
    assert.equal(sent.status, 204);
    assert.equal(await r.nextUntil('</script>\r\n'), '<script>\np("a[\\"x\\"]");\n</script>\r\n');
    r.abort();
  });

  it('HtmlFile.test_no_callback', async () => {
    const r = await fetchText('GET', `${base()}/a/a/htmlfile`);
    assert.equal(r.status, 500);
    assert.match(r.body, /"callback" parameter required/);
  });

  it('HtmlFile.test_invalid_callback', async () => {
    for (const callback of ['%20', '*', 'abc(', 'abc%28']) {
      const r = await fetchText('GET', `${base()}/a/a/htmlfile?c=${callback}`);
      assert.equal(r.status, 500, callback);
      assert.match(r.body, /invalid "callback" parameter/);
    }
  });

  it('HtmlFile.test_response_limit', async () => {
    const url = session();
    const r = stream('GET', `${url}/htmlfile?c=callback`);
    assert.equal((await r.head()).status, 200);
    assert.ok(await r.nextUntil('\r\n\r\n'));
    assert.equal(await r.nextUntil('</script>\r\n'), '<script>\np("o");\n</script>\r\n');
    const message = 'x'.repeat(4096);
    assert.equal((await fetchText('POST', `${url}/xhr_send`, { body: `["${message}"]` })).status, 204);
    assert.equal(await r.nextUntil('</script>\r\n'), `<script>\np("a[\\"${message}\\"]");\n</script>\r\n`);
    assert.equal(await r.ended(), true);
  });

  it('JsonPolling.test_transport', async () => {
    const url = session();
    let r = await fetchText('GET', `${url}/jsonp?c=%63allback`);
    assert.equal(r.status, 200);
    checks.verifyContentType(r, 'application/javascript;charset=UTF-8');
    checks.verifyNotCached(r);
    assert.equal(r.body, '/**/callback("o");\r\n');
    r = await fetchText('POST', `${url}/jsonp_send`, { body: 'd=%5B%22x%22%5D', headers: FORM });
    assert.equal(r.body, 'ok');
    assert.equal(r.status, 200);
    checks.verifyContentType(r, 'text/plain;charset=UTF-8');
    checks.verifyNotCached(r);
    r = await fetchText('GET', `${url}/jsonp?c=%63allback`);
    assert.equal(r.status, 200);
    assert.equal(r.body, '/**/callback("a[\\"x\\"]");\r\n');
  });

  it('JsonPolling.test_no_callback', async () => {
    const r = await fetchText('GET', `${base()}/a/a/jsonp`);
    assert.equal(r.status, 500);
    assert.match(r.body, /"callback" parameter required/);
  });

  it('JsonPolling.test_invalid_callback', async () => {
    for (const callback of ['%20', '*', 'abc(', 'abc%28']) {
      const r = await fetchText('GET', `${base()}/a/a/jsonp?c=${callback}`);
      assert.equal(r.status, 500, callback);
      assert.match(r.body, /invalid "callback" parameter/);
    }
  });

  it('JsonPolling.test_invalid_json', async () => {
    const url = session();
    assert.equal((await fetchText('GET', `${url}/jsonp?c=x`)).body, '/**/x("o");\r\n');
    let r = await fetchText('POST', `${url}/jsonp_send`, { body: 'd=%5B%22x', headers: FORM });
    assert.equal(r.status, 500);
    assert.match(r.body, /Broken JSON encoding\./);
    for (const data of ['', 'd=', 'p=p']) {
      r = await fetchText('POST', `${url}/jsonp_send`, { body: data, headers: FORM });
      assert.equal(r.status, 500, JSON.stringify(data));
      assert.match(r.body, /Payload expected\./);
    }
    r = await fetchText('POST', `${url}/jsonp_send`, { body: 'd=%5B%22b%22%5D', headers: FORM });
    assert.equal(r.body, 'ok');
    r = await fetchText('GET', `${url}/jsonp?c=x`);
    assert.equal(r.status, 200);
    assert.equal(r.body, '/**/x("a[\\"b\\"]");\r\n');
  });

  it('JsonPolling.test_content_types', async () => {
    const url = session();
    assert.equal((await fetchText('GET', `${url}/jsonp?c=x`)).body, '/**/x("o");\r\n');
    let r = await fetchText('POST', `${url}/jsonp_send`, { body: 'd=%5B%22abc%22%5D', headers: FORM });
    assert.equal(r.body, 'ok');
    r = await fetchText('POST', `${url}/jsonp_send`, { body: '["%61bc"]', headers: { 'Content-Type': 'text/plain' } });
    assert.equal(r.body, 'ok');
    r = await fetchText('GET', `${url}/jsonp?c=x`);
    assert.equal(r.status, 200);
    assert.equal(r.body, '/**/x("a[\\"abc\\",\\"%61bc\\"]");\r\n');
  });

  it('JsonPolling.test_close', async () => {
    const url = session('close');
    assert.equal((await fetchText('GET', `${url}/jsonp?c=x`)).body, '/**/x("o");\r\n');
    for (let i = 0; i < 2; i += 1) {
      assert.equal((await fetchText('GET', `${url}/jsonp?c=x`)).body, '/**/x("c[3000,\\"Go away!\\"]");\r\n');
    }
  });

  it('JsonPolling.test_sending_empty_frame', async () => {
    const url = session();
    assert.equal((await fetchText('GET', `${url}/jsonp?c=x`)).body, '/**/x("o");\r\n');
    assert.equal((await fetchText('POST', `${url}/jsonp_send`, { body: 'd=%5B%5D', headers: FORM })).body, 'ok');
    assert.equal((await fetchText('POST', `${url}/jsonp_send`, { body: 'd=%5B%22x%22%5D', headers: FORM })).body, 'ok');
    const r = await fetchText('GET', `${url}/jsonp?c=x`);
    assert.equal(r.status, 200);
    assert.equal(r.body, '/**/x("a[\\"x\\"]");\r\n');
  });

  const verifyCookie = (headers) => {
    const [cookie, path] = headers['set-cookie'][0].split(';').map((s) => s.trim());
    assert.equal(cookie, 'JSESSIONID=dummy');
    assert.equal(path.toLowerCase(), 'path=/');
  };

  it('JsessionidCookie.test_eventsource', async () => {
    const r = stream('GET', `${session('cookie_needed_echo')}/eventsource`);
    const head = await r.head();
    assert.equal(head.status, 200);
    verifyCookie(head.headers);
    r.abort();
  });

  it('JsessionidCookie.test_htmlfile', async () => {
    const r = stream('GET', `${session('cookie_needed_echo')}/htmlfile?c=%63allback`);
    const head = await r.head();
    assert.equal(head.status, 200);
    verifyCookie(head.headers);
    r.abort();
  });

  it('JsessionidCookie.test_jsonp', async () => {
    const url = session('cookie_needed_echo');
    let r = await fetchText('GET', `${url}/jsonp?c=%63allback`);
    assert.equal(r.status, 200);
    verifyCookie(r.headers);
    assert.equal(r.body, '/**/callback("o");\r\n');
    r = await fetchText('POST', `${url}/jsonp_send`, { body: 'd=%5B%22x%22%5D', headers: FORM });
    assert.equal(r.body, 'ok');
    assert.equal(r.status, 200);
    verifyCookie(r.headers);
  });

  it('Http10.test_synchronous', async () => {
    const c = rawConnection();
    let r = await c.request('GET', '/echo', '1.0', { Connection: 'Keep-Alive' });
    assert.equal(r.status, 200);
    assert.ok(['1.0', '1.1'].includes(r.http));
    assert.equal(r.headers['transfer-encoding'], undefined);
    if (!r.headers['content-length']) {
      assert.equal(r.headers.connection.toLowerCase(), 'close');
      assert.equal(await c.read(19), 'Welcome to SockJS!\n');
      assert.ok(await c.waitClosed());
    } else {
      assert.equal(Number(r.headers['content-length']), 19);
      assert.equal(await c.read(19), 'Welcome to SockJS!\n');
      const connection = (r.headers.connection || '').toLowerCase();
      if (connection === 'close' || connection === '') {
        assert.ok(await c.waitClosed());
      } else {
        assert.equal(connection, 'keep-alive');
        r = await c.request('GET', '/echo', '1.0', { Connection: 'Keep-Alive' });
        assert.equal(r.status, 200);
      }
    }
  });

  it('Http10.test_streaming', async () => {
    const path = `/close/000/${randomUUID()}/xhr_streaming`;
    const c = rawConnection();
    const r = await c.request('POST', path, '1.0', { Connection: 'Keep-Alive' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['transfer-encoding'], undefined);
    assert.equal(r.headers['content-length'], undefined);
    assert.equal((await c.read(2048 + 1))[0], 'h');
    assert.equal(await c.read(2), 'o\n');
    assert.equal(await c.read(19), 'c[3000,"Go away!"]\n');
    assert.ok(await c.waitClosed());
  });

  it('Http11.test_synchronous', async () => {
    const c = rawConnection();
    let r = await c.request('GET', '/echo', '1.1', { Connection: 'Keep-Alive' });
    assert.equal(r.http, '1.1');
    assert.ok(['keep-alive', ''].includes((r.headers.connection || '').toLowerCase()), "Connection: keep-alive expected");
    if (r.headers['content-length']) {
      assert.equal(Number(r.headers['content-length']), 19);
      assert.equal(await c.read(19), 'Welcome to SockJS!\n');
      assert.equal(r.headers['transfer-encoding'], undefined);
    } else {
      assert.equal(r.headers['transfer-encoding'].toLowerCase(), 'chunked');
      assert.equal(await c.readChunk(), 'Welcome to SockJS!\n');
      assert.equal(await c.readChunk(), '');
    }
    r = await c.request('GET', '/echo', '1.1', { Connection: 'Keep-Alive' });
    assert.equal(r.status, 200);
  });

  it('Http11.test_streaming', async () => {
    const path = `/close/000/${randomUUID()}/xhr_streaming`;
    const c = rawConnection();
    const r = await c.request('POST', path, '1.1', { Connection: 'Keep-Alive' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['transfer-encoding'].toLowerCase(), 'chunked');
    assert.equal(r.headers['content-length'], undefined);
    assert.equal((await c.readChunk())[0], 'h');
    assert.equal(await c.readChunk(), 'o\n');
    assert.equal(await c.readChunk(), 'c[3000,"Go away!"]\n');
    assert.equal(await c.readChunk(), '');
  });
});
