'use strict';
// The fairness rule on saturation figures: the server's limit when the server
// was >= 95 % busy, or its own limit below full CPU when the client had clear
// headroom; otherwise a floor, with the reasons; the client was not
// client-bound and the level really overloaded the server in either case.
// The cases are docs/contract/floor-rule-cases.json, which
// bench/tests/test_floors.py runs against bench/floors.py too: one table,
// so the two implementations cannot drift apart unseen.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const {
  SERVER_BUSY_PCT, SERVER_OWN_LIMIT_MIN_PCT, CLIENT_HEADROOM_CPU_PCT, CLIENT_CEILING_SHARE_PCT, NOT_SAMPLED_NOTE, serverSampled,
  serverCapacityPct, repetitionFloorReasons, repetitionLimitNotes, levelFloorReasons, levelLimitNotes, describeFloor,
} = require('./floors');

const CASES = JSON.parse(fs.readFileSync(
  path.join(__dirname, '..', '..', '..', 'docs', 'contract', 'floor-rule-cases.json'), 'utf8'));
const RULES = {
  repetition: [repetitionFloorReasons, repetitionLimitNotes],
  level: [levelFloorReasons, levelLimitNotes],
};

for (const c of CASES.cases) {
  test(c.name, () => {
    const [reasons, notes] = RULES[c.rule];
    const server = { sampled: c.server_sampled ?? true, capacityPct: c.server_capacity_pct ?? 100 };
    assert.deepEqual(reasons(c.level, server), c.reasons);
    assert.deepEqual(notes(c.level, server), c.notes);
  });
}

for (const c of CASES.server_sampled) {
  test(c.name, () => {
    assert.equal(serverSampled(c.result), c.sampled);
  });
}

for (const c of CASES.server_capacity) {
  test(c.name, () => {
    assert.equal(serverCapacityPct(c.result), c.capacity_pct);
  });
}

test('the constants and the not-sampled note are the table\'s', () => {
  assert.equal(SERVER_BUSY_PCT, CASES.server_busy_pct);
  assert.equal(SERVER_OWN_LIMIT_MIN_PCT, CASES.server_own_limit_min_pct);
  assert.equal(CLIENT_HEADROOM_CPU_PCT, CASES.client_headroom_cpu_pct);
  assert.equal(CLIENT_CEILING_SHARE_PCT, CASES.client_ceiling_share_pct);
  assert.equal(NOT_SAMPLED_NOTE, CASES.not_sampled_note);
});

test('a bare boolean where a server view belongs is refused, not read as "not sampled"', () => {
  const level = { saturation: { received_per_s: 1000, client_bound: false, server_cpu_pct: 50 }, end_reason: 'saturated' };
  for (const f of [repetitionFloorReasons, repetitionLimitNotes, levelFloorReasons, levelLimitNotes]) {
    assert.throws(() => f(level, true), TypeError);
  }
});

test('describeFloor words the reasons for the pages', () => {
  assert.equal(describeFloor(['client-bound in 1 of 3', 'server 81–93 % busy (< 95 %), client 80–91 % busy in 2 of 3']),
    'a floor: client-bound in 1 of 3, server 81–93 % busy (< 95 %), client 80–91 % busy in 2 of 3');
});
