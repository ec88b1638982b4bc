'use strict';
// The server registry (docs/contract/server-registry.json, the one list of servers the
// bench can start) as the site reads it: which registry entry a run was
// started from (the result's server.entry) and the named groups that entry
// belongs to (`default`, `runtimes`, ...), for the quick picks. The file is
// checked by docs/contract/sockbench_contract/registry.py (make test-contract); this only reads it.

const fs = require('fs');
const path = require('path');

const REGISTRY_PATH = path.join(__dirname, '..', '..', 'docs', 'contract', 'server-registry.json');
// The registry group whose entries measure the machine's ceiling, one per broadcast
// mode (limit-naive, limit-fast): every figure is also read as a share of them,
// and the verdict names them as the machine's ceiling instead of ranking them.
const LIMIT_GROUP = 'limit';

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

/**
 * The limit servers: the entries of LIMIT_GROUP, for the share of the limit and the verdict's yardstick.
 * @param {{entries: Map<string, object>}} registry from readRegistry
 * @returns {{entry: string, mode: string, label: string}[]} in registry order
 */
function limitServers(registry) {
  return [...registry.entries.values()].filter((entry) => entry.groups.includes(LIMIT_GROUP))
    .map((entry) => ({ entry: entry.name, mode: entry.mode, label: entry.label }));
}

module.exports = { REGISTRY_PATH, LIMIT_GROUP, readRegistry, registryFields, limitServers };
