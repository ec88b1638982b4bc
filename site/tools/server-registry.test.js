'use strict';
// The site reads the server registry itself (docs/contract/server-registry.json): the
// real file parses, and a run's entry maps to that entry's groups.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { readRegistry, registryFields } = require('./server-registry');

test('the real registry gives every entry its groups', () => {
  const registry = readRegistry();
  assert.ok('default' in registry.groups && 'runtimes' in registry.groups);
  assert.deepEqual(registry.entries.get('pypy-fast').groups, ['default', 'runtimes']);
  assert.deepEqual(registryFields(registry, { entry: 'cpython3.13-naive' }),
    { entry: 'cpython3.13-naive', groups: ['runtimes'] });
});

test('a run without a registry entry (older file, make bench-url) has no groups', () => {
  const registry = readRegistry();
  assert.deepEqual(registryFields(registry, { name: 'mine' }), { entry: null, groups: [] });
  assert.deepEqual(registryFields(registry, { entry: 'gone-since' }), { entry: 'gone-since', groups: [] });
});
