// Ready-made overlay choices for the summary, so comparing e.g. one machine's
// PyPy vs CPython vs Node is one click. Pure function (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./transports'));
  else (root.Sockbench = root.Sockbench || {}).quickPicks = factory(root.Sockbench.transports);
})(typeof self !== 'undefined' ? self : this, function (transports) {
  'use strict';

  function groupBy(runs, keyOf) {
    const groups = new Map();
    for (const run of runs) {
      const key = keyOf(run);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(run);
    }
    return groups;
  }

  const ids = (runs) => runs.map((run) => run.run_id);

  /**
   * @param {{run_id: string, result: object, groups?: string[]}[]} runs every
   *   valid run; `groups`: the named groups of its server registry entry
   *   (docs/contract/server-registry.json, e.g. "runtimes"), as the build adds them
   * @returns {{text: string, ids: string[]}[]} buttons: all, none, the latest
   *   run of each server configuration on each machine, then one per machine
   *   and one per profile when there is more than one of them, then one per
   *   registry group that holds some runs but not all
   */
  function quickPicks(runs) {
    const picks = [{ text: 'All runs', ids: ids(runs) }, { text: 'None', ids: [] }];

    // One run per server/runtime/codec/mode/transport and machine: the newest. The
    // registry entry counts too: CPython 3.11, 3.12 and 3.13 (or Node 20 and 26)
    // share a runtime name but are different servers, not repeats of one; so do
    // the sessions' SockJS transports: an xhr-polling run is no repeat of a websocket one.
    const configurations = groupBy(runs, ({ entry, result: r }) => JSON.stringify([
      r.machine.hostname, r.server.name, r.server.runtime, r.server.codec, r.server.mode, r.client.transport,
      transports.specOf(r), entry || null]));
    const latest = [...configurations.values()].map((group) => group
      .reduce((newest, run) => (run.result.started_at > newest.result.started_at ? run : newest)));
    if (latest.length < runs.length) {
      picks.push({ text: 'Latest run of each server on each machine', ids: ids(runs.filter((run) => latest.includes(run))) });
    }

    const machines = groupBy(runs, ({ result: r }) => `${r.machine.hostname} (${r.machine.cpu_model}, ${r.machine.cores} cores)`);
    if (machines.size > 1) {
      for (const [machine, group] of machines) picks.push({ text: `Only ${machine}`, ids: ids(group) });
    }
    const profiles = groupBy(runs, ({ result: r }) => r.parameters.profile);
    if (profiles.size > 1) {
      for (const [profile, group] of profiles) picks.push({ text: `Only profile ${profile}`, ids: ids(group) });
    }
    const registryGroups = [...new Set(runs.flatMap((run) => run.groups || []))];
    for (const name of registryGroups) {
      const members = runs.filter((run) => (run.groups || []).includes(name));
      if (members.length < runs.length) picks.push({ text: `Server group ${name} (make bench SERVERS=${name})`, ids: ids(members) });
    }
    return picks;
  }

  return { quickPicks };
});
