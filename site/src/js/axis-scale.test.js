'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { logTicks, floor125, ceil125, rttRange, rateRange, spansDecades, valueRange } = require('./axis-scale');

test('1-2-5 rounding', () => {
  assert.equal(floor125(0.73), 0.5);
  assert.equal(floor125(200), 200);
  assert.equal(ceil125(201), 500);
  assert.equal(ceil125(1800), 2000);
  assert.equal(ceil125(7), 10);
});

test('logTicks lists 1-2-5 values inside the range', () => {
  assert.deepEqual(logTicks(0.5, 20), [0.5, 1, 2, 5, 10, 20]);
});

test('rttRange always shows the threshold with headroom', () => {
  const log = rttRange([1.3, 40], 200, 'log');
  assert.equal(log.min, 1); // 1.3 × 0.8 = 1.04 → 1
  assert.equal(rttRange([1.2, 40], 200, 'log').min, 0.5); // 0.96 → 0.5: the point stays off the frame
  assert.equal(log.max, 500); // 1.5 × 200 = 300 → 500
  assert.ok(log.ticks.includes(200));
  const linear = rttRange([3, 2500], 200, 'linear');
  assert.equal(linear.min, 0);
  assert.equal(linear.max, 2625);
  assert.equal(linear.ticks, null);
  assert.equal(rttRange([], 200, 'log').min, 100);
});

test('rateRange: linear from 0, log over the positive rates at 1-2-5 ticks', () => {
  assert.deepEqual(rateRange([0, 40, 1000], 'linear'), { min: 0, max: 1030, ticks: null });
  assert.deepEqual(rateRange([0, 40, 1000], 'log'), { min: 20, max: 1000, ticks: [20, 50, 100, 200, 500, 1000] });
  assert.deepEqual(rateRange([], 'log'), { min: 1, max: 1, ticks: [1] });
});

test('a log axis is chosen only for positive values spanning a decade or more', () => {
  assert.equal(spansDecades([20, 150, 900]), true);
  assert.equal(spansDecades([12, 16, 40]), false);
  assert.equal(spansDecades([-2, 40, 900]), false);
  assert.equal(spansDecades([5, null]), false);
  assert.equal(spansDecades([]), false);
});

test('a value axis: 1-2-5 log bounds round the values, or linear from 0 (below it for a negative value)', () => {
  assert.deepEqual(valueRange([30, 900], 'log'), { min: 20, max: 1000, ticks: [20, 50, 100, 200, 500, 1000] });
  assert.deepEqual(valueRange([10, 20], 'linear'), { min: 0, max: 21.6, ticks: null });
  assert.equal(valueRange([-3, 20], 'linear').min, -3);
});
