'use strict';
// SockJS 0.3.3 protocol suite (sockjs-protocol.py), xhr-polling cases: classes
// Protocol, SessionURLs, XhrPolling, the polling half of HandlingClose, the
// xhr cases of JsessionidCookie and JSONEncoding, each named after the suite's case.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { randomUUID } = require('node:crypto');
const { startServer } = require('./support/server-process');
const { fetchText, openStream, sleep } = require('./support/http-client');
const checks = require('./support/sockjs-checks');

// JSONEncoding's character classes (sockjs-protocol.py): what a browser client
// escapes before sending, and what the server must escape when sending.
const ESCAPABLE_BY_CLIENT = new RegExp('[\\\\"\\x00-\\x1f\\x7f-\\x9f\\u00ad\\u0600-\\u0604\\u070f\\u17b4\\u17b5'
  + '\\u2000-\\u20ff\\ufeff\\ufff0-\\uffff\\u0300-\\u0333\\u033d-\\u0346\\u034a-\\u034c\\u0350-\\u0352'
  + '\\u0357-\\u0358\\u035c-\\u0362\\u0374\\u037e\\u0387\\u0591-\\u05af\\u05c4\\u0610-\\u0617\\u0653-\\u0654'
  + '\\u0657-\\u065b\\u065d-\\u065e\\u06df-\\u06e2\\u06eb-\\u06ec\\u0730\\u0732-\\u0733\\u0735-\\u0736\\u073a'
  + '\\u073d\\u073f-\\u0741\\u0743\\u0745\\u0747\\u07eb-\\u07f1\\u0951\\u0958-\\u095f\\u09dc-\\u09dd\\u09df'
  + '\\u0a33\\u0a36\\u0a59-\\u0a5b\\u0a5e\\u0b5c-\\u0b5d\\u0e38-\\u0e39\\u0f43\\u0f4d\\u0f52\\u0f57\\u0f5c'
  + '\\u0f69\\u0f72-\\u0f76\\u0f78\\u0f80-\\u0f83\\u0f93\\u0f9d\\u0fa2\\u0fa7\\u0fac\\u0fb9\\u1939-\\u193a'
  + '\\u1a17\\u1b6b\\u1cda-\\u1cdb\\u1dc0-\\u1dcf\\u1dfc\\u1dfe\\u1f71\\u1f73\\u1f75\\u1f77\\u1f79\\u1f7b'
  + '\\u1f7d\\u1fbb\\u1fbe\\u1fc9\\u1fcb\\u1fd3\\u1fdb\\u1fe3\\u1feb\\u1fee-\\u1fef\\u1ff9\\u1ffb\\u1ffd'
  + '\\u2000-\\u2001\\u20d0-\\u20d1\\u20d4-\\u20d7\\u20e7-\\u20e9\\u2126\\u212a-\\u212b\\u2329-\\u232a\\u2adc'
  + '\\u302b-\\u302c\\uaab2-\\uaab3\\uf900-\\ufa0d\\ufa10\\ufa12\\ufa15-\\ufa1e\\ufa20\\ufa22\\ufa25-\\ufa26'
  + '\\ufa2a-\\ufa2d\\ufa30-\\ufa6d\\ufa70-\\ufad9\\ufb1d\\ufb1f\\ufb2a-\\ufb36\\ufb38-\\ufb3c\\ufb3e'
  + '\\ufb40-\\ufb41\\ufb43-\\ufb44\\ufb46-\\ufb4e]');
const ESCAPABLE_BY_SERVER = /[\x00-\x1f\u200c-\u200f\u2028-\u202f\u2060-\u206f\ufff0-\uffff]/;

