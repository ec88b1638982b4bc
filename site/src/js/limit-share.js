// Each saturation figure as a share of the limit server measured in the same
// result set, so that a reader sees how close a runtime came to the host:
// the C limit server (bench/limit-server/, the server registry's `limit`
// group) sets the machine's ceiling, one entry per broadcast mode, so a
// one-frame-per-message figure is read against limit-naive and a coalesced
// one against limit-fast, at the same concurrency level.
//
// The share is the run's median over the limit's median, and only that: the
// repetitions of two servers are not paired, so no range is derived for it
// (each figure's own min–max stays beside it). Floors stay floors: a floor
// over the limit is "≥ N %" (rounded down), a figure over a limit that is
// itself a floor "≤ N %" (rounded up); where both are floors, or the limit has
// no figure at that level, or the set has no (or more than one) limit run of
// the group, there is no share — never 0, never a guess — and `notes` says
// why, once. bench/saturation_tables.py applies the same rule to the
// reference pages' tables; both test against docs/contract/limit-share-cases.json.
// Pure (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./algorithm'), require('./summary-figures'));
  else (root.Sockbench = root.Sockbench || {}).limitShare = factory(root.Sockbench.algorithm, root.Sockbench.summaryFigures);
})(typeof self !== 'undefined' ? self : this, function (algorithm, summaryFigures) {
  'use strict';

  /**
   * The share of one figure in the limit's at the same level.
   * @param {{median: number, floor: boolean}|null} figure the run's figure (msgs/s)
   * @param {{median: number, floor: boolean}|null} limit the limit server's
   * @returns {{pct: number, bound: 'exact'|'at-least'|'at-most', text: string}|null}
   *   text: "38 %", "≥ 38 %", "≤ 39 %"; whole percent from 10 %, one decimal
   *   below, a bound rounded away from its claim; null: no share (see above)
   */
  function share(figure, limit) {
    if (!figure || !limit || !(limit.median > 0) || (figure.floor && limit.floor)) return null;
    const pct = (100 * figure.median) / limit.median;
    const scale = pct >= 10 ? 1 : 10;
    const bound = figure.floor ? 'at-least' : limit.floor ? 'at-most' : 'exact';
    const round = { 'at-least': Math.floor, 'at-most': Math.ceil, exact: Math.round }[bound];
    const prefix = { 'at-least': '≥ ', 'at-most': '≤ ', exact: '' }[bound];
    return { pct, bound, text: `${prefix}${round(pct * scale) / scale} %` };
  }

  /** A run's figures by concurrency: {median, floor}, for levels with a saturation figure. */
  function figuresOf(run) {
    const out = new Map();
    for (const f of summaryFigures.levelFigures(run.result)) {
      if (!f.saturation) continue;
      out.set(f.concurrency, { median: f.spread ? f.spread.median : f.saturation.received_per_s, floor: f.floorReasons.length > 0 });
    }
    return out;
  }

  const levelsText = (levels) => `${[...new Set(levels)].sort((a, b) => a - b).join(', ')} clients`;

  /**
   * @param {object[]} runs one result set's runs (site run entries; historic ones are skipped)
   * @param {{entry: string, mode: string}[]} limitServers the registry's limit servers
   *   (data.limit_servers, written by the build from docs/contract/server-registry.json)
   * @returns {{shareOf: (runId: string, concurrency: number) => ({limit: string} & object)|null,
   *            limitOf: (runId: string) => string|null, notes: string[]}}
   *   shareOf: share() plus the limit's registry entry; limitOf: the entry name
   *   when the run is its group's limit server; notes: why shares are missing
   */
  function limitShares(runs, limitServers) {
    const shares = new Map();
    const limits = new Map();
    const notes = [];
    const today = runs.filter((run) => run.kind !== 'historic');
    for (const { group, runs: members } of algorithm.runsByGroup(today)) {
      // The limit entries of this group: those whose mode puts a run in it.
      const names = (limitServers || [])
        .filter((l) => algorithm.algorithmOf({ result: { server: { mode: l.mode } } }) === group.key).map((l) => l.entry);
      const limitRuns = members.filter((run) => names.includes(run.entry));
      const others = members.filter((run) => !limitRuns.includes(run));
      if (others.length === 0 || names.length === 0) continue;
      const wanted = names.join(' or ');
      const prefix = `${group.title}: no share of the limit`;
      if (limitRuns.length === 0) {
        notes.push(`${prefix}: this set has no ${wanted} run (make bench SERVERS=${names.join(',')} in the same session).`);
        continue;
      }
      if (limitRuns.length > 1) {
        notes.push(`${prefix}: this set has ${limitRuns.length} ${wanted} runs, so which one is its session's limit is not known.`);
        continue;
      }
      const limit = limitRuns[0];
      limits.set(limit.run_id, limit.entry);
      const limitFigures = figuresOf(limit);
      const noLimitFigure = [];
      const bothFloors = [];
      for (const run of others) {
        const perLevel = new Map();
        for (const [n, figure] of figuresOf(run)) {
          const s = share(figure, limitFigures.get(n) || null);
          if (s) perLevel.set(n, { ...s, limit: limit.entry });
          else if (!limitFigures.has(n)) noLimitFigure.push(n);
          else bothFloors.push(n);
        }
        shares.set(run.run_id, perLevel);
      }
      if (noLimitFigure.length) notes.push(`${group.title}: ${limit.entry} has no figure at ${levelsText(noLimitFigure)}: no share there.`);
      if (bothFloors.length) {
        notes.push(`${group.title}: no share where a figure and ${limit.entry}'s are both floors (unknown): ${levelsText(bothFloors)}.`);
      }
    }
    return {
      shareOf: (runId, concurrency) => (shares.get(runId) && shares.get(runId).get(concurrency)) || null,
      limitOf: (runId) => limits.get(runId) || null,
      notes,
    };
  }

  /** The words beside a figure: "38 % of limit-naive". */
  function shareText(s) {
    return `${s.text} of ${s.limit}`;
  }

  return { share, limitShares, shareText };
});
