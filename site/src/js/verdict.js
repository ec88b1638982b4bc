// The verdict a reader can quote: per algorithm group, one sentence ranking
// the runtimes by saturation throughput at one concurrency level. The one
// implementation of the rule: the summary page calls it in the browser (the
// reader picks the level there), and `make compare` calls it through
// tools/verdict-cli.js, so the page and the Markdown can never disagree.
//
// The rule never says more than the data does:
//  - ">" only when the two min–max ranges do not overlap, both were repeated,
//    and the lower figure is the server's limit (a floor below another figure
//    ranks nothing: the lower server's real limit is unknown);
//  - "≈" (within noise) when the ranges overlap and neither figure is a floor;
//  - "?" otherwise (a single run has no range, so its noise is unknown; a
//    floor overlapping another figure may be far higher), with the reason;
//  - "≥" before a figure that is a floor (floors.js), its reasons named;
//  - a figure that is the server's own limit below full CPU (floors.js) is a
//    limit like any other, ranked so, its label named ("below full CPU: …");
//  - runs of the group with no figure at the level are named as missing.
// Pure functions (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) {
    module.exports = factory(require('./algorithm'), require('./historic'), require('./summary-figures'), require('./format'),
      require('./transports'));
  } else {
    const S = root.Sockbench;
    S.verdict = factory(S.algorithm, S.historic, S.summaryFigures, S.format, S.transports);
  }
})(typeof self !== 'undefined' ? self : this, function (algorithm, historic, summaryFigures, format, transports) {
  'use strict';

  const RUNTIME_NAMES = { cpython: 'CPython', pypy: 'PyPy', node: 'Node', go: 'Go' };

  const runtimeName = (runtime) => RUNTIME_NAMES[runtime] || runtime;

  /** Our own servers carry this prefix in `server.name` (the others are sockjs-node and the peers). */
  const OURS_PREFIX = 'sockbench';

  /**
   * The short name a sentence uses: "ours on PyPy", "sockjs-node",
   * "sockjs-tornado on CPython", plus the scale-out setup when there is one
   * and the transports when they are not plain websocket ("… over xhr-polling");
   * a 2011 run keeps its published label.
   */
  function shortName(run) {
    if (run.kind === 'historic') return run.label;
    const server = run.result.server;
    let name;
    if (server.name.startsWith(OURS_PREFIX)) name = `ours on ${runtimeName(server.runtime)}`;
    else if (server.runtime === 'node' && server.name === 'sockjs-node') name = server.name;
    else name = `${server.name} on ${runtimeName(server.runtime)}`;
    const scaled = format.scaleOut(server);
    if (scaled) name = `${name} (${scaled})`;
    // Another transport is another setup: a sentence never ranks it as the websocket run of the server.
    return transports.isPlain(run.result) ? name : `${name} over ${transports.describe(transports.specOf(run.result))}`;
  }

  const shared = (names, name) => names.indexOf(name) !== names.lastIndexOf(name);

  /**
   * Names unique within a group: runs sharing a short name get their runtime
   * version added (CPython 3.11 beside 3.13, Node 20 beside 26: the registry's
   * runtimes group), and those still sharing one their start time.
   */
  function uniqueNames(runs) {
    const names = runs.map(shortName);
    const versioned = names.map((name, i) => (shared(names, name) && runs[i].kind !== 'historic'
      ? `${name} ${runs[i].result.server.runtime_version}` : name));
    return versioned.map((name, i) => (shared(versioned, name)
      ? `${name} (${format.utcMinute(runs[i].started_at || (runs[i].result && runs[i].result.started_at))})`
      : name));
  }

  const resultShape = (run) => (run.kind === 'historic' ? historic.asResultShape(run.result) : run.result);

  /**
   * One run's figure at a level: {median, min, max, repetitions, floorReasons, limitNotes}
   * (min = max = median for a single run); null when the level was not run or
   * had no point under the threshold.
   */
  function figureAt(run, concurrency) {
    const figure = summaryFigures.levelFigures(resultShape(run)).find((f) => f.concurrency === concurrency);
    if (!figure || !figure.saturation) return null;
    const median = figure.spread ? figure.spread.median : figure.saturation.received_per_s;
    const repeated = figure.spread && figure.repetitions > 1;
    return {
      median,
      min: repeated ? figure.spread.min : median,
      max: repeated ? figure.spread.max : median,
      repetitions: repeated ? figure.repetitions : 1,
      floorReasons: figure.floorReasons,
      limitNotes: figure.limitNotes || [],
    };
  }

  /**
   * How the higher-median entry stands against the next one down.
   * @returns {{symbol: '>'|'≈'|'?', why: string|null, single?: string[]}}
   *   single: the names measured once, when that is why there is no order
   */
  function relation(higher, lower) {
    if (higher.figure.repetitions < 2 || lower.figure.repetitions < 2) {
      const single = [higher, lower].filter((e) => e.figure.repetitions < 2).map((e) => e.name);
      return { symbol: '?', why: null, single };
    }
    const overlap = higher.figure.min <= lower.figure.max && lower.figure.min <= higher.figure.max;
    const floorsOf = [higher, lower].filter((e) => e.figure.floorReasons.length > 0);
    if (overlap && floorsOf.length === 0) return { symbol: '≈', why: null };
    if (overlap) {
      return { symbol: '?', why: `${higher.name} and ${lower.name} overlap and ${floorsOf.map((e) => e.name).join(' and ')} ` +
        `${floorsOf.length === 1 ? 'is a floor' : 'are floors'}: not ranked` };
    }
    if (lower.figure.floorReasons.length > 0) {
      return { symbol: '?', why: `${lower.name} is a floor: its limit may be above ${higher.name}'s, not ranked` };
    }
    return { symbol: '>', why: null };
  }

  /** "144k (114k–146k)", "≥ 95k (93k–99k)", "28k (single run)". */
  function figureText(figure) {
    const value = `${figure.floorReasons.length ? '≥ ' : ''}${format.rate(figure.median)}`;
    return figure.repetitions > 1
      ? `${value} (${format.rate(figure.min)}–${format.rate(figure.max)})`
      : `${value} (single run)`;
  }

  /** Levels at which at least one run has a figure, ascending. */
  function levelsWithFigures(runs) {
    const levels = new Set();
    for (const run of runs) {
      for (const f of summaryFigures.levelFigures(resultShape(run))) if (f.saturation) levels.add(f.concurrency);
    }
    return [...levels].sort((a, b) => a - b);
  }

  /**
   * The default level: the highest where every run has a figure; with no such
   * level, the highest where the most runs have one.
   */
  function defaultLevel(runs, levels) {
    let best = null;
    let bestCount = 0;
    for (const level of levels) {
      const count = runs.filter((run) => figureAt(run, level)).length;
      if (count >= bestCount) { best = level; bestCount = count; }
    }
    return best;
  }

  /**
   * The verdict of one group's runs at a level.
   * @param {{key: string, title: string}} group
   * @param {object[]} runs site run entries ({run_id, label, kind?, result}) of that group
   * @param {number|null} level concurrency; null = the default level
   * @returns {{group: string, title: string, levels: number[], defaultLevel: number|null, level: number|null,
   *            ranked: {name: string, run_id: string, figure: object}[], relations: {symbol: string, why: string|null}[],
   *            missing: string[], sentence: string}}
   *   relations[i] is between ranked[i] and ranked[i + 1]
   */
  function groupVerdict(group, runs, level) {
    const levels = levelsWithFigures(runs);
    const fallback = defaultLevel(runs, levels);
    const at = level == null ? fallback : level;
    const names = uniqueNames(runs);
    const ranked = [];
    const missing = [];
    runs.forEach((run, i) => {
      const figure = at == null ? null : figureAt(run, at);
      if (figure) ranked.push({ name: names[i], run_id: run.run_id, figure });
      else missing.push(names[i]);
    });
    ranked.sort((a, b) => b.figure.median - a.figure.median || a.name.localeCompare(b.name));
    const relations = ranked.slice(1).map((lower, i) => relation(ranked[i], lower));
    return {
      group: group.key, title: group.title, levels, defaultLevel: fallback, level: at, ranked, relations, missing,
      sentence: sentenceOf(group, at, ranked, relations, missing),
    };
  }

  function sentenceOf(group, level, ranked, relations, missing) {
    const head = level == null ? `${group.title}` : `${group.title}, ${level} clients`;
    if (ranked.length === 0) return `${head}: no run has a saturation figure here.`;
    let chain = `${ranked[0].name} ${figureText(ranked[0].figure)}`;
    relations.forEach((rel, i) => { chain += ` ${rel.symbol} ${ranked[i + 1].name} ${figureText(ranked[i + 1].figure)}`; });
    const clauses = [];
    if (ranked.length === 1) clauses.push('the only run measured here, nothing to rank');
    const noise = relations.map((rel, i) => (rel.symbol === '≈' ? `${ranked[i].name} and ${ranked[i + 1].name}` : null))
      .filter(Boolean);
    if (noise.length) clauses.push(`${noise.join(', ')} within noise`);
    for (const rel of relations) if (rel.why) clauses.push(rel.why);
    const single = [...new Set(relations.flatMap((rel) => rel.single || []))];
    if (single.length) clauses.push(`${single.join(', ')}: ${single.length === 1 ? 'a single run' : 'single runs'}, noise unknown, not ranked`);
    const floorsText = ranked.filter((e) => e.figure.floorReasons.length)
      .map((e) => `${e.name} (${e.figure.floorReasons.join(', ')})`);
    if (floorsText.length) clauses.push(`≥ marks a floor, not the server's limit: ${floorsText.join('; ')}`);
    // Not a floor, but not full CPU either: say what was seen (floors.js).
    const ownText = ranked.filter((e) => e.figure.limitNotes.length)
      .map((e) => `${e.name} (${e.figure.limitNotes.join(', ')})`);
    if (ownText.length) clauses.push(`below full CPU: ${ownText.join('; ')}`);
    if (missing.length) clauses.push(`no figure at this level: ${missing.join(', ')}`);
    return `${head}: ${chain}${clauses.length ? `; ${clauses.join('; ')}` : ''}.`;
  }

  /**
   * One verdict per algorithm group present, in the groups' order.
   * @param {object[]} runs site run entries, today's and historic
   * @param {{level?: number|null}} [options] level: the concurrency to judge
   *   every group at; null or absent = each group's default level
   */
  function verdicts(runs, options) {
    const level = options && options.level != null ? options.level : null;
    return algorithm.runsByGroup(runs).map(({ group, runs: groupRuns }) => groupVerdict(group, groupRuns, level));
  }

  return { verdicts, groupVerdict, figureAt, relation, shortName, figureText };
});
