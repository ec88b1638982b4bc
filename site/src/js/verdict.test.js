'use strict';
// The verdict sentence: ranks only what the ranges support. Cases come from the
// committed reference set (results/reference, REPEAT=3, real runs) and from the
// site's single-run fixtures; a missing run or a floor is made by removing
// measurements from a real file, never by adding numbers. The limit server
// is known as the site knows it: from the registry's `limit` group.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { verdicts: verdictsOf, relation } = require('./verdict');
const { readRegistry, registryFields, limitServers } = require('../../tools/server-registry');

const REGISTRY = readRegistry();
const LIMITS = limitServers(REGISTRY);
/** The verdicts as the page and make compare give them: the registry's limit servers known. */
const verdicts = (runs, options) => verdictsOf(runs, { limitServers: LIMITS, ...options });

const REFERENCE = path.join(__dirname, '..', '..', '..', 'results', 'reference');
const FIXTURES = path.join(__dirname, '..', '..', 'test', 'fixtures');

function runsIn(dir, pattern = /^\d{4}-.*\.json$/) {
  return fs.readdirSync(dir).filter((f) => pattern.test(f)).sort().map((f) => {
    const result = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    return { run_id: result.run_id, label: result.label, started_at: result.started_at, ...registryFields(REGISTRY, result.server), result };
  });
}

const perMessage = (list) => list.find((v) => v.group === 'per-message');
const entry = (v, name) => v.ranked.find((e) => e.name === name);

/** Every adjacent pair of every verdict at every level, with what the rule saw. */
function everyPair(runs) {
  const pairs = [];
  for (const first of verdicts(runs)) {
    for (const level of first.levels) {
      const v = verdicts(runs, { level }).find((x) => x.group === first.group);
      v.relations.forEach((rel, i) => pairs.push({ rel, higher: v.ranked[i].figure, lower: v.ranked[i + 1].figure, v }));
    }
  }
  return pairs;
}

test('">" only where the ranges do not overlap, both repeated, and the lower figure is the server\'s limit', () => {
  const pairs = everyPair(runsIn(REFERENCE));
  assert.ok(pairs.some((p) => p.rel.symbol === '>'), 'the reference set has strict orders');
  for (const { rel, higher, lower, v } of pairs) {
    if (rel.symbol !== '>') continue;
    assert.ok(higher.min > lower.max, `${v.sentence}: ranges overlap`);
    assert.ok(higher.repetitions > 1 && lower.repetitions > 1, v.sentence);
    assert.deepEqual(lower.floorReasons, [], `${v.sentence}: the lower figure is a floor`);
  }
});

test('overlapping ranges read "within noise", never ">"', () => {
  // 2000 clients, one frame per message: ours on CPython 102k–131k and sockjs-node 98.9k–129k overlap.
  const v = perMessage(verdicts(runsIn(REFERENCE), { level: 2000 }));
  const cpython = v.ranked.findIndex((e) => e.name === 'ours on CPython');
  const node = v.ranked.findIndex((e) => e.name === 'sockjs-node');
  assert.equal(Math.abs(cpython - node), 1, 'neighbours by median');
  assert.equal(v.relations[Math.min(cpython, node)].symbol, '≈');
  assert.match(v.sentence, /ours on CPython 124k \(102k–131k\) ≈ sockjs-node 110k \(98\.9k–129k\)/);
  assert.match(v.sentence, /ours on CPython and sockjs-node within noise/);
  for (const { rel, higher, lower } of everyPair(runsIn(REFERENCE))) {
    if (higher.min <= lower.max) assert.notEqual(rel.symbol, '>');
  }
});

const coalescedAt = (level) => verdicts(runsIn(REFERENCE), { level }).find((v) => v.group !== 'per-message');

