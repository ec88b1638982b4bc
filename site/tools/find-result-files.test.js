'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { findResultFiles, findResultSets, SCRATCH_SET } = require('./find-result-files');
const { tempDir } = require('./test-helpers');

test('reads *.json in reference/, each reference-<name>/ and the directory itself, set by set, skipping schema.json', (t) => {
  const dir = tempDir(t);
  for (const name of ['b.json', 'a.json', 'schema.json', 'notes.md', 'data.csv']) fs.writeFileSync(path.join(dir, name), '{}');
  for (const [folder, name] of [['reference', 'r.json'], ['reference-runtimes', 'rt.json'], ['reference-b', 'x.json'],
    ['scratch', 's.json'], ['referenced', 'no.json'], ['old-reference', 'no.json']]) {
    fs.mkdirSync(path.join(dir, folder));
    fs.writeFileSync(path.join(dir, folder, name), '{}');
  }
  fs.writeFileSync(path.join(dir, 'reference-runtimes', 'README.md'), '# t');
  fs.mkdirSync(path.join(dir, 'dir.json')); // a directory with a .json name is not a file

  const files = findResultFiles(dir);
  assert.deepEqual(files.map((f) => [f.set, f.relative]), [
    ['reference', 'reference/r.json'], ['reference-b', 'reference-b/x.json'], ['reference-runtimes', 'reference-runtimes/rt.json'],
    ['results', 'a.json'], ['results', 'b.json']]);
  assert.equal(files[0].absolute, path.join(dir, 'reference', 'r.json'));
  assert.deepEqual(findResultSets(dir).map((s) => s.name), ['reference', 'reference-b', 'reference-runtimes', SCRATCH_SET]);
});

test('an empty directory has no result files; a missing one is an error', (t) => {
  const dir = tempDir(t);
  assert.deepEqual(findResultFiles(dir), []);
  assert.throws(() => findResultFiles(path.join(dir, 'nope')), /results directory not found/);
});
