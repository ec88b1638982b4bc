'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { readResults } = require('./read-results');
const { createResultValidator } = require('./validate-results');
const { SCHEMA_PATH, FIXTURES_DIR, tempDir, realFixtureNames, copyFixture } = require('./test-helpers');

test('every committed real result file passes results/schema.json', () => {
  const validate = createResultValidator(SCHEMA_PATH);
  for (const name of realFixtureNames()) {
    const data = JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, name), 'utf8'));
    assert.deepEqual(validate(data), [], name);
  }
});

test('bad files become errors while the good ones are read', (t) => {
  const dir = tempDir(t);
  const [real] = realFixtureNames();
  copyFixture(real, dir);
  copyFixture('invalid-not-json.json', dir);
  copyFixture('invalid-schema.json', dir);

  const { runs, errors } = readResults(dir, SCHEMA_PATH);
  assert.deepEqual(runs.map((r) => r.source), [real]);
  assert.equal(runs[0].result.schema, 'sockbench.result/1');

  const bySource = Object.fromEntries(errors.map((e) => [e.source, e]));
  assert.deepEqual(Object.keys(bySource).sort(), ['invalid-not-json.json', 'invalid-schema.json']);
  assert.equal(bySource['invalid-not-json.json'].problem, 'not valid JSON');
  assert.match(bySource['invalid-schema.json'].problem, /does not match results\/schema\.json/);
  assert.deepEqual(bySource['invalid-schema.json'].details, [
    '(top level): missing required properties started_at, finished_at, duration_s, machine, client, server, pinning, parameters, levels',
    '/run_id: must NOT have fewer than 1 characters',
    '/warnings: must be array',
  ]);
});

test('a run_id seen twice is shown once; the copy is listed as an error', (t) => {
  const dir = tempDir(t);
  const [real] = realFixtureNames();
  copyFixture(real, path.join(dir, 'reference'));
  copyFixture(real, dir, 'copy.json');
  const { runs, errors } = readResults(dir, SCHEMA_PATH);
  assert.deepEqual(runs.map((r) => r.source), [`reference/${real}`]);
  assert.equal(errors.length, 1);
  assert.equal(errors[0].source, 'copy.json');
  assert.equal(errors[0].problem, 'duplicate run_id');
});

test('schema violations deep inside a point are reported with their path', (t) => {
  const dir = tempDir(t);
  const [real] = realFixtureNames();
  const data = JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, real), 'utf8'));
  const level = data.levels.findIndex((l) => l.points.length > 0);
  assert.ok(level >= 0, 'the fixture needs a measured point');
  data.levels[level].points[0].state = 'melted';
  fs.writeFileSync(path.join(dir, 'edited.json'), JSON.stringify(data));
  const { runs, errors } = readResults(dir, SCHEMA_PATH);
  assert.equal(runs.length, 0);
  // the allowed states are the schema's (its one list), so a state added there needs no edit here
  const states = JSON.parse(fs.readFileSync(SCHEMA_PATH, 'utf8')).$defs.point.properties.state.enum;
  assert.ok(states.includes('ok') && !states.includes('melted'));
  assert.deepEqual(errors[0].details,
    [`/levels/${level}/points/0/state: must be equal to one of the allowed values (${states.join(', ')})`]);
});

test('a file failing in many places lists the first eight problems and a count', (t) => {
  const dir = tempDir(t);
  const [real] = realFixtureNames();
  const data = JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, real), 'utf8'));
  const points = data.levels.flatMap((l) => l.points);
  assert.ok(points.length > 0, 'the fixture needs a measured point');
  for (const point of points) point.state = 'melted';
  for (const key of ['hostname', 'cpu_model', 'kernel', 'os', 'cores', 'memory_bytes']) data.machine[key] = [];
  for (const key of ['name', 'version', 'jvm_version', 'jvm_vendor', 'io_threads']) data.client[key] = [];
  fs.writeFileSync(path.join(dir, 'edited.json'), JSON.stringify(data));
  const { errors } = readResults(dir, SCHEMA_PATH);
  const problems = 11 + points.length;
  assert.equal(errors[0].details.length, 9);
  assert.equal(errors[0].details[8], `… and ${problems - 8} more`);
});