test('a floor is written "≥" with its reasons, and a floor below another figure is not ranked', () => {
  // One frame per message at 50: sockjs-tornado on CPython a floor (77–78 % busy in 2 of 3), below the peer on PyPy.
  const v = perMessage(verdicts(runsIn(REFERENCE), { level: 50 }));
  const peer = entry(v, 'sockjs-tornado on CPython');
  assert.ok(peer.figure.floorReasons.length > 0);
  assert.match(v.sentence, /sockjs-tornado on CPython ≥ 69\.2k/);
  const i = v.ranked.indexOf(peer);
  assert.equal(v.relations[i - 1].symbol, '?');
  assert.match(v.relations[i - 1].why, /sockjs-tornado on CPython is a floor: its limit may be above sockjs-tornado on PyPy's/);
  assert.match(v.sentence, /≥ marks a floor, not the server's limit: .*sockjs-tornado on CPython \(server 77–78 % busy \(< 95 %\), client 26–31 % busy, at 1 % of its ceiling in 2 of 3\)/);
  // A floor on top ranks fine when it is clear of the next range: coalesced at 25, sockjs-node (client-bound in 3 of 3).
  const top = coalescedAt(25);
  assert.equal(top.ranked[0].name, 'sockjs-node');
  assert.ok(top.ranked[0].figure.floorReasons.length > 0);
  assert.equal(top.relations[0].symbol, '>');
  assert.match(top.sentence, /\): sockjs-node ≥ 7\.84M \(5\.55M–8\.19M\) > ours on PyPy/);
});

test('a floor overlapping another range is not called within noise', () => {
  // One frame per message at 100: ours on PyPy a floor (73 % busy in 1 of 3) whose range holds ours on CPython's.
  const v = perMessage(verdicts(runsIn(REFERENCE), { level: 100 }));
  assert.equal(v.relations[0].symbol, '?');
  assert.match(v.relations[0].why, /ours on PyPy and ours on CPython overlap and ours on PyPy is a floor: not ranked/);
  assert.doesNotMatch(v.sentence, /ours on PyPy and ours on CPython within noise/);
});

const isLimitRun = (run) => ['limit-naive', 'limit-fast'].includes(run.entry);

test('the limit server is the yardstick beside the level, never ranked among the runtimes', () => {
  const runs = runsIn(REFERENCE);
  const v = perMessage(verdicts(runs, { level: 1000 }));
  assert.match(v.sentence, /^One frame per message, 1000 clients \(this machine's ceiling, the C limit server: ≥ 272k\): ours on PyPy 187k \(147k–204k\) ≈ /);
  assert.deepEqual(v.limits.map((e) => e.run_id), [runs.find((r) => r.entry === 'limit-naive').run_id]);
  // Its "≥" is explained like any floor's.
  assert.match(v.sentence, /≥ marks a floor, not the server's limit: the C limit server \(client-bound in 1 of 3\)/);
  for (const first of verdicts(runs)) {
    for (const level of first.levels) {
      const at = verdicts(runs, { level }).find((x) => x.group === first.group);
      assert.ok(at.ranked.every((e) => !isLimitRun(runs.find((r) => r.run_id === e.run_id))), at.sentence);
      assert.equal(at.limits.length, 1, at.sentence);
      assert.equal(at.sentence.split(' (this machine\'s ceiling, the C limit server: ').length, 2, at.sentence);
    }
  }
});

test('the limit server is named in words, never as a runtime ("limit on c")', () => {
  const runs = runsIn(REFERENCE);
  for (const first of verdicts(runs)) {
    for (const level of first.levels) {
      for (const v of verdicts(runs, { level })) assert.doesNotMatch(v.sentence, /limit on/i);
    }
  }
});

test('a limit figure that is the server\'s limit carries no "≥", a floor keeps it', () => {
  const runs = runsIn(REFERENCE);
  assert.match(perMessage(verdicts(runs, { level: 500 })).sentence, /\(this machine's ceiling, the C limit server: 280k\): /);
  assert.match(perMessage(verdicts(runs, { level: 2000 })).sentence, /\(this machine's ceiling, the C limit server: ≥ 238k\): /);
});

test('which runs are the limit comes from the registry\'s limit group, not from a name', () => {
  // Names only: a registry whose limit group held sockjs-node's naive entry would make it the yardstick.
  const runs = runsIn(REFERENCE);
  const v = perMessage(verdictsOf(runs, { level: 1000, limitServers: [{ entry: 'node-naive', mode: 'naive' }] }));
  assert.match(v.sentence, /^One frame per message, 1000 clients \(this machine's ceiling, the Node limit server: 135k\): limit on C ≥ 272k/);
  assert.ok(!v.ranked.some((e) => e.name === 'sockjs-node'));
});

test('a group without a limit server in the set reads as it did', () => {
  const runs = runsIn(REFERENCE).filter((run) => !isLimitRun(run));
  const mine = verdicts(runs, { level: 1000 });
  assert.deepEqual(mine.map((v) => v.sentence), verdictsOf(runs, { level: 1000 }).map((v) => v.sentence), 'as with no limit known');
  assert.ok(mine.every((v) => v.limits.length === 0));
  assert.match(perMessage(verdicts(runs, { level: 1000 })).sentence, /^One frame per message, 1000 clients: ours on PyPy 187k/);
});

test('a limit server with no figure at the level is named as missing, not as the ceiling', () => {
  const runs = runsIn(REFERENCE);
  const limit = runs.find((run) => run.entry === 'limit-naive');
  limit.result = { ...limit.result, levels: limit.result.levels.filter((l) => l.concurrency !== 1000) };
  const v = perMessage(verdicts(runs, { level: 1000 }));
  assert.match(v.sentence, /^One frame per message, 1000 clients: ours on PyPy/);
  assert.deepEqual(v.missing, ['the C limit server']);
  assert.match(v.sentence, /; no figure at this level: the C limit server\.$/);
});

test('a set of the limit server alone ranks nothing and says so', () => {
  const [v] = verdicts(runsIn(REFERENCE).filter((run) => run.entry === 'limit-fast'), { level: 2000 });
  assert.match(v.sentence, /^Coalesced, 2000 clients \(this machine's ceiling, the C limit server: ≥ 33\.2M\): no other run has a saturation figure here, nothing to rank; ≥ marks a floor/);
});

test('the server\'s own limit below full CPU is no floor: ranked plain, labelled with the CPU seen', () => {
  // One frame per message at 1000: sockjs-tornado on CPython 92–94 % busy in 2 of 3 beside a client at 23–31 %.
  const v = perMessage(verdicts(runsIn(REFERENCE), { level: 1000 }));
  const peer = entry(v, 'sockjs-tornado on CPython');
  assert.deepEqual(peer.figure.floorReasons, []);
  assert.match(v.sentence, /> sockjs-tornado on CPython 37\.8k/);
  assert.equal(v.relations[v.ranked.indexOf(peer) - 1].symbol, '>');
  assert.match(v.sentence, /below full CPU: .*sockjs-tornado on CPython \(server's own limit at 92–94 % CPU \(client 23–31 % busy, on schedule, at 1 % of its ceiling\) in 2 of 3\)/);
  // Ours on PyPy at 1000 (85 % busy in 1 of 3, client 71 %) overlaps the next range: within noise, not "?".
  const pypy = v.ranked.indexOf(entry(v, 'ours on PyPy'));
  assert.deepEqual(v.ranked[pypy].figure.floorReasons, []);
  assert.equal(v.relations[pypy].symbol, '≈');
});

test('a run missing at the highest level moves the default down and is named when the reader picks that level', () => {
  const runs = runsIn(REFERENCE);
  const node = runs.find((r) => r.result.server.name === 'sockjs-node' && r.result.server.mode === 'naive');
  node.result = { ...node.result, levels: node.result.levels.filter((l) => l.concurrency !== 2000) };
  const byDefault = perMessage(verdicts(runs));
  assert.equal(byDefault.level, 1000, 'highest level where all were measured');
  assert.equal(byDefault.missing.length, 0);
  const picked = perMessage(verdicts(runs, { level: 2000 }));
  assert.deepEqual(picked.missing, ['sockjs-node']);
  assert.match(picked.sentence, /; no figure at this level: sockjs-node\.$/);
  assert.ok(!picked.ranked.some((e) => e.name === 'sockjs-node'));
});

test('single runs are never ranked: their noise is unknown', () => {
  const runs = runsIn(FIXTURES, /^2026-11-22-.*\.json$/);
  for (const { rel } of everyPair(runs)) assert.equal(rel.symbol, '?');
  const v = perMessage(verdicts(runs));
  assert.match(v.sentence, /\(single run\)/);
  assert.match(v.sentence, /single runs?, noise unknown, not ranked/);
});

test('a group with one run at the level says there is nothing to rank', () => {
  const runs = runsIn(REFERENCE).filter((r) => r.result.server.mode === 'fast' && !isLimitRun(r)).slice(0, 1);
  const [v] = verdicts(runs);
  assert.equal(v.group, 'coalesced');
  assert.match(v.sentence, /the only run measured here, nothing to rank/);
});

test('relation is symmetric in what it refuses: a floor on either side of an overlap blocks "≈"', () => {
  const figure = (min, max, floor) => ({ median: (min + max) / 2, min, max, repetitions: 3, floorReasons: floor ? ['client-bound in 1 of 3'] : [] });
  const e = (name, f) => ({ name, figure: f });
  assert.equal(relation(e('a', figure(10, 20, false)), e('b', figure(15, 18, false))).symbol, '≈');
  assert.equal(relation(e('a', figure(10, 20, true)), e('b', figure(15, 18, false))).symbol, '?');
  assert.equal(relation(e('a', figure(10, 20, false)), e('b', figure(15, 18, true))).symbol, '?');
  assert.equal(relation(e('a', figure(30, 40, true)), e('b', figure(15, 18, false))).symbol, '>');
  assert.equal(relation(e('a', figure(30, 40, false)), e('b', figure(15, 18, true))).symbol, '?');
});

test('two runs of one server on two versions of a runtime are named by version (make bench SERVERS=runtimes)', () => {
  // The same real run twice, the second relabelled as if on another CPython: names only, no numbers made up.
  const [ours] = runsIn(REFERENCE, /cpython-json-fast\.json$/);
  const newer = JSON.parse(JSON.stringify(ours));
  newer.run_id += '-3.13';
  newer.result.server.runtime_version = '3.13.0';
  const again = JSON.parse(JSON.stringify(ours));
  again.run_id += '-again';
  const coalesced = (list) => verdicts(list).find((v) => v.group !== 'per-message');
  const names = coalesced([ours, newer]).ranked.map((e) => e.name).sort();
  assert.deepEqual(names, ['ours on CPython 3.11.7', 'ours on CPython 3.13.0']);
  const sameVersion = coalesced([ours, again]).ranked.map((e) => e.name);
  assert.ok(sameVersion.every((name) => /^ours on CPython 3\.11\.7 \(.*UTC\)$/.test(name)), sameVersion.join(' | '));
});

test('a run on other transports is named with them, so a sentence never ranks it as the websocket run', () => {
  const { shortName } = require('./verdict');
  const [run] = runsIn(REFERENCE);
  assert.doesNotMatch(shortName(run), / over /, 'plain websocket (no field: an older file) names nothing new');
  const withSpec = (spec) => ({ ...run, result: { ...run.result, parameters: { ...run.result.parameters, transports: spec } } });
  assert.equal(shortName(withSpec('websocket')), shortName(run));
  assert.equal(shortName(withSpec('xhr-polling')), `${shortName(run)} over xhr-polling`);
  assert.equal(shortName(withSpec('websocket:1,eventsource:1')), `${shortName(run)} over mix websocket 50 % · eventsource 50 %`);
});
