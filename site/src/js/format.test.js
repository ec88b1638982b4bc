'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const format = require('./format');

test('rate: compact msgs/s', () => {
  assert.equal(format.rate(950), '950');
  assert.equal(format.rate(12345), '12.3k');
  assert.equal(format.rate(1250000), '1.25M');
  assert.equal(format.rate(0), '0');
  assert.equal(format.rate(null), '—');
});

test('ms and bytes keep three significant digits', () => {
  assert.equal(format.ms(0.4234), '0.423 ms');
  assert.equal(format.ms(12.34), '12.3 ms');
  assert.equal(format.ms(1234.5), '1,235 ms');
  assert.equal(format.bytes(50 * 1024 * 1024), '50 MiB');
  assert.equal(format.bytes(3 * 1024 * 1024 * 1024), '3 GiB');
  assert.equal(format.bytes(null), '—');
});

test('cpuList prints ranges like taskset', () => {
  assert.equal(format.cpuList([0, 1, 2, 5]), '0-2,5');
  assert.equal(format.cpuList([3]), '3');
  assert.equal(format.cpuList([]), 'any');
});

test('utcMinute', () => {
  assert.equal(format.utcMinute('2026-11-22T12:30:59Z'), '2026-11-22 12:30 UTC');
  assert.equal(format.utcMinute('not a date'), 'not a date');
});

test('duration', () => {
  assert.equal(format.duration(23.4), '23 s');
  assert.equal(format.duration(600), '10 min');
  assert.equal(format.duration(3900), '1 h 05 min');
});

test('scaleOut: nothing for one process, workers and broker otherwise', () => {
  assert.equal(format.scaleOut({ name: 'x' }), null);
  assert.equal(format.scaleOut({ workers: 1 }), null);
  assert.equal(format.scaleOut({ workers: 2, broker: { url: 'private', private: true } }), '2 workers + broker');
  assert.equal(format.scaleOut({ workers: 1, broker: { url: 'redis://127.0.0.1:6379/0', private: false } }),
    '1 worker + broker');
  assert.equal(format.scaleOut({ workers: 2, broker: { url: 'private', private: true },
    proxy: { name: 'haproxy', version: '2.6.12' } }), '2 workers + broker behind haproxy');
});
