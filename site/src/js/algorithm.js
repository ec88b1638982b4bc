// Which broadcast algorithm a run measured, and how the summary groups runs
// by it. Comparing runtimes is only fair with the algorithm held fixed, so
// the summary never mixes groups unless the reader asks. Pure (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).algorithm = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  // The page the explanations point to (built from docs/methodology.md into methodology.html).
  const METHODOLOGY_HREF = 'methodology.html#methodology';

  const GROUPS = [
    {
      key: 'per-message',
      title: 'One frame per message',
      short: 'like for like: one frame per message',
      explanation: 'The server encodes every broadcast message and writes it as its own SockJS frame to every ' +
        'recipient: R messages sent per second by N clients cost R × N encodes and writes. This is what ' +
        'sockjs-node 0.3.24 does as its own test server does it, what the sockjs-tornado library peer does, ' +
        'and what our server does with --naive (mode "naive"). Results without a mode (sockjs-node before it ' +
        'had a fast path, the peers) have no other algorithm and belong here. Compare runtimes within this group.',
    },
    {
      key: 'coalesced',
      title: 'Coalesced',
      short: 'coalesced (fast modes)',
      explanation: 'The server JSON-encodes each message once and coalesces every message broadcast within one ' +
        'event-loop turn into a single a[…] frame per session, so at high rates one write carries hundreds of ' +
        'messages (mode "fast", the default of our servers). Its figures are far higher than one frame per ' +
        'message and mostly measure the algorithm, not the runtime: never compare them with the other group. ' +
        'Above about 2 M msgs/s the client, not the server, is often the limit (dashed segments).',
    },
    {
      key: 'historic-2011',
      title: '2011, i7-2600K, mean RTT only, one frame per message',
      short: '2011 (i7-2600K, mean RTT only)',
      explanation: 'The original benchmark\'s published chart data (SockJS benchmark, 15 Dec 2011): sockjs-node on ' +
        'node 0.6.5, sockjs-tornado on CPython 2.6.6 and PyPy 1.7, socket.io 0.8.7, all one frame per message, ' +
        'on an Intel i7-2600K with the server on one core. Only mean RTT was recorded, timed from the actual ' +
        'send time with a millisecond clock and an additive ramp, so overlay it on today\'s like-for-like runs ' +
        'to see how the ranking changed, not to compare absolute figures across 14 years of hardware.',
    },
  ];

  // A run whose mode is not one of ours: shown, but in a group of its own.
  const OTHER_GROUP = {
    key: 'other',
    title: 'Other algorithm',
    short: 'other modes',
    explanation: 'Runs whose mode the site does not know; compare them only with each other.',
  };

  function groupByKey(key) {
    return GROUPS.find((g) => g.key === key) || OTHER_GROUP;
  }

  /**
   * @param {{kind?: string, result: object}} run a site run entry
   * @returns {'per-message'|'coalesced'|'historic-2011'|'other'}
   */
  function algorithmOf(run) {
    if (run.kind === 'historic') return 'historic-2011';
    const mode = run.result.server.mode;
    if (mode === 'fast') return 'coalesced';
    // No mode (null, or "na" in file names): servers with a single, per-message path.
    if (mode === 'naive' || mode == null || mode === 'na') return 'per-message';
    return 'other';
  }

  /** What to print beside a figure: "fast (coalesced)", "naive (one frame per message)", … */
  function modeText(run) {
    const mode = run.kind === 'historic' ? null : run.result.server.mode;
    const group = groupByKey(algorithmOf(run));
    const name = group.key === 'historic-2011' ? 'one frame per message' : group.title.toLowerCase();
    return mode ? `${mode} (${name})` : `no mode (${name})`;
  }

  /** Run ids per group key, in the runs' order. */
  function idsByGroup(runs) {
    const ids = new Map();
    for (const run of runs) {
      const key = algorithmOf(run);
      if (!ids.has(key)) ids.set(key, []);
      ids.get(key).push(run.run_id);
    }
    return ids;
  }

  /**
   * The groups that have runs, in the order the pages tell them (GROUPS, then
   * OTHER_GROUP), each with its runs in the runs' order: [{group, runs}].
   */
  function runsByGroup(runs) {
    const present = idsByGroup(runs);
    return [...GROUPS, OTHER_GROUP].filter((group) => present.has(group.key))
      .map((group) => ({ group, runs: runs.filter((run) => algorithmOf(run) === group.key) }));
  }

  return { GROUPS, OTHER_GROUP, METHODOLOGY_HREF, groupByKey, algorithmOf, modeText, idsByGroup, runsByGroup };
});
