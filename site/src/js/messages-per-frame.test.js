'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const messagesPerFrame = require('./messages-per-frame');

// Shaped as the client writes a point's `messages_per_frame` (results/schema.json).
const stats = (mean, p50, p99, max) => ({
  frames: 1000, messages: Math.round(1000 * mean), mean, p50, p90: p99, p99, max,
  per_connection: { min: mean, p50: mean, max: mean },
});

test('a coalesced point reads as its mean with p50 and p99', () => {
  assert.equal(messagesPerFrame.describe(stats(12.4, 11, 40, 52)), '12.4 msgs/frame (p50 11, p99 40)');
  assert.equal(messagesPerFrame.describe(stats(123.456, 120, 180, 200)), '123 msgs/frame (p50 120, p99 180)');
});

test('a naive point, every frame one message, reads "1 msg/frame"', () => {
  assert.equal(messagesPerFrame.describe(stats(1, 1, 1, 1)), '1 msg/frame');
});

test('a batch mean just over one keeps its decimals, so it never reads as the naive "1"', () => {
  assert.equal(messagesPerFrame.describe(stats(1.004, 1, 1, 3)), '1.00 msgs/frame (p50 1, p99 1)');
  assert.equal(messagesPerFrame.describe(stats(2.5, 2, 4, 5)), '2.50 msgs/frame (p50 2, p99 4)');
});

test('a point without the field (older files, no frame received) has no text', () => {
  assert.equal(messagesPerFrame.describe(undefined), null);
  assert.equal(messagesPerFrame.describe(null), null);
});

test('runRecords: a run says "not recorded" only when no point of any level has the field', () => {
  const level = (...points) => ({ concurrency: 25, points });
  const without = { levels: [level({ received: 10 }), level({ received: 20 })] };
  const partly = { levels: [level({ received: 10 }), level({ received: 20, messages_per_frame: stats(1, 1, 1, 1) })] };
  assert.equal(messagesPerFrame.runRecords(without), false);
  assert.equal(messagesPerFrame.runRecords(partly), true);
  assert.equal(messagesPerFrame.runRecords({ levels: [] }), false);
  assert.match(messagesPerFrame.NOT_RECORDED, /not recorded/);
});
