'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { loadExpected, verdict } = require('./verdict');
const { TRANSPORTS } = require('./transports');

const listed = { reason: 'its iframe loads the CDN', cause: /not reached: https:\/\/cdn\./ };

describe('verdict', () => {
  it('a case with no listed failure passes or fails as it ran', () => {
    assert.deepEqual(verdict(null, undefined), { status: 'pass', note: null });
    assert.deepEqual(verdict('echo: timed out', undefined), { status: 'FAIL', note: 'echo: timed out' });
  });

  it('a listed failure that fails for its cause is an expected failure with its reason', () => {
    assert.deepEqual(verdict('echo: not reached: https://cdn.x/s.js', listed),
      { status: 'xfail', note: 'its iframe loads the CDN' });
  });

  it('a listed failure that passes fails the run (strict)', () => {
    const v = verdict(null, listed);
    assert.equal(v.status, 'FAIL');
    assert.match(v.note, /passed: remove it/);
  });

  it('a listed race may pass, fails expectedly for its cause, and fails the run otherwise', () => {
    const race = { ...listed, race: true };
    assert.deepEqual(verdict(null, race), { status: 'pass', note: null });
    assert.equal(verdict('echo: not reached: https://cdn.x/s.js', race).status, 'xfail');
    assert.equal(verdict('echo: timed out', race).status, 'FAIL');
  });

  it('a listed failure that fails for another cause fails the run', () => {
    const v = verdict('echo: opened with websocket, not iframe-htmlfile', listed);
    assert.equal(v.status, 'FAIL');
    assert.match(v.note, /failed otherwise: echo: opened with websocket/);
  });
});

describe('loadExpected', () => {
  it('reads the real file: every entry names a known transport, a reason and a cause', () => {
    const expected = loadExpected(undefined, TRANSPORTS);
    assert.ok(Object.keys(expected).length > 0);
    for (const byTransport of Object.values(expected)) {
      for (const entry of Object.values(byTransport)) assert.ok(entry.cause instanceof RegExp);
    }
  });

  it('refuses an entry without a cause, naming it', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scc-')), 'x.json');
    fs.writeFileSync(file, JSON.stringify({ 'sockjs-go': { websocket: { reason: 'r' } } }));
    assert.throws(() => loadExpected(file, TRANSPORTS), /sockjs-go\.websocket: needs a "reason" and a "cause"/);
    fs.writeFileSync(file, JSON.stringify({ 'sockjs-go': { 'web-socket': { reason: 'r', cause: 'c' } } }));
    assert.throws(() => loadExpected(file, TRANSPORTS), /web-socket: unknown transport/);
    fs.writeFileSync(file, JSON.stringify({ 'sockjs-go': { websocket: { reason: 'r', cause: 'c', race: 'yes' } } }));
    assert.throws(() => loadExpected(file, TRANSPORTS), /sockjs-go\.websocket: "race" must be true or false/);
  });
});
