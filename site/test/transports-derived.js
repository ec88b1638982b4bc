'use strict';
// Runs on other SockJS transports (schema v6, results/README.md "Transports"),
// which the fixtures lack, made at test time from a committed reference run
// (results/reference-runtimes/: sockjs-node, naive, REPEAT=3, three levels):
//  - a mix, websocket:16,xhr-streaming:2,eventsource:1,xhr-polling:1, every
//    point (the merged level's and each repetition's) given `transports[]` in
//    the client's shape: the point's sessions dealt as the client deals them
//    (smooth weighted round robin over the weights), its counts split by
//    sessions, and each transport's latency the point's scaled by a factor of
//    its own (RTT_FACTORS: made up, only so the lines stand apart; the site
//    draws whatever the file says), its state the point's (the worst);
//  - a run of one transport, xhr-streaming: the same file renamed, no breakdown.
// Both carry the client's label suffix (" · <spec>") and pass results/schema.json
// (the build validates them: a shape that does not is a failed build).

const fs = require('node:fs');
const path = require('node:path');

const REFERENCE_FILE = path.join(__dirname, '..', '..', 'results', 'reference-runtimes', '2026-11-26-sockjs-node-node-na-naive.json');
const MIX = 'websocket:16,xhr-streaming:2,eventsource:1,xhr-polling:1';
const RTT_FACTORS = { websocket: 1, 'xhr-streaming': 1.3, eventsource: 1.6, 'xhr-polling': 2.5 };
const LATENCY_FIELDS = ['mean', 'stddev', 'min', 'p50', 'p90', 'p99', 'p999', 'max'];

const copy = (value) => JSON.parse(JSON.stringify(value));

/** The committed reference run, as read from disk. */
function referenceRun() {
  return JSON.parse(fs.readFileSync(REFERENCE_FILE, 'utf8'));
}

/**
 * Sessions per transport among the first `n` clients, dealt as the client
 * does: client i gets the i-th pick of a smooth weighted round robin.
 * @returns {Map<string, number>} in the spec's order
 */
function dealSessions(spec, n) {
  const entries = spec.split(',').map((e) => { const [transport, w] = e.split(':'); return { transport, weight: Number(w || 1), current: 0 }; });
  const total = entries.reduce((s, e) => s + e.weight, 0);
  const counts = new Map(entries.map((e) => [e.transport, 0]));
  for (let i = 0; i < n; i++) {
    for (const e of entries) e.current += e.weight;
    const pick = entries.reduce((best, e) => (e.current > best.current ? e : best));
    pick.current -= total;
    counts.set(pick.transport, counts.get(pick.transport) + 1);
  }
  return counts;
}

/** `total` split by sessions (rounded down), the remainder on the first transport, so the parts add up. */
function splitBySessions(total, counts, sessions) {
  const parts = [...counts.values()].map((c) => Math.floor((total * c) / sessions));
  parts[0] += total - parts.reduce((s, p) => s + p, 0);
  return parts;
}

function scaledLatency(latency, factor, count) {
  const out = { ...latency, count };
  for (const field of LATENCY_FIELDS) if (out[field] != null) out[field] = Math.round(out[field] * factor * 1000) / 1000;
  return out;
}

/** The point's `transports[]` for `sessions` connected sessions dealt by MIX. */
function breakdown(point, sessions) {
  const counts = dealSessions(MIX, sessions);
  const sent = splitBySessions(point.sent, counts, sessions);
  const received = splitBySessions(point.received, counts, sessions);
  const lost = splitBySessions(point.lost, counts, sessions);
  const errors = splitBySessions(point.connection_errors, counts, sessions);
  return [...counts.entries()].map(([transport, n], i) => {
    const expected = point.sent * n;
    const entry = {
      transport,
      sessions: n,
      sent: sent[i],
      received: received[i],
      expected_received: expected,
      lost: lost[i],
      connection_errors: errors[i],
      delivered_pct: expected > 0 ? Math.round((100000 * received[i]) / expected) / 1000 : null,
      rtt_ms: scaledLatency(point.rtt_ms, RTT_FACTORS[transport], point.rtt_ms.count === 0 ? 0 : sent[i]),
      state: point.state,
    };
    if (point.messages_per_frame) entry.messages_per_frame = copy(point.messages_per_frame);
    return entry;
  });
}

function v6(result, spec, suffix) {
  const out = copy(result);
  out.schema = 'sockbench.result/6';
  out.run_id = `${result.run_id}-${suffix}`;
  out.label = `${result.label} · ${spec}`;
  out.parameters.transports = spec;
  return out;
}

/** The reference run measured on the mix: every point with its breakdown. */
function mixedRun(result = referenceRun()) {
  const out = v6(result, MIX, 'mix');
  for (const level of out.levels) {
    for (const holder of [level, ...(level.runs || [])]) {
      for (const point of holder.points) point.transports = breakdown(point, holder.connected);
    }
  }
  return out;
}

/** The reference run labelled as one transport, xhr-streaming: a v6 file without a breakdown. */
function singleTransportRun(result = referenceRun()) {
  return v6(result, 'xhr-streaming', 'xhr-streaming');
}

module.exports = { REFERENCE_FILE, MIX, RTT_FACTORS, referenceRun, dealSessions, mixedRun, singleTransportRun };
