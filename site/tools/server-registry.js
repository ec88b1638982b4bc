'use strict';
// The server registry (docs/contract/server-registry.json, the one list of servers the
// bench can start) as the site reads it: which registry entry a run was
// started from (the result's server.entry) and the named groups that entry
// belongs to (`default`, `runtimes`, ...), for the quick picks. The file is
// checked by docs/contract/sockbench_contract/registry.py (make test-contract); this only reads it.

const fs = require('fs');
const path = require('path');

const REGISTRY_PATH = path.join(__dirname, '..', '..', 'docs', 'contract', 'server-registry.json');

/**
 * @param {string} [file] the registry file (default docs/contract/server-registry.json)
 * @returns {{groups: Object<string, string>, entries: Map<string, object>}}
 *   group name -> description, and entry name -> its registry entry
 */
function readRegistry(file = REGISTRY_PATH) {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  return { groups: doc.groups, entries: new Map(doc.servers.map((entry) => [entry.name, entry])) };
}

/**
 * The registry's word on one run.
 * @param {{entries: Map<string, object>}} registry from readRegistry
 * @param {object} server a result file's `server` section
 * @returns {{entry: string|null, groups: string[]}} entry null (and no groups)
 *   for a run without one (older files, make bench-url) or whose entry has
 *   since left the registry
 */
function registryFields(registry, server) {
  const entry = server.entry && registry.entries.get(server.entry);
  return { entry: server.entry || null, groups: entry ? [...entry.groups] : [] };
}

module.exports = { REGISTRY_PATH, readRegistry, registryFields };
