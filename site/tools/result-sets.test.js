'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { describeReadme, describeSet } = require('./result-sets');
const { SCRATCH_SET } = require('./find-result-files');
const { tempDir } = require('./test-helpers');

test('a set is titled by its README\'s first heading and described by the paragraph after it, as plain text', () => {
  const readme = '<!-- generated -->\n# Runtimes, `standard` profile\n\nCPython 3.12/3.13, **Bun** and [Deno](../../docs/x.md)\nside by side.\n\nMore text.\n';
  assert.deepEqual(describeReadme(readme), { title: 'Runtimes, standard profile', description: 'CPython 3.12/3.13, Bun and Deno side by side.' });
  assert.deepEqual(describeReadme('# Title\n- a list is not a description\n'), { title: 'Title', description: '' });
  assert.deepEqual(describeReadme('no heading'), { title: null, description: '' });
});

test('a set folder without a README is titled by its name; the results directory itself has a fixed text', (t) => {
  const dir = tempDir(t);
  fs.mkdirSync(path.join(dir, 'reference-x'));
  assert.deepEqual(describeSet(dir, { name: 'reference-x', dir: 'reference-x' }),
    { name: 'reference-x', title: 'reference-x', description: '', readme: null });
  fs.writeFileSync(path.join(dir, 'reference-x', 'README.md'), '# X set\n\nWhat it is.\n');
  assert.deepEqual(describeSet(dir, { name: 'reference-x', dir: 'reference-x' }),
    { name: 'reference-x', title: 'X set', description: 'What it is.', readme: 'reference-x/README.md' });
  fs.writeFileSync(path.join(dir, 'README.md'), '# Result files\n\nThe format.\n');
  const scratch = describeSet(dir, { name: SCRATCH_SET, dir: '' });
  assert.match(scratch.title, /not committed/);
  assert.equal(scratch.readme, null, 'results/README.md documents the format, not a set');
});
