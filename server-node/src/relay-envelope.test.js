'use strict';
// The relay envelope (docs/protocol.md §6): what one Redis PUBLISH carries.
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const {
  newOrigin, batchEnvelope, messageEnvelope, openEnvelope, frameMessages, EnvelopeError, ORIGIN_LENGTH,
} = require('./relay-envelope');

describe('relay envelope', () => {
  it('origins are 16 lowercase hex characters, different per call', () => {
    const a = newOrigin();
    assert.match(a, /^[0-9a-f]{16}$/);
    assert.equal(a.length, ORIGIN_LENGTH);
    assert.notEqual(a, newOrigin());
  });

  it('a batch is the origin then the a[...] frame, unchanged', () => {
    const origin = '0123456789abcdef';
    const envelope = batchEnvelope(origin, 'a["x","y\\u2028"]');
    assert.equal(envelope, '0123456789abcdefa["x","y\\u2028"]');
    assert.deepEqual(openEnvelope(envelope), { origin, kind: 'a', body: 'a["x","y\\u2028"]' });
    assert.deepEqual(frameMessages('a["x","y\\u2028"]'), ['x', 'y\u2028']);
  });

  it('a single message is the origin, "m", then the message as is (even one that looks like a frame)', () => {
    const origin = 'fedcba9876543210';
    for (const message of ['hello', '', 'a["not a frame"]', 'ünï ☃']) {
      assert.deepEqual(openEnvelope(messageEnvelope(origin, message)), { origin, kind: 'm', body: message });
    }
  });

  it('refuses what is not an envelope', () => {
    for (const bad of ['', 'short', 'XYZ3456789abcdefa[]', '0123456789abcdefx', '0123456789abcdefa["x"',
      '0123456789abcdefaX"x"]']) {
      assert.throws(() => openEnvelope(bad), EnvelopeError, JSON.stringify(bad));
    }
    assert.throws(() => frameMessages('a[1,2]'), EnvelopeError);
    assert.throws(() => frameMessages('a[broken'), EnvelopeError);
  });
});