/** '"\\u....\\u...."': every code unit in [from, 65536) matching `pattern`, JSON-escaped. */
function escapedString(pattern, from) {
  let body = '';
  for (let code = from; code < 65536; code += 1) {
    if (pattern.test(String.fromCharCode(code))) body += `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return `"${body}"`;
}

describe('SockJS protocol: xhr-polling', () => {
  let server;
  const hanging = [];
  before(async () => { server = await startServer(); });
  after(async () => {
    for (const stream of hanging.splice(0)) stream.abort();
    if (server) await server.kill();
  });
  const session = (app = 'echo') => `${server.url}/${app}/000/${randomUUID()}`;
  const post = (url, options) => fetchText('POST', url, options);

  it('Protocol.test_simpleSession', async () => {
    const url = session();
    let r = await post(`${url}/xhr`);
    assert.equal(r.status, 200);
    assert.equal(r.body, 'o\n');
    r = await post(`${url}/xhr_send`, { body: '["a"]' });
    assert.equal(r.status, 204);
    assert.equal(r.body, '');
    r = await post(`${url}/xhr`);
    assert.equal(r.status, 200);
    assert.equal(r.body, 'a["a"]\n');
    checks.verify404(await post(`${server.url}/echo/000/bad_session/xhr_send`, { body: '["a"]' }));

    // Two receiving connections on one session: the second gets 2010.
    const first = openStream('POST', `${url}/xhr`);
    hanging.push(first);
    await sleep(250);
    r = await post(`${url}/xhr`);
    assert.equal(r.body, 'c[2010,"Another connection still open"]\n');
    assert.equal(r.status, 200);
    first.abort();
  });

  it('Protocol.test_closeSession', async () => {
    const url = session('close');
    let r = await post(`${url}/xhr`);
    assert.equal(r.status, 200);
    assert.equal(r.body, 'o\n');
    for (let i = 0; i < 2; i += 1) {
      r = await post(`${url}/xhr`);
      assert.equal(r.status, 200);
      assert.equal(r.body, 'c[3000,"Go away!"]\n');
    }
  });

  it('SessionURLs.test_anyValue', async () => {
    const r = String(Math.floor(Math.random() * 1025));
    for (const part of [`/a/a${r}`, `/_/_${r}`, `/1/${r}`, `/abcdefgh_i-j%20/abcdefg_i-j%20${r}`]) {
      const response = await post(`${server.url}/echo${part}/xhr`);
      assert.equal(response.status, 200, part);
      assert.equal(response.body, 'o\n', part);
    }
  });

  it('SessionURLs.test_invalidPaths', async () => {
    for (const suffix of ['//', '/a./a', '/a/a.', '/./.', '/', '///']) {
      checks.verify404(await fetchText('GET', `${server.url}/echo${suffix}/xhr`));
      checks.verify404(await post(`${server.url}/echo${suffix}/xhr`));
    }
  });

  it('SessionURLs.test_ignoringServerId', async () => {
    const id = randomUUID();
    let r = await post(`${server.url}/echo/000/${id}/xhr`);
    assert.equal(r.body, 'o\n');
    r = await post(`${server.url}/echo/000/${id}/xhr_send`, { body: '["a"]' });
    assert.equal(r.status, 204);
    r = await post(`${server.url}/echo/999/${id}/xhr`);
    assert.equal(r.status, 200);
    assert.equal(r.body, 'a["a"]\n');
  });

  it('XhrPolling.test_options', async () => {
    for (const suffix of ['/xhr', '/xhr_send']) {
      await checks.verifyOptions(`${server.url}/echo/abc/abc${suffix}`, 'OPTIONS, POST');
    }
  });

  it('XhrPolling.test_transport', async () => {
    const url = session();
    let r = await post(`${url}/xhr`, { headers: { Origin: 'test' } });
    assert.equal(r.status, 200);
    assert.equal(r.body, 'o\n');
    checks.verifyContentType(r, 'application/javascript;charset=UTF-8');
    checks.verifyCors(r, 'test');
    checks.verifyNotCached(r);

    r = await post(`${url}/xhr_send`, { body: '["x"]', headers: { Origin: 'test' } });
    assert.equal(r.status, 204);
    assert.equal(r.body, '');
    checks.verifyContentType(r, 'text/plain;charset=UTF-8');
    checks.verifyCors(r, 'test');
    checks.verifyNotCached(r);

    r = await post(`${url}/xhr`);
    assert.equal(r.status, 200);
    assert.equal(r.body, 'a["x"]\n');
  });

  it('XhrPolling.test_invalid_session', async () => {
    checks.verify404(await post(`${session()}/xhr_send`, { body: '["x"]' }));
  });

  it('XhrPolling.test_invalid_json', async () => {
    const url = session();
    let r = await post(`${url}/xhr`);
    assert.equal(r.body, 'o\n');
    r = await post(`${url}/xhr_send`, { body: '["x' });
    assert.equal(r.status, 500);
    assert.match(r.body, /Broken JSON encoding\./);
    r = await post(`${url}/xhr_send`, { body: '' });
    assert.equal(r.status, 500);
    assert.match(r.body, /Payload expected\./);
    r = await post(`${url}/xhr_send`, { body: '["a"]' });
    assert.equal(r.body, '');
    assert.equal(r.status, 204);
    r = await post(`${url}/xhr`);
    assert.equal(r.body, 'a["a"]\n');
    assert.equal(r.status, 200);
  });

  it('XhrPolling.test_content_types', async () => {
    const url = session();
    assert.equal((await post(`${url}/xhr`)).body, 'o\n');
    const contentTypes = ['text/plain', 'T', 'application/json', 'application/xml', '',
      'application/json; charset=utf-8', 'text/xml; charset=utf-8', 'text/xml'];
    for (const contentType of contentTypes) {
      const r = await post(`${url}/xhr_send`, { body: '["a"]', headers: { 'Content-Type': contentType } });
      assert.equal(r.status, 204, `Content-Type ${JSON.stringify(contentType)}`);
      assert.equal(r.body, '');
    }
    const r = await post(`${url}/xhr`);
    assert.equal(r.status, 200);
    assert.equal(r.body, `a[${contentTypes.map(() => '"a"').join(',')}]\n`);
  });

  it('XhrPolling.test_request_headers_cors', async () => {
    const preflight = (requestHeaders) => fetchText('OPTIONS', `${session()}/xhr`, {
      headers: {
        Origin: 'test',
        'Access-Control-Request-Method': 'POST',
        ...(requestHeaders === undefined ? {} : { 'Access-Control-Request-Headers': requestHeaders }),
      },
    });
    let r = await preflight('a, b, c');
    assert.ok(r.status === 204 || r.status === 200);
    checks.verifyCors(r, 'test');
    assert.equal(r.headers['access-control-allow-headers'], 'a, b, c');
    for (const requestHeaders of ['', undefined]) {
      r = await preflight(requestHeaders);
      assert.ok(r.status === 204 || r.status === 200);
      checks.verifyCors(r, 'test');
      assert.equal(r.headers['access-control-allow-headers'], undefined);
    }
  });

  it('XhrPolling.test_sending_empty_frame', async () => {
    const url = session();
    assert.equal((await post(`${url}/xhr`)).body, 'o\n');
    assert.equal((await post(`${url}/xhr_send`, { body: '[]' })).status, 204);
    assert.equal((await post(`${url}/xhr_send`, { body: '["a"]' })).status, 204);
    const r = await post(`${url}/xhr`);
    assert.equal(r.body, 'a["a"]\n');
    assert.equal(r.status, 200);
  });

  it('HandlingClose.test_abort_xhr_polling', async () => {
    const url = session();
    assert.equal((await post(`${url}/xhr`)).body, 'o\n');
    const first = openStream('POST', `${url}/xhr`);
    hanging.push(first);
    await sleep(250);
    assert.equal((await post(`${url}/xhr`)).body, 'c[2010,"Another connection still open"]\n');
    first.abort();
    // Give the server a moment to see the abort before the next poll.
    await sleep(250);
    const r = await post(`${url}/xhr`);
    assert.ok(['o\n', 'c[1002,"Connection interrupted"]\n'].includes(r.body), JSON.stringify(r.body));
  });

  it('JsessionidCookie.test_basic', async () => {
    const r = await fetchText('GET', `${server.url}/cookie_needed_echo/info`);
    assert.equal(r.status, 200);
    checks.verifyNoCookie(r);
    assert.equal(JSON.parse(r.body).cookie_needed, true);
  });

  it('JsessionidCookie.test_xhr', async () => {
    let r = await post(`${session('cookie_needed_echo')}/xhr`);
    assert.equal(r.status, 200);
    assert.equal(r.body, 'o\n');
    assert.deepEqual(r.headers['set-cookie'][0].split(';').map((s) => s.trim().toLowerCase()), ['jsessionid=dummy', 'path=/']);

    r = await post(`${session('cookie_needed_echo')}/xhr`, { headers: { Cookie: 'JSESSIONID=abcdef' } });
    assert.equal(r.status, 200);
    assert.equal(r.body, 'o\n');
    const [cookie, path] = r.headers['set-cookie'][0].split(';').map((s) => s.trim());
    assert.equal(cookie, 'JSESSIONID=abcdef');
    assert.equal(path.toLowerCase(), 'path=/');
  });

  it('JSONEncoding.test_xhr_server_encodes', async () => {
    const serverKillerEscaped = escapedString(ESCAPABLE_BY_SERVER, 255);
    const url = session();
    assert.equal((await post(`${url}/xhr`)).body, 'o\n');
    const payload = `["${JSON.parse(serverKillerEscaped)}"]`;
    assert.equal((await post(`${url}/xhr_send`, { body: payload })).status, 204);
    const r = await post(`${url}/xhr`);
    assert.equal(r.status, 200);
    // Skip framing, brackets: what is left must be the escaped form we started from.
    assert.equal(r.body.trim().slice(2, -1), serverKillerEscaped);
  });

  it('JSONEncoding.test_xhr_server_decodes', async () => {
    const clientKillerEscaped = escapedString(ESCAPABLE_BY_CLIENT, 0);
    const url = session();
    assert.equal((await post(`${url}/xhr`)).body, 'o\n');
    assert.equal((await post(`${url}/xhr_send`, { body: `[${clientKillerEscaped}]` })).status, 204);
    const r = await post(`${url}/xhr`);
    assert.equal(r.status, 200);
    assert.equal(JSON.parse(r.body.trim().slice(2, -1)), JSON.parse(clientKillerEscaped));
  });
});
