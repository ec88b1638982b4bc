'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { findResultFiles } = require('./find-result-files');
const { tempDir } = require('./test-helpers');

test('reads *.json in the directory and reference/, reference first, skipping schema.json', (t) => {
  const dir = tempDir(t);
  for (const name of ['b.json', 'a.json', 'schema.json', 'notes.md', 'data.csv']) fs.writeFileSync(path.join(dir, name), '{}');
  fs.mkdirSync(path.join(dir, 'reference'));
  fs.writeFileSync(path.join(dir, 'reference', 'r.json'), '{}');
  fs.mkdirSync(path.join(dir, 'scratch'));
  fs.writeFileSync(path.join(dir, 'scratch', 's.json'), '{}');
  fs.mkdirSync(path.join(dir, 'dir.json')); // a directory with a .json name is not a file

  const files = findResultFiles(dir);
  assert.deepEqual(files.map((f) => f.relative), ['reference/r.json', 'a.json', 'b.json']);
  assert.equal(files[0].absolute, path.join(dir, 'reference', 'r.json'));
});

test('an empty directory has no result files; a missing one is an error', (t) => {
  const dir = tempDir(t);
  assert.deepEqual(findResultFiles(dir), []);
  assert.throws(() => findResultFiles(path.join(dir, 'nope')), /results directory not found/);
});
