'use strict';
// The SockJS 0.3.3 suite's shared header checks (sockjs-protocol.py, class
// Test: verify_options, verify_cors, verify_not_cached, ...), as assertions.

const assert = require('node:assert/strict');
const { fetchText } = require('./http-client');

function verifyContentType(response, expected) {
  assert.equal((response.headers['content-type'] || '').replace(/ /g, ''), expected);
}

function verifyNoCookie(response) {
  assert.equal(response.headers['set-cookie'], undefined);
}

function verifyCors(response, origin) {
  if (origin) {
    assert.equal(response.headers['access-control-allow-origin'], origin);
    assert.equal(response.headers['access-control-allow-credentials'], 'true');
  } else {
    assert.equal(response.headers['access-control-allow-origin'], '*');
    assert.equal(response.headers['access-control-allow-credentials'], undefined);
  }
}

function verifyNotCached(response) {
  assert.equal(response.headers['cache-control'], 'no-store, no-cache, no-transform, must-revalidate, max-age=0');
  assert.equal(response.headers.expires, undefined);
  assert.equal(response.headers['last-modified'], undefined);
}

async function verifyOptions(url, allowedMethods) {
  for (const origin of ['test', 'null']) {
    const r = await fetchText('OPTIONS', url, {
      headers: { 'Access-Control-Request-Method': allowedMethods, Origin: origin },
    });
    assert.ok(r.status === 204 || r.status === 200, `status ${r.status}`);
    assert.match(r.headers['cache-control'], /public/);
    assert.match(r.headers['cache-control'], /max-age=[1-9][0-9]{6}/, 'max-age must be large, one year is best');
    assert.ok(r.headers.expires, 'Expires header');
    assert.ok(Number(r.headers['access-control-max-age']) > 1000000);
    for (const method of allowedMethods.split(',')) {
      assert.ok(r.headers['access-control-allow-methods'].includes(method.trim()),
        `Access-Control-Allow-Methods lacks ${method.trim()}`);
    }
    assert.equal(r.body, '');
    verifyCors(r, origin);
  }
}

function verify404(response) {
  assert.equal(response.status, 404);
}

function verify405(response) {
  assert.equal(response.status, 405);
  assert.equal(response.headers['content-type'], undefined);
  assert.ok(response.headers.allow, 'Allow header');
  assert.equal(response.body, '');
}

module.exports = { verifyContentType, verifyNoCookie, verifyCors, verifyNotCached, verifyOptions, verify404, verify405 };
