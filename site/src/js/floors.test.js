'use strict';
// The fairness rule on saturation figures: the server's limit only when the
// server was >= 95 % busy, the client was not client-bound and the level
// really overloaded the server. The cases are docs/contract/floor-rule-cases.json,
// which bench/tests/test_floors.py runs against bench/floors.py too: one table,
// so the two implementations cannot drift apart unseen.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const {
  SERVER_BUSY_PCT, NOT_SAMPLED_NOTE, serverSampled, repetitionFloorReasons, levelFloorReasons, describeFloor,
} = require('./floors');

const CASES = JSON.parse(fs.readFileSync(
  path.join(__dirname, '..', '..', '..', 'docs', 'contract', 'floor-rule-cases.json'), 'utf8'));
const RULES = { repetition: repetitionFloorReasons, level: levelFloorReasons };

for (const c of CASES.cases) {
  test(c.name, () => {
    assert.deepEqual(RULES[c.rule](c.level, c.server_sampled ?? true), c.reasons);
  });
}

for (const c of CASES.server_sampled) {
  test(c.name, () => {
    assert.equal(serverSampled(c.result), c.sampled);
  });
}

test('the busy threshold and the not-sampled note are the table\'s', () => {
  assert.equal(SERVER_BUSY_PCT, CASES.server_busy_pct);
  assert.equal(NOT_SAMPLED_NOTE, CASES.not_sampled_note);
});

test('describeFloor words the reasons for the pages', () => {
  assert.equal(describeFloor(['client-bound in 1 of 3', 'server 81–93 % busy (< 95 %) in 2 of 3']),
    'a floor: client-bound in 1 of 3, server 81–93 % busy (< 95 %) in 2 of 3');
});
