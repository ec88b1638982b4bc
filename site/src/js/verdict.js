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
// The limit server (the registry's `limit` group, bench/limit-server/) is no
// contender: it is the machine's ceiling, the yardstick every figure is read
// against (limit-share.js). It is never ranked; the sentence names it once,
// beside the level, with its figure ("≥" kept when it is a floor).
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

  const RUNTIME_NAMES = { cpython: 'CPython', pypy: 'PyPy', node: 'Node', go: 'Go', c: 'C' };

  const runtimeName = (runtime) => RUNTIME_NAMES[runtime] || runtime;

  /** Our own servers carry this prefix in `server.name` (the others are sockjs-node and the peers). */
  const OURS_PREFIX = 'sockbench';

  /**
   * The short name a sentence uses: "ours on PyPy", "sockjs-node",
   * "sockjs-tornado on CPython", plus the scale-out setup when there is one
   * and the transports when they are not plain websocket ("… over xhr-polling");
   * a 2011 run keeps its published label. A limit server is named for what it
   * is, "the C limit server", never as a runtime ("limit on c").
   * @param {object} run a site run entry
   * @param {boolean} [isLimit] the run is one of the registry's limit servers
   */
  function shortName(run, isLimit) {
    if (run.kind === 'historic') return run.label;
    const server = run.result.server;
    let name;
    if (isLimit) name = `the ${runtimeName(server.runtime)} limit server`;
    else if (server.name.startsWith(OURS_PREFIX)) name = `ours on ${runtimeName(server.runtime)}`;
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
  function uniqueNames(runs, isLimit) {
    const names = runs.map((run) => shortName(run, isLimit(run)));
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

  /** "144k", "≥ 95k": the median, marked when it is a floor. */
  const valueText = (figure) => `${figure.floorReasons.length ? '≥ ' : ''}${format.rate(figure.median)}`;

  /** "144k (114k–146k)", "≥ 95k (93k–99k)", "28k (single run)". */
  function figureText(figure) {
    const value = valueText(figure);
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
   * Which runs are limit servers: those started from an entry of the registry's
   * `limit` group (the page's data.limit_servers, tools/server-registry.js), so
   * no name is hard-coded here. A run without an entry (older files) is none.
   * @param {{entry: string}[]} limitServers
   * @returns {(run: object) => boolean}
   */
  function limitTest(limitServers) {
    const entries = new Set((limitServers || []).map((l) => l.entry));
    return (run) => run.kind !== 'historic' && entries.has(run.entry);
  }

  /**
   * The verdict of one group's runs at a level.
   * @param {{key: string, title: string}} group
   * @param {object[]} runs site run entries ({run_id, label, entry?, kind?, result}) of that group
   * @param {number|null} level concurrency; null = the default level
   * @param {(run: object) => boolean} [isLimit] which runs are the limit server (limitTest); default none
   * @returns {{group: string, title: string, levels: number[], defaultLevel: number|null, level: number|null,
   *            ranked: {name: string, run_id: string, figure: object}[], relations: {symbol: string, why: string|null}[],
   *            limits: {name: string, run_id: string, figure: object}[], missing: string[], sentence: string}}
   *   relations[i] is between ranked[i] and ranked[i + 1]; limits: the limit servers with a figure at the
   *   level, the yardstick named beside it and never ranked
   */
  function groupVerdict(group, runs, level, isLimit = () => false) {
    const levels = levelsWithFigures(runs);
    const fallback = defaultLevel(runs, levels);
    const at = level == null ? fallback : level;
    const names = uniqueNames(runs, isLimit);
    const ranked = [];
    const limits = [];
    const missing = [];
    runs.forEach((run, i) => {
      const figure = at == null ? null : figureAt(run, at);
      if (!figure) missing.push(names[i]);
      else (isLimit(run) ? limits : ranked).push({ name: names[i], run_id: run.run_id, figure });
    });
    ranked.sort((a, b) => b.figure.median - a.figure.median || a.name.localeCompare(b.name));
    const relations = ranked.slice(1).map((lower, i) => relation(ranked[i], lower));
    return {
      group: group.key, title: group.title, levels, defaultLevel: fallback, level: at, ranked, relations, limits, missing,
      sentence: sentenceOf(group, at, { ranked, relations, limits, missing }),
    };
  }

  /**
   * "One frame per message, 1000 clients (this machine's ceiling, the C limit server: ≥ 272k)":
   * the yardstick goes beside the level, before any ranking, so it reads as the scale, not a rival.
   */
  function headOf(group, level, limits) {
    const head = level == null ? `${group.title}` : `${group.title}, ${level} clients`;
    if (limits.length === 0) return head;
    return `${head} (this machine's ceiling, ${limits.map((e) => `${e.name}: ${valueText(e.figure)}`).join('; ')})`;
  }

  function sentenceOf(group, level, { ranked, relations, limits, missing }) {
    const head = headOf(group, level, limits);
    if (ranked.length === 0 && limits.length === 0) return `${head}: no run has a saturation figure here.`;
    let chain = ranked.length ? `${ranked[0].name} ${figureText(ranked[0].figure)}` : '';
    relations.forEach((rel, i) => { chain += ` ${rel.symbol} ${ranked[i + 1].name} ${figureText(ranked[i + 1].figure)}`; });
    const clauses = [];
    if (ranked.length === 0) clauses.push('no other run has a saturation figure here, nothing to rank');
    if (ranked.length === 1) clauses.push(`the only run measured here${limits.length ? ' besides the ceiling' : ''}, nothing to rank`);
    const noise = relations.map((rel, i) => (rel.symbol === '≈' ? `${ranked[i].name} and ${ranked[i + 1].name}` : null))
      .filter(Boolean);
    if (noise.length) clauses.push(`${noise.join(', ')} within noise`);
    for (const rel of relations) if (rel.why) clauses.push(rel.why);
    const single = [...new Set(relations.flatMap((rel) => rel.single || []))];
    if (single.length) clauses.push(`${single.join(', ')}: ${single.length === 1 ? 'a single run' : 'single runs'}, noise unknown, not ranked`);
    // The limit's "≥" and CPU label are explained like any other figure's.
    const described = [...limits, ...ranked];
    const floorsText = described.filter((e) => e.figure.floorReasons.length)
      .map((e) => `${e.name} (${e.figure.floorReasons.join(', ')})`);
    if (floorsText.length) clauses.push(`≥ marks a floor, not the server's limit: ${floorsText.join('; ')}`);
    // Not a floor, but not full CPU either: say what was seen (floors.js).
    const ownText = described.filter((e) => e.figure.limitNotes.length)
      .map((e) => `${e.name} (${e.figure.limitNotes.join(', ')})`);
    if (ownText.length) clauses.push(`below full CPU: ${ownText.join('; ')}`);
    if (missing.length) clauses.push(`no figure at this level: ${missing.join(', ')}`);
    return `${head}: ${[chain, ...clauses].filter(Boolean).join('; ')}.`;
  }

  /**
   * One verdict per algorithm group present, in the groups' order.
   * @param {object[]} runs site run entries, today's and historic
   * @param {{level?: number|null, limitServers?: {entry: string}[]}} [options] level: the concurrency
   *   to judge every group at; null or absent = each group's default level. limitServers: the
   *   registry's limit servers (data.limit_servers), named as the yardstick and not ranked;
   *   absent = none known, every run ranked
   */
  function verdicts(runs, options) {
    const level = options && options.level != null ? options.level : null;
    const isLimit = limitTest(options && options.limitServers);
    return algorithm.runsByGroup(runs).map(({ group, runs: groupRuns }) => groupVerdict(group, groupRuns, level, isLimit));
  }

  return { verdicts, groupVerdict, figureAt, relation, shortName, figureText };
});
