'use strict';
// A point during which a client agent was lost (state agent_lost, results/README.md) measured
// part of the sessions or none: the pages must never read it as an ok point nor take a figure
// from it. The shape is the 100,000-session PyPy run's level whose agent was lost before its
// confirm point (minimal, hand-built from that file: not a committed result).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { pointAtRate } = require('./sessions-figures');
const { createResultValidator } = require('../../tools/validate-results');

const FIXTURE = path.join(__dirname, '..', '..', 'test', 'fixtures', 'sessions', '2026-11-26-sockbench-tornado-pypy-json-fast.json');
const copy = (value) => JSON.parse(JSON.stringify(value));
const NULL_LATENCY = { count: 0, mean: null, stddev: null, min: null, p50: null, p90: null, p99: null, p999: null, max: null };

/** A point that measured nothing because its agent had been lost: zeros, nulls, state agent_lost. */
function lostPoint(targetRate, order) {
  return {
    target_rate: targetRate, duration_s: 2, sent: 0, sent_per_s: 0, received: 0, received_per_s: 0, expected_received: 0,
    lost: 0, connection_errors: 0, rtt_ms: NULL_LATENCY, rtt_uncorrected_ms: NULL_LATENCY, client_cpu_pct: 0,
    server_cpu_pct: null, server_rss_bytes: null, state: 'agent_lost', client_bound: false, client_bound_reasons: [],
    phase: 'confirm', order, delivered_pct: null, rtt_first_half_mean_ms: null, rtt_second_half_mean_ms: null,
    backlog_growing: false, ok_strict: false, steal_pct: null, fanout_ms: NULL_LATENCY,
    completion_ms: { count: 0, incomplete: 0, p50: null, p90: null, p99: null, max: null }, agent_lost: 'vm:10042',
  };
}

test('a result with an agent_lost point validates against results/schema.json (v5)', () => {
  const validate = createResultValidator(path.join(__dirname, '..', '..', '..', 'results', 'schema.json'));
  const doc = copy(require(FIXTURE));
  doc.schema = 'sockbench.result/5';
  const level = doc.levels[doc.levels.length - 1];
  level.points.push(lostPoint(level.points[0].target_rate, level.points.length));
  level.end_reason = 'agent_lost';
  assert.deepEqual(validate(doc), []);
  level.points[level.points.length - 1].state = 'lost';
  assert.notDeepEqual(validate(doc), []);
});

test('the p99 at 5 msgs/s never comes from a point whose agent was lost, even with the others\' copies timed', () => {
  const partial = { ...lostPoint(5, 0), phase: 'ramp', fanout_ms: { ...NULL_LATENCY, count: 10, p99: 40 } };
  const confirm = { target_rate: 5, order: 1, state: 'saturated', fanout_ms: { p99: 250 } };
  assert.equal(pointAtRate([partial]), null);
  assert.equal(pointAtRate([partial, confirm]), confirm);
});
