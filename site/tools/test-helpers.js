'use strict';
// Shared by the build tests: temporary directories and the committed fixtures.

const fs = require('fs');
const os = require('os');
const path = require('path');

// SITE_TEST_FIXTURES points the tests at another directory laid out the same way.
const FIXTURES_DIR = path.resolve(process.env.SITE_TEST_FIXTURES || path.join(__dirname, '..', 'test', 'fixtures'));
const SCHEMA_PATH = path.join(__dirname, '..', '..', 'results', 'schema.json');

function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sockbench-site-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Names of the committed real result files (everything but invalid-*.json). */
function realFixtureNames() {
  const names = fs.readdirSync(FIXTURES_DIR).filter((n) => n.endsWith('.json') && !n.startsWith('invalid-'));
  if (names.length === 0) throw new Error(`no real result file in ${FIXTURES_DIR} (see its README.md)`);
  return names;
}

function copyFixture(name, toDir, asName = name) {
  fs.mkdirSync(toDir, { recursive: true });
  fs.copyFileSync(path.join(FIXTURES_DIR, name), path.join(toDir, asName));
}

module.exports = { FIXTURES_DIR, SCHEMA_PATH, tempDir, realFixtureNames, copyFixture };
