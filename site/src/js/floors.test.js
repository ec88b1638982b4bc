'use strict';
// The fairness rule on saturation figures: the server's limit only when the
// server was >= 95 % busy, the client was not client-bound and the level
// really overloaded the server. Same cases and words as bench/tests/test_floors.py.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const {
  SERVER_BUSY_PCT, NOT_SAMPLED_NOTE, serverSampled, repetitionFloorReasons, levelFloorReasons, describeFloor,
} = require('./floors');

// One repetition's level, reduced to what the rule reads (not benchmark data).
// `cpu: undefined` leaves server_cpu_pct out, as version 1 files do.
function rep(options = {}) {
  const { clientBound = false, end = 'saturated', sat = true } = options;
  const figure = { received_per_s: 1000, client_bound: clientBound };
  if (!('cpu' in options)) figure.server_cpu_pct = 99;
  else if (options.cpu !== undefined) figure.server_cpu_pct = options.cpu;
  return { saturation: sat ? figure : null, end_reason: end };
}

test('a busy server with a free client is the server\'s limit', () => {
  assert.deepEqual(repetitionFloorReasons(rep({ cpu: SERVER_BUSY_PCT })), []);
  assert.deepEqual(repetitionFloorReasons(rep({ cpu: 100.4, end: 'overloaded' })), []);
});

test('a level without a figure has nothing to mark', () => {
  assert.deepEqual(repetitionFloorReasons(rep({ sat: false, end: 'connect_failed' })), []);
  assert.deepEqual(levelFloorReasons(rep({ sat: false })), []);
});

test('each reason is named', () => {
  assert.deepEqual(repetitionFloorReasons(rep({ clientBound: true })), ['client-bound']);
  assert.deepEqual(repetitionFloorReasons(rep({ cpu: null })), ['server CPU not measured']);
  assert.deepEqual(repetitionFloorReasons(rep({ cpu: undefined })), ['server CPU not measured'], 'absent (a version 1 file) counts as not measured');
  // Rounded down: never "95 % busy (< 95 %)".
  assert.deepEqual(repetitionFloorReasons(rep({ cpu: 94.6 })), ['server 94 % busy (< 95 %)']);
  assert.deepEqual(repetitionFloorReasons(rep({ cpu: 80.2 })), ['server 80 % busy (< 95 %)']);
  assert.deepEqual(repetitionFloorReasons(rep({ end: 'max_rate' })), ['max rate reached (never overloaded)']);
  assert.deepEqual(repetitionFloorReasons(rep({ end: 'connect_failed' })), ['level ended: connect_failed']);
  assert.deepEqual(repetitionFloorReasons(rep({ end: 'aborted' })), ['level ended: aborted']);
  assert.deepEqual(repetitionFloorReasons(rep({ cpu: 70, clientBound: true, end: 'max_rate' })),
    ['client-bound', 'server 70 % busy (< 95 %)', 'max rate reached (never overloaded)']);
});

test('a single-run level is its own only repetition: no "in k of n"', () => {
  assert.deepEqual(levelFloorReasons(rep({ cpu: 90 })), ['server 90 % busy (< 95 %)']);
  assert.deepEqual(levelFloorReasons(rep()), []);
  assert.deepEqual(levelFloorReasons({ ...rep({ clientBound: true }), repetitions: 1, runs: [rep({ clientBound: true })] }),
    ['client-bound']);
});

test('one client-bound repetition marks the repeated level, saying how many', () => {
  // The merged level's own saturation (the median repetition's) is clean: the runs decide.
  const level = { ...rep(), repetitions: 3, runs: [rep(), rep({ clientBound: true }), rep()] };
  assert.deepEqual(levelFloorReasons(level), ['client-bound in 1 of 3']);
});

test('repetitions\' reasons are merged by kind, in rule order, busy as the range seen', () => {
  const level = { repetitions: 3, runs: [rep({ cpu: 93.9 }), rep({ cpu: 81.2, end: 'max_rate', clientBound: true }), rep({ cpu: 99 })] };
  assert.deepEqual(levelFloorReasons(level), [
    'client-bound in 1 of 3',
    'server 81–93 % busy (< 95 %) in 2 of 3',
    'max rate reached (never overloaded) in 1 of 3',
  ]);
  assert.deepEqual(levelFloorReasons({ runs: [rep({ cpu: 90.1 }), rep({ cpu: 90.8 })] }), ['server 90 % busy (< 95 %) in 2 of 2']);
  assert.deepEqual(levelFloorReasons({ runs: [rep({ end: 'aborted' }), rep({ cpu: null })] }),
    ['server CPU not measured in 1 of 2', 'level ended: aborted in 1 of 2']);
  assert.deepEqual(levelFloorReasons({ runs: [rep(), rep(), rep()] }), []);
});

test('a repetition without a figure adds no reason but still counts among the repetitions', () => {
  assert.deepEqual(levelFloorReasons({ runs: [rep({ sat: false, end: 'connect_failed' }), rep({ cpu: 50 })] }),
    ['server 50 % busy (< 95 %) in 1 of 2']);
});

test('describeFloor words the reasons for the pages', () => {
  assert.equal(describeFloor(['client-bound in 1 of 3', 'server 81–93 % busy (< 95 %) in 2 of 3']),
    'a floor: client-bound in 1 of 3, server 81–93 % busy (< 95 %) in 2 of 3');
});

test('a version 1 file takes the CPU of the point its figure came from', () => {
  const level = rep({ cpu: undefined });
  level.points = [
    { state: 'ok', received_per_s: 900, server_cpu_pct: 40 },
    { state: 'ok', received_per_s: 1000, server_cpu_pct: 87.9 },
    { state: 'saturated', received_per_s: 1000, server_cpu_pct: 99 },
  ];
  assert.deepEqual(repetitionFloorReasons(level), ['server 87 % busy (< 95 %)']);
  level.points[1].server_cpu_pct = 99;
  assert.deepEqual(repetitionFloorReasons(level), []);
  level.points = [];
  assert.deepEqual(repetitionFloorReasons(level), ['server CPU not measured']);
});

test('a server not sampled is judged from the client\'s side alone (bench-url without SERVER_PID)', () => {
  assert.equal(serverSampled({ server: { pid: 4242 } }), true);
  assert.equal(serverSampled({ server: { pid: null } }), false);
  assert.deepEqual(levelFloorReasons(rep({ cpu: null }), false), []);
  assert.deepEqual(levelFloorReasons(rep({ cpu: null, clientBound: true, end: 'max_rate' }), false),
    ['client-bound', 'max rate reached (never overloaded)']);
  const level = { runs: [rep({ cpu: null }), rep({ cpu: null, clientBound: true })] };
  assert.deepEqual(levelFloorReasons(level, false), ['client-bound in 1 of 2']);
  assert.deepEqual(levelFloorReasons(level), ['client-bound in 1 of 2', 'server CPU not measured in 2 of 2']);
  assert.match(NOT_SAMPLED_NOTE, /judged from the client's side alone/);
});
